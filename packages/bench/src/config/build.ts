/**
 * From settings (file, environment, flags; parsed here) to a BenchConfig: per knob the setting of the
 * highest precedence, else what java-anchor fixes, else the default (which may read other knobs).
 * Also records where every value came from, for the contradiction messages.
 */
import type { BenchConfig } from '../types.js';
import { ConfigError, InvalidValue } from './errors.js';
import { formatValue } from './format.js';
import { agreesWithAnchor, anchorValue } from './java-anchor.js';
import { KNOB_KEYS, KNOBS, TOTAL_POINTS, type Getter } from './knobs.js';
import type { Parser } from './parsers.js';
import { RANK, describeOrigin, describeSource, type Origin, type Setting, type Source } from './source.js';

interface Given<T> {
  value: T;
  source: Source;
}

type GivenValues = { [K in keyof BenchConfig]?: Given<BenchConfig[K]> };

interface Built {
  config: BenchConfig;
  origin: (key: keyof BenchConfig) => Origin;
}

export function buildConfig(settings: readonly Setting[]): Built {
  const given: GivenValues = {};
  let totalPoints: Given<number> | undefined;
  for (const s of settings) {
    if (s.key === 'totalPoints')
      totalPoints = higher(totalPoints, { value: parse(TOTAL_POINTS.parse, s.key, s), source: s.source });
    else give(given, s.key, s);
  }

  const values: Partial<BenchConfig> = {};
  const origins = new Map<keyof BenchConfig, Origin>();
  const resolving = new Set<keyof BenchConfig>();
  const get: Getter = (key) => {
    if (!origins.has(key)) {
      if (resolving.has(key)) throw new Error(`the defaults of the knobs form a cycle at ${key}`);
      resolving.add(key);
      const [value, origin] = resolveOne(key, given[key], get, origins);
      values[key] = value;
      origins.set(key, origin);
      resolving.delete(key);
    }
    return values[key] as BenchConfig[typeof key];
  };
  const config = {} as BenchConfig;
  const copy = <K extends keyof BenchConfig>(key: K): void => {
    config[key] = get(key);
  };
  KNOB_KEYS.forEach(copy);

  if (totalPoints !== undefined) {
    const loop = given.loop;
    if (loop !== undefined && RANK[loop.source.kind] === RANK[totalPoints.source.kind]) {
      throw new ConfigError(
        'loop',
        `${describeSource(loop.source)} and ${describeSource(totalPoints.source)} both set the number of rounds: give one of them`,
      );
    }
    if (loop === undefined || RANK[totalPoints.source.kind] > RANK[loop.source.kind]) {
      config.loop = Math.max(1, Math.ceil(totalPoints.value / (config.devices * config.sensors * config.batchSize)));
      origins.set('loop', { kind: 'derived', from: totalPoints.source });
    }
  }
  return { config, origin: (key) => origins.get(key) ?? { kind: 'default' } };
}

function resolveOne<K extends keyof BenchConfig>(
  key: K,
  given: Given<BenchConfig[K]> | undefined,
  get: Getter,
  origins: ReadonlyMap<keyof BenchConfig, Origin>,
): [BenchConfig[K], Origin] {
  const forced = anchorValue(key);
  if (forced !== undefined && get('workload') === 'java-anchor') {
    if (given !== undefined && !agreesWithAnchor(key, forced.value, given.value)) {
      const workload = origins.get('workload') ?? { kind: 'default' };
      throw new ConfigError(
        key,
        `${describeSource(given.source)}: the java-anchor workload (${describeOrigin(workload)}) fixes ${key} at ${formatValue(forced.value)}, got ${formatValue(given.value)}`,
      );
    }
    return [forced.value, { kind: 'java-anchor' }];
  }
  if (given !== undefined) return [given.value, given.source];
  const value = KNOBS[key].default(get);
  // java-anchor as the default of workload comes from --vs-java
  if (key === 'workload' && value === 'java-anchor') {
    const vsJava = origins.get('vsJava');
    if (vsJava?.kind === 'flag' || vsJava?.kind === 'env' || vsJava?.kind === 'file')
      return [value, { kind: 'derived', from: vsJava }];
  }
  return [value, { kind: 'default' }];
}

function give<K extends keyof BenchConfig>(given: GivenValues, key: K, s: Setting): void {
  given[key] = higher(given[key], { value: parse(KNOBS[key].parse, key, s), source: s.source }) as GivenValues[K];
}

/** The later of two settings unless the earlier has the higher precedence. */
function higher<T>(old: Given<T> | undefined, next: Given<T>): Given<T> {
  return old !== undefined && RANK[old.source.kind] > RANK[next.source.kind] ? old : next;
}

/** Parses every given value, also those a higher source overrides: a bad value is an error wherever it is. */
function parse<T>(parser: Parser<T>, knob: string, s: Setting): T {
  try {
    return parser(s.raw);
  } catch (e) {
    if (e instanceof InvalidValue)
      throw new ConfigError(knob, `${describeSource(s.source)}: ${e.message}, got ${JSON.stringify(s.raw)}`);
    throw e;
  }
}
