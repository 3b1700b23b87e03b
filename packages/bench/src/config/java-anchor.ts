/**
 * `--workload java-anchor`: exactly packages/bench/java/Bench.java (the Java anchor)'s workload. It fixes the knobs
 * below (the model stays free: Bench.java has tree, aligned and table modes); the workload generator
 * assigns the types per sensor as Bench.java does (s0..14 FLOAT, ..., s45..49 BOOLEAN), which these
 * proportions describe. An explicit conflicting value for any of them is an error.
 */
import type { BenchConfig } from '../types.js';
import { proportions, sameProportions } from './type-proportions.js';

type Forced = { [K in keyof BenchConfig]?: BenchConfig[K] };

const JAVA_ANCHOR: Readonly<Forced> = {
  devices: 100,
  sensors: 50,
  batchSize: 500,
  values: 'pattern',
  // 30/20/20/10/10/10 % FLOAT/DOUBLE/INT32/INT64/TEXT/BOOLEAN of 50 sensors
  typeProportions: proportions({ FLOAT: 15, DOUBLE: 10, INT32: 10, INT64: 5, TEXT: 5, BOOLEAN: 5 }),
  // TEXT values are "value-NN": 8 characters
  stringLength: 8,
  timeStep: 1000,
  precision: 'ms',
  nullRatio: 0,
  outOfOrderRatio: 0,
  // its insertRecords: each device's rows, one device after another
  interlacedDevices: 1,
};

/** The value java-anchor fixes for `key`, if it fixes one. */
export function anchorValue<K extends keyof BenchConfig>(key: K): { value: BenchConfig[K] } | undefined {
  return key in JAVA_ANCHOR ? { value: JAVA_ANCHOR[key] as BenchConfig[K] } : undefined;
}

/** Whether an explicit value agrees with the anchor's (type proportions: the same shares). */
export function agreesWithAnchor<K extends keyof BenchConfig>(
  key: K,
  forced: BenchConfig[K],
  given: BenchConfig[K],
): boolean {
  if (key === 'typeProportions')
    return sameProportions(forced as BenchConfig['typeProportions'], given as BenchConfig['typeProportions']);
  return forced === given;
}
