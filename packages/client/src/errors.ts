import { IoTDBError } from '@iotdb/fast-serializer';
import type { TSStatus } from '@iotdb/fast-serializer';

/**
 * Every error the client throws is an IoTDBError:
 * - IoTDBValidationError: bad input, refused before any byte was sent (`field` names it);
 * - IoTDBServerError: the server answered with a failure status (`code`, `message`, `subStatus`);
 * - IoTDBConnectionError: the socket could not be opened or broke (`reason`); IoTDBTimeoutError is one;
 * - IoTDBSessionClosedError: a call on a session that is not open;
 * - IoTDBProtocolError: the server's bytes did not follow the protocol.
 */
export { IoTDBError, IoTDBValidationError, IoTDBProtocolError } from '@iotdb/fast-serializer';

export class IoTDBServerError extends IoTDBError {
  /** IoTDB status code (TSStatusCode), e.g. 700 SQL_PARSE_ERROR, 801 WRONG_LOGIN_PASSWORD */
  readonly code: number;
  /** the server's message, verbatim */
  readonly serverMessage: string;
  /** per-entry statuses of a batch (code 302 MULTIPLE_ERROR), in request order */
  readonly subStatus: readonly TSStatus[];

  constructor(status: TSStatus, context: string) {
    super(`${context}: [${status.code}] ${describeStatus(status)}`);
    this.code = status.code;
    this.serverMessage = status.message ?? '';
    this.subStatus = status.subStatus ?? [];
  }
}

function describeStatus(s: TSStatus): string {
  if (s.message) return s.message;
  const failed = (s.subStatus ?? []).map((sub, i) => ({ sub, i })).filter(({ sub }) => sub.code !== 200 && sub.code !== 400);
  if (failed.length === 0) return 'no message';
  return failed.map(({ sub, i }) => `#${i}: [${sub.code}] ${sub.message ?? ''}`).join('; ');
}

export type ConnectionFailure = 'refused' | 'reset' | 'closed' | 'timeout' | 'unreachable';

export class IoTDBConnectionError extends IoTDBError {
  readonly reason: ConnectionFailure;
  /** host:port of the node */
  readonly endpoint: string;
  constructor(reason: ConnectionFailure, endpoint: string, message: string, options?: ErrorOptions) {
    super(`${endpoint}: ${message}`, options);
    this.reason = reason;
    this.endpoint = endpoint;
  }
}

/** No answer in time: `connectTimeoutMs` while connecting, `requestTimeoutMs` for a call. */
export class IoTDBTimeoutError extends IoTDBConnectionError {
  constructor(endpoint: string, message: string) {
    super('timeout', endpoint, message);
  }
}

export class IoTDBSessionClosedError extends IoTDBError {
  constructor(what = 'session') {
    super(`the ${what} is closed; call open() first`);
  }
}

/** One failed item of a batch: its index in what you passed, and why it failed. */
export interface BatchFailure {
  readonly index: number;
  readonly error: Error;
}

/**
 * Some items of a batch failed and others did not (parallel inserts, executeParallel, a multi-node
 * insertTablets). Nothing is hidden: `failures` lists each failed item with its error, `succeeded` the
 * indexes that were written, `results` what succeeded tasks returned (by index).
 */
export class IoTDBBatchError<T = unknown> extends IoTDBError {
  readonly failures: readonly BatchFailure[];
  readonly succeeded: readonly number[];
  readonly results: readonly (T | undefined)[];

  constructor(what: string, failures: BatchFailure[], succeeded: number[], results: (T | undefined)[] = []) {
    const first = failures[0]?.error.message ?? '';
    super(`${what}: ${failures.length} of ${failures.length + succeeded.length} failed (first: ${first})`, {
      cause: failures[0]?.error,
    });
    this.failures = failures;
    this.succeeded = succeeded;
    this.results = results;
  }
}

/** No pooled session became free within `waitTimeoutMs`. */
export class IoTDBPoolTimeoutError extends IoTDBError {
  constructor(waitTimeoutMs: number, stats: { size: number; inUse: number; waiting: number }) {
    super(`no pooled session free within waitTimeoutMs=${waitTimeoutMs} (size ${stats.size}, in use ${stats.inUse}, waiting ${stats.waiting})`);
  }
}
