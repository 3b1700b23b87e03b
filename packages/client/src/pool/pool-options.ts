import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { checkBoolean, poolSize, positiveInt, timerMs } from '../config/checks.js';
import { IssueList } from '../config/issues.js';

/** Pool settings; every field is optional. */
export interface PoolOptions {
  /** Sessions (connections) at most, up to 65535. @default 8 */
  maxSize?: number;
  /** Sessions opened by open() and kept even when idle. @default 0 */
  minSize?: number;
  /** An idle session beyond minSize is closed after this long. @default 60000 */
  maxIdleTimeMs?: number;
  /** How long a caller waits for a free session before IoTDBPoolTimeoutError. @default 30000 */
  waitTimeoutMs?: number;
  /** How often idle sessions are checked (broken connections dropped, idle ones beyond minSize closed). @default 10000 */
  healthCheckIntervalMs?: number;
  /**
   * A device's writes always go through the same session (chosen by hashing the device id; a table tablet's: its
   * first row's device), so they stay in order. @default true
   */
  deviceBinding?: boolean;
}

export interface ResolvedPoolOptions {
  readonly maxSize: number;
  readonly minSize: number;
  readonly maxIdleTimeMs: number;
  readonly waitTimeoutMs: number;
  readonly healthCheckIntervalMs: number;
  readonly deviceBinding: boolean;
}

const DEFAULTS: ResolvedPoolOptions = Object.freeze({
  maxSize: 8,
  minSize: 0,
  maxIdleTimeMs: 60_000,
  waitTimeoutMs: 30_000,
  healthCheckIntervalMs: 10_000,
  deviceBinding: true,
});

/** Pool options over the defaults; every problem in one IoTDBValidationError. */
export function resolvePoolOptions(o: PoolOptions): ResolvedPoolOptions {
  if (o === null || typeof o !== 'object')
    throw new IoTDBValidationError('options', `needs an object, got ${o === null ? 'null' : typeof o}`);
  const issues = new IssueList();
  const resolved = collectPoolOptions(o, issues);
  issues.throwIfAny();
  return resolved;
}

/** Pool options checked one by one (problems go to `issues`) and completed with the defaults. */
export function collectPoolOptions(o: PoolOptions, issues: IssueList): ResolvedPoolOptions {
  const count = (k: Exclude<keyof PoolOptions, 'deviceBinding'>, check = positiveInt): number =>
    issues.take(() => check(k, o[k] ?? DEFAULTS[k], true)) ?? DEFAULTS[k];
  const r = {
    maxSize: count('maxSize', poolSize),
    minSize: count('minSize', poolSize),
    maxIdleTimeMs: count('maxIdleTimeMs'),
    waitTimeoutMs: count('waitTimeoutMs', timerMs),
    healthCheckIntervalMs: count('healthCheckIntervalMs', timerMs),
    deviceBinding: issues.take(() => checkBoolean('deviceBinding', o.deviceBinding ?? DEFAULTS.deviceBinding)) ?? true,
  };
  if (o.maxSize !== undefined && r.maxSize < 1) issues.add('maxSize', 'needs at least 1');
  if (r.minSize > r.maxSize) issues.add('minSize', `${r.minSize} is above maxSize ${r.maxSize}`);
  return Object.freeze(r);
}
