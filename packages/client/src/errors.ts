import { IoTDBError } from '@iotdb/fast-serializer';
import type { TSStatus } from '@iotdb/fast-serializer';

/**
 * Every error the client throws is an IoTDBError:
 * - IoTDBValidationError: bad input, refused before any byte was sent (`field` names it);
 * - IoTDBServerError: the server answered with a failure status (`code`, `message`, `subStatus`);
 * - IoTDBConnectionError: the socket could not be opened or broke (`reason`, `requestSent`);
 *   IoTDBTimeoutError is one;
 * - IoTDBSessionClosedError: a call on a session or pool that is not open, or that was closed meanwhile;
 * - IoTDBAbortError: the caller's AbortSignal fired;
 * - IoTDBBatchError: some items of a multi-item call failed (each listed by its index in your input);
 * - IoTDBProtocolError: the server's bytes did not follow the protocol;
 * - IoTDBQueryTimeoutError: a query's rows ended past its timeout, when the server may have dropped it;
 * - IoTDBWriterClosedError, IoTDBWriteFailedError: a batching writer's (see writer/writer.ts).
 */
export { IoTDBError, IoTDBValidationError, IoTDBProtocolError } from '@iotdb/fast-serializer';

export class IoTDBServerError extends IoTDBError {
  override readonly code = 'IOTDB_SERVER_ERROR';
  /** IoTDB status code (TSStatusCode), e.g. 700 SQL_PARSE_ERROR, 801 WRONG_LOGIN_PASSWORD */
  readonly statusCode: number;
  /** the server's message, verbatim */
  readonly serverMessage: string;
  /** per-entry statuses of a batch (code 302 MULTIPLE_ERROR), in request order */
  readonly subStatus: readonly TSStatus[];
  /** the server marked the failure as transient (TSStatus.needRetry) */
  readonly needRetry: boolean;

  constructor(status: TSStatus, context: string) {
    super(`${context}: [${status.code}] ${describeStatus(status)}`);
    this.statusCode = status.code;
    this.serverMessage = status.message ?? '';
    this.subStatus = status.subStatus ?? [];
    this.needRetry = status.needRetry === true;
  }
}

function describeStatus(s: TSStatus): string {
  if (s.message) return s.message;
  const failed = (s.subStatus ?? [])
    .map((sub, i) => ({ sub, i }))
    .filter(({ sub }) => sub.code !== 200 && sub.code !== 400);
  if (failed.length === 0) return 'no message';
  return failed.map(({ sub, i }) => `#${i}: [${sub.code}] ${sub.message ?? ''}`).join('; ');
}

/** Why a connection failed: `tls` is a handshake or certificate that did not verify. */
export type ConnectionFailure = 'refused' | 'reset' | 'closed' | 'timeout' | 'unreachable' | 'tls';

/** The failure an errno (`ECONNREFUSED`, ...) stands for. */
export function failureOf(e: unknown): ConnectionFailure {
  switch ((e as NodeJS.ErrnoException | undefined)?.code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ETIMEDOUT':
      return 'timeout';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unreachable';
    default:
      return 'reset';
  }
}

const CONNECTION_CODES = {
  refused: 'IOTDB_CONNECTION_REFUSED',
  reset: 'IOTDB_CONNECTION_RESET',
  closed: 'IOTDB_CONNECTION_CLOSED',
  timeout: 'IOTDB_TIMEOUT',
  unreachable: 'IOTDB_HOST_UNREACHABLE',
  tls: 'IOTDB_TLS',
} as const satisfies Record<ConnectionFailure, string>;

export class IoTDBConnectionError extends IoTDBError {
  /** `IOTDB_CONNECTION_REFUSED`, `_RESET`, `_CLOSED`, `IOTDB_HOST_UNREACHABLE`, or `IOTDB_TIMEOUT` (by `reason`) */
  override readonly code: (typeof CONNECTION_CODES)[ConnectionFailure];
  readonly reason: ConnectionFailure;
  /** host:port of the node */
  readonly endpoint: string;
  /**
   * Whether the request's bytes may have reached the server. false: it certainly did not (no
   * connection, or the connection was already broken), so any call may be sent again safely.
   */
  readonly requestSent: boolean;
  /** the call that failed (`executeQueryStatement "SELECT ..."`), when a call did; not while connecting */
  declare readonly operation?: string; // declared: set only when there is one (a field would print as undefined)
  constructor(
    reason: ConnectionFailure,
    endpoint: string,
    message: string,
    requestSent: boolean,
    options?: ErrorOptions & { operation?: string },
  ) {
    const operation = options?.operation;
    super(operation === undefined ? `${endpoint}: ${message}` : `${endpoint}: ${operation}: ${message}`, options);
    this.code = CONNECTION_CODES[reason];
    this.reason = reason;
    this.endpoint = endpoint;
    this.requestSent = requestSent;
    if (operation !== undefined) this.operation = operation;
  }
}

/**
 * No answer in time: `connectTimeoutMs` while connecting (requestSent false), or a call's reply
 * timeout (requestSent true). `operation` names what timed out (`executeQueryStatement "SELECT ..."`).
 */
export class IoTDBTimeoutError extends IoTDBConnectionError {
  declare readonly operation: string;
  constructor(endpoint: string, operation: string, message: string, requestSent: boolean) {
    super('timeout', endpoint, message, requestSent, { operation });
  }
}

/**
 * A query's rows ended past its timeout (`queryTimeoutMs`, else its reply wait: the call's `timeoutMs`, else
 * `requestTimeoutMs`; sent with the query): IoTDB drops a query still running then and answers its next fetch as it
 * answers the end of a result, so the rows read may not be all of them (a query the server had finished is served
 * to its end, and its end looks the same). Read faster, or give the query a longer `queryTimeoutMs` (0: no limit).
 */
export class IoTDBQueryTimeoutError extends IoTDBError {
  override readonly code = 'IOTDB_QUERY_TIMEOUT';
  /** the query's timeout (its queryTimeoutMs), ms */
  readonly timeoutMs: number;
  /** how long the query had run when its rows ended, ms */
  readonly elapsedMs: number;

  constructor(operation: string, timeoutMs: number, elapsedMs: number) {
    super(
      `${operation}: the rows ended ${Math.round(elapsedMs)} ms into the query, past its timeout of ${timeoutMs} ms, ` +
        'when IoTDB drops a query still running and ends its rows as if none were left: the rows read may not be all ' +
        '(a longer queryTimeoutMs, or 0 for no limit, keeps a slow read)',
    );
    this.timeoutMs = timeoutMs;
    this.elapsedMs = elapsedMs;
  }
}

export class IoTDBSessionClosedError extends IoTDBError {
  override readonly code = 'IOTDB_SESSION_CLOSED';
  constructor(what = 'session', detail = 'call open() first') {
    super(`the ${what} is closed; ${detail}`);
  }
}

/** The caller's AbortSignal fired; `cause` is the signal's reason. A write may or may not have been applied. */
export class IoTDBAbortError extends IoTDBError {
  override readonly code = 'IOTDB_ABORTED';
  constructor(what: string, reason: unknown) {
    super(`${what}: aborted`, { cause: reason });
  }
}

/** One failed item of a batch: its index in what you passed, and why it failed. */
export interface BatchFailure {
  readonly index: number;
  readonly error: Error;
  /** the item's device (tree) or table, when the call writes data; the series or device a schema call's item names */
  readonly device?: string;
  /** the IoTDB status code, when the server rejected the item */
  readonly statusCode?: number;
}

/** Item i's failure: its error, its device or table when it names one, the server's status code when it refused it. */
export function batchFailure(index: number, e: unknown, device: unknown): BatchFailure {
  const error = e instanceof Error ? e : new Error(String(e));
  return {
    index,
    error,
    ...(typeof device === 'string' && { device }),
    ...(error instanceof IoTDBServerError && { statusCode: error.statusCode }),
  };
}

/**
 * Some items of a batch failed and others did not (parallel inserts, executeParallel, a multi-device
 * insertTablets or insertRecords, a table insert whose rows went to several nodes, createMultiTimeseries and
 * createTimeseriesUsingSchemaTemplate). Nothing is hidden: `failures` lists each failed item by its index in your
 * input, with its error, device and status code; `succeeded` the indexes that were written (acknowledged by the
 * server); `results` what succeeded tasks returned (by index). An index in neither list was not attempted: the
 * schema calls stop at a failure other than the server refusing an item (a lost connection).
 */
export class IoTDBBatchError<T = unknown> extends IoTDBError {
  override readonly code = 'IOTDB_BATCH_PARTIAL';
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
  override readonly code = 'IOTDB_POOL_TIMEOUT';
  constructor(waitTimeoutMs: number, stats: { size: number; inUse: number; waiting: number; openDataSets: number }) {
    const n = stats.openDataSets;
    // a data set holds its session until it is read to its end or closed: the pool's usual leak, named
    const sets = n === 1 ? 'a data set not read to its end' : 'data sets not read to their end';
    const held = n === 0 ? '' : ` (${n} by ${sets} nor closed)`;
    super(
      `no pooled session free within waitTimeoutMs=${waitTimeoutMs} (size ${stats.size}, in use ${stats.inUse}${held}, waiting ${stats.waiting})`,
    );
  }
}

/** A write() or flush() on a writer that was closed. */
export class IoTDBWriterClosedError extends IoTDBError {
  override readonly code = 'IOTDB_WRITER_CLOSED';
  constructor() {
    super('the writer is closed');
  }
}

/**
 * Rows of a writer without an `onError` were rejected since the last flush() or close(), which rejects
 * with this: how many rows failed and the distinct errors (the first ones). With an `onError` the rows
 * go there instead.
 */
export class IoTDBWriteFailedError extends IoTDBError {
  override readonly code = 'IOTDB_WRITE_FAILED';
  constructor(
    readonly failedRows: number,
    readonly errors: readonly Error[],
  ) {
    super(`${failedRows} row(s) failed to write (first: ${errors[0]?.message ?? ''})`, { cause: errors[0] });
  }
}

/**
 * Adds the caller's own frames to an error made where the caller is not on the stack (a socket
 * event, a timer): `here` is an Error created in the caller's async chain, after its awaits, whose
 * stack V8 fills with the awaiting callers (zero-cost async stack traces). Costs nothing unless an
 * error is thrown.
 */
export function withCallerStack<E>(e: E, here: Error): E {
  if (!(e instanceof Error) || e.stack === undefined || here.stack === undefined) return e;
  const frames = here.stack.split('\n').slice(1);
  const own = frames.filter((f) => !e.stack!.includes(f.trim()));
  if (own.length > 0) e.stack += `\n    --- called from ---\n${own.join('\n')}`;
  return e;
}

/** A statement as errors quote it: its first 80 characters. */
export function sqlContext(sql: string): string {
  return `"${sql.length > 80 ? sql.slice(0, 80) + '...' : sql}"`;
}
