/**
 * `--config FILE`: a JSON object (`.json`) or a YAML map (`.yaml`/`.yml`, see config-file-yaml.ts) whose keys
 * are BenchConfig field names (and totalPoints). An unknown key is an error naming it; null means "not set".
 */
import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { ConfigError } from './errors.js';
import { KNOB_KEYS, KNOBS, TOTAL_POINTS_KEY } from './knobs.js';
import type { KnobKey, Setting } from './source.js';
import { didYouMean } from './suggest.js';
import { yamlEntries, type ConfigEntry } from './config-file-yaml.js';
import type { RawValue } from './parsers.js';

const KEYS: readonly KnobKey[] = [...KNOB_KEYS, TOTAL_POINTS_KEY];

export function readConfigFile(path: string): Setting[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError('config', `--config: cannot read ${path}: ${(e as Error).message}`);
  }
  return parseConfigText(text, path);
}

/** The settings of a config file's text; the format follows `path`'s extension. */
function parseConfigText(text: string, path: string): Setting[] {
  const ext = extname(path).toLowerCase();
  let entries: ConfigEntry[];
  if (ext === '.json') entries = jsonEntries(text, path);
  else if (ext === '.yaml' || ext === '.yml') entries = yamlEntries(text, path);
  else throw new ConfigError('config', `--config: ${path}: needs a .json, .yaml or .yml file`);
  return entries.flatMap(({ key, value, line }) => {
    const known = KEYS.find((k) => k === key);
    const where = `${path}${line === undefined ? '' : `:${line}`}`;
    if (known === undefined)
      throw new ConfigError(
        key,
        `${where}: unknown key "${key}"${didYouMean(key, KEYS)}; keys are the knob names --help shows in [brackets]`,
      );
    if (value === null) return [];
    return [{ key: known, raw: besideTheFile(known, value, path), source: { kind: 'file', path, key, line } }];
  });
}

/**
 * A file or directory the config file names (--query-file, --out, --tls-ca, --java-trust-store), taken from the
 * file's own directory when relative, as tsconfig's and Compose's paths are: the config and what it names move
 * together, wherever the run is started. A flag's or the environment's stays relative to the working directory.
 */
function besideTheFile(key: KnobKey, value: RawValue, path: string): RawValue {
  const names = key !== TOTAL_POINTS_KEY && KNOBS[key].path === true;
  return names && typeof value === 'string' && value.trim() !== '' ? resolve(dirname(path), value) : value;
}

function jsonEntries(text: string, path: string): ConfigEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError('config', `${path}: invalid JSON: ${(e as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new ConfigError('config', `${path}: needs a JSON object of knobs`);
  return Object.entries(data as Record<string, RawValue>).map(([key, value]) => ({ key, value, line: undefined }));
}
