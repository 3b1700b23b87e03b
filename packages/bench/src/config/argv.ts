/**
 * The command line: `--flag value`, `--flag=value`, boolean flags without a value and `--config FILE`
 * (resolve.ts looks for --help first). Values are parsed later, with the other sources.
 */
import { ConfigError } from './errors.js';
import { KNOB_KEYS, KNOBS, TOTAL_POINTS, TOTAL_POINTS_KEY, type KnobSpec } from './knobs.js';
import type { KnobKey, Setting } from './source.js';
import { didYouMean } from './suggest.js';

interface Argv {
  configPath: string | undefined;
  settings: Setting[];
}

interface FlagTarget {
  key: KnobKey | 'config';
  takesValue: boolean;
}

const FLAGS = new Map<string, FlagTarget>([
  ...KNOB_KEYS.map((key): [string, FlagTarget] => target(key, KNOBS[key])),
  target(TOTAL_POINTS_KEY, TOTAL_POINTS),
  ['--config', { key: 'config', takesValue: true }],
]);

function target(key: KnobKey, spec: Pick<KnobSpec<unknown>, 'flag' | 'arg'>): [string, FlagTarget] {
  return [spec.flag, { key, takesValue: spec.arg !== undefined }];
}

/** The words iotdb-bench takes as a command when they come first (`iotdb-bench merge A.json B.json`). */
export const COMMAND_NAMES = ['compare', 'merge', 'persist', 'read-compare'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Each command's usage line and what it does: its `--help`, the run's `--help`, its usage errors. */
export const COMMANDS: Record<CommandName, { readonly usage: string; readonly about: string }> = {
  compare: {
    usage: 'iotdb-bench compare A/results.json B/results.json [--fail-on-regression]',
    about:
      "each run's figures in B against the run of the same label in A (points/s, p50, p99, client CPU, peak RSS): " +
      "their ratio, and whether it is beyond the runs' own noise; a label's --repeat runs (label#1, label#2, ...) " +
      'as one, their means, the noise from their spread; --fail-on-regression: exit 1 when a figure of B is worse ' +
      'beyond noise over the whole comparison (Holm, family-wise 5 %)',
  },
  merge: {
    usage: 'iotdb-bench merge A/results.json B/results.json ... [--out DIR]',
    about:
      'the shares of several machines that ran at the same time, each over its devices (--device-offset, ' +
      '--device-count), as one run per label: counts added, percentiles from the merged histograms (--out: its files)',
  },
  persist: {
    usage: 'iotdb-bench persist A/results.json ... [--host H] [--port P] [--tls] [--tls-ca CA.pem] [--rpc-compression]',
    about:
      "the runs of result files (a run's --out, merge's --out) written into the IoTDB at --host:--port as " +
      '--persist-results writes them (root.iotdb_bench_results), as IOTDB_USER: the merged shares of several ' +
      'machines as one, or results kept where their run could not reach that server',
  },
  'read-compare': {
    usage:
      'iotdb-bench read-compare [--host H] [--port P] [--sql SQL] [--database DB (table model)] [--fetch-size N] ' +
      '[--rounds N] [--warmup-reads N] [--out FILE.json] [--server-pid PID[,PID...]] [--query-timeout-ms MS] ' +
      '[--rpc-compression] ' +
      '[--tls --tls-ca CA.pem --java-trust-store TRUST.jks]',
    about:
      "one statement read in the same run by our rows, our columns and the Java client's iterator, in turn for each " +
      "round (by default the benchmark's data: SELECT * FROM root.bench.** ALIGN BY DEVICE, with --database " +
      'SELECT * FROM t) after --warmup-reads untimed reads that warm each reader up (default: as many as read 5 M ' +
      'values, 1 to 30); ' +
      "each reader's values/s, client CPU and, with --server-pid, the server's CPU per value and " +
      'the most any reader could read beside it; both clients log in as IOTDB_USER / IOTDB_PASSWORD',
  },
};

/** A command's `--help`. */
export function commandHelp(name: CommandName): string {
  return `usage: ${COMMANDS[name].usage}\n\n${COMMANDS[name].about}`;
}

export function isCommandName(word: string | undefined): word is CommandName {
  return (COMMAND_NAMES as readonly (string | undefined)[]).includes(word);
}

export function parseArgv(argv: readonly string[]): Argv {
  const out: Argv = { configPath: undefined, settings: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (isCommandName(arg)) throw new ConfigError(arg, `"${arg}" is a command: it goes first (iotdb-bench ${arg} ...)`);
    if (!arg.startsWith('--'))
      throw new ConfigError(arg, `unexpected argument "${arg}": flags start with -- (see --help)`);
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    const t = FLAGS.get(flag);
    if (t === undefined)
      throw new ConfigError(flag, `${flag}: unknown flag${didYouMean(flag, [...FLAGS.keys()])} (see --help)`);
    let value = inline;
    if (value === undefined && t.takesValue) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new ConfigError(t.key, `${flag}: needs a value`);
      i++;
    }
    if (t.key === 'config') out.configPath = value;
    else out.settings.push({ key: t.key, raw: value ?? 'true', source: { kind: 'flag', flag } });
  }
  return out;
}
