/**
 * Resolves the benchmark's configuration: defaults < `--config FILE` < environment < flags, then
 * `--workload java-anchor`'s fixed knobs and the contradiction checks. Errors are ConfigErrors
 * naming the knob and where its value came from.
 */
import type { BenchConfig } from '../types.js';
import { parseArgv } from './argv.js';
import { buildConfig } from './build.js';
import { readConfigFile } from './config-file.js';
import { checkContradictions } from './contradictions.js';
import { envSettings } from './env.js';

export { ConfigError } from './errors.js';
export { helpText } from './help.js';
export { describePlan } from './plan.js';

/** `--help`/`-h` anywhere wins: nothing else is read and the config is the defaults. */
export function resolveConfig(
  argv: string[],
  env: Record<string, string | undefined>,
): { config: BenchConfig; help: boolean } {
  if (argv.includes('--help') || argv.includes('-h')) return { config: buildConfig([]).config, help: true };
  const args = parseArgv(argv);
  const file = args.configPath === undefined ? [] : readConfigFile(args.configPath);
  const { config, origin } = buildConfig([...file, ...envSettings(env), ...args.settings]);
  checkContradictions(config, origin);
  return { config, help: false };
}
