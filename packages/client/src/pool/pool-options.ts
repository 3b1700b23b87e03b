import { IoTDBValidationError } from '@iotdb/fast-serializer';

/** Pool settings; every field is optional. */
export interface PoolOptions {
  /** Sessions (connections) at most. @default 8 */
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
   * A device's writes always go through the same session (chosen by hashing the device id), so they
   * stay in order and that session's redirect cache stays warm. @default true
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

export function resolvePoolOptions(o: PoolOptions): ResolvedPoolOptions {
  if (o === null || typeof o !== 'object')
    throw new IoTDBValidationError('options', `needs an object, got ${o === null ? 'null' : typeof o}`);
  const r = {
    maxSize: o.maxSize ?? DEFAULTS.maxSize,
    minSize: o.minSize ?? DEFAULTS.minSize,
    maxIdleTimeMs: o.maxIdleTimeMs ?? DEFAULTS.maxIdleTimeMs,
    waitTimeoutMs: o.waitTimeoutMs ?? DEFAULTS.waitTimeoutMs,
    healthCheckIntervalMs: o.healthCheckIntervalMs ?? DEFAULTS.healthCheckIntervalMs,
    deviceBinding: o.deviceBinding ?? DEFAULTS.deviceBinding,
  };
  for (const k of ['maxSize', 'minSize', 'maxIdleTimeMs', 'waitTimeoutMs', 'healthCheckIntervalMs'] as const) {
    if (!Number.isSafeInteger(r[k]) || r[k] < 0)
      throw new IoTDBValidationError(k, `needs a non-negative integer, got ${String(r[k])}`);
  }
  if (r.maxSize < 1) throw new IoTDBValidationError('maxSize', 'needs at least 1');
  if (r.minSize > r.maxSize) throw new IoTDBValidationError('minSize', `${r.minSize} is above maxSize ${r.maxSize}`);
  return r;
}
