import { IoTDBValidationError } from '@iotdb/fast-serializer';

/**
 * Where the client reports what it does: connects, failovers, retries, redirects, pool growth, slow calls.
 * The shape pino, bunyan-style loggers and `console` share: a context object first, then the message.
 * Silent by default. The password is never part of what is logged.
 *
 * | level   | events |
 * |---------|--------|
 * | `debug` | a redirect learned (a device's writes go to another DataNode from now on) |
 * | `info`  | a connection opened (login included); failover to another node; a pooled session opened or closed |
 * | `warn`  | a connect that failed; a call tried again (attempt, delay, error code); a slow call |
 * | `error` | a call that failed after it had been tried again |
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** The `logger` option: undefined, or an object with the four methods. */
export function checkLogger(logger: unknown): Logger | undefined {
  if (logger === undefined) return undefined;
  const missing =
    logger === null || typeof logger !== 'object'
      ? LEVELS
      : LEVELS.filter((l) => typeof (logger as Record<string, unknown>)[l] !== 'function');
  if (missing.length > 0) {
    throw new IoTDBValidationError(
      'logger',
      `needs debug/info/warn/error(obj, msg) methods (missing ${missing.join(', ')})`,
    );
  }
  return logger as Logger;
}
