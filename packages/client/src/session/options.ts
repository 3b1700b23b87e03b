import { IoTDBValidationError, globalBufferPool, type BufferPool } from '@iotdb/fast-serializer';
import { parseEndpoint, type Endpoint } from '../cluster/endpoint.js';
import { checkTimeZone } from '../config/time-zone.js';
import {
  checkBoolean,
  checkMethods,
  checkOneOf,
  checkString,
  describe,
  int32Count,
  positiveInt,
  timerMs,
} from '../config/checks.js';
import { IssueList } from '../config/issues.js';
import { DEFAULT_PORT, RETRY_KEYS } from '../config/known-options.js';
import { layerOptions, type LayeredOptions } from '../config/layers.js';
import {
  RETRY_DEFAULTS,
  checkRetryValue,
  resolveRetryOptions,
  type ResolvedRetryOptions,
  type RetryOptions,
} from '../retry/retry-policy.js';
import { tcpTransport } from '../transport/tcp-transport.js';
import { tlsTransport } from '../transport/tls-transport.js';
import type { TlsOptions } from '../transport/tls-options.js';
import type { Transport } from '../transport/transport.js';
import { checkLogger, type Logger } from '../diagnostics/logger.js';

/** How INT64 and TIMESTAMP values (and row timestamps) come back from queries. */
export type Int64Mode = 'bigint' | 'number';

/** How row timestamps come back: bigint (exact), number (exact below 2^53, else an error) or Date (from the server's unit). */
export type TimestampMode = 'bigint' | 'number' | 'Date';

/**
 * Options of `Session` and `TableSession` (and, with PoolOptions, of the pools); every field is optional.
 * Each option is taken from, in this order: this object, its connection string (`url`), the
 * environment (`IOTDB_HOST`, `IOTDB_PORT`, `IOTDB_USER`, `IOTDB_PASSWORD`, `IOTDB_NODE_URLS`), the
 * default. An unknown or invalid option is an IoTDBValidationError at construction, which lists every
 * problem. See the user's guide, "Configuration".
 */
export interface SessionOptions {
  /**
   * A connection string, `iotdb://user:password@host1:6667,host2:6668/?fetchSize=10000&tls=true`,
   * for what this object does not say (the constructors also take the string alone). Several hosts
   * make `nodeUrls`; parameters are options by name (`retry.maxElapsedMs` too); a table session takes
   * its database from the path (`iotdb://host:6667/db`) or `database`. Percent-encode reserved characters
   * of the user and password. @default none
   */
  url?: string;
  /** @default `IOTDB_HOST`, else '127.0.0.1' */
  host?: string;
  /** DataNode RPC port (`dn_rpc_port`). @default `IOTDB_PORT`, else 6667 */
  port?: number;
  /** @default `IOTDB_USER`, else 'root' */
  username?: string;
  /** Kept off the session's and pool's objects (never logged or shown). @default `IOTDB_PASSWORD`, else 'root' */
  password?: string;
  /** Rows the server sends per query response. @default 5000 */
  fetchSize?: number;
  /**
   * Query results: replies fetched ahead of the reader, so that the next `fetchResults` is in flight while the
   * current batch is read (at most this many batches waiting, one fetch at a time). 0 = fetch only when the
   * rows run out. @default 1
   */
  readAhead?: number;
  /** IANA zone or offset sent to the server (it renders times with it). @default the process's zone */
  timeZone?: string;
  /** Time to establish the connection (TCP, the TLS handshake and the login). @default 10000 */
  connectTimeoutMs?: number;
  /**
   * Time to wait for each reply, at most 2147483647 (about 24.8 days, the longest a Node timer waits). 0 = no
   * limit. Also a query's server-side timeout unless `queryTimeoutMs` is given. @default 60000
   */
  requestTimeoutMs?: number;
  /**
   * How long the server keeps a query (from its execute to its last fetch) before it drops it, so that a slow
   * reader can have a long one while replies are still awaited for `requestTimeoutMs`. 0 = no limit (IoTDB would
   * read a 0 as its own `query_timeout_threshold`, 60 s by default: the client asks for the longest instead).
   * @default the reply wait (the call's `timeoutMs`, else `requestTimeoutMs`)
   */
  queryTimeoutMs?: number;
  /**
   * Largest frame sent or accepted, at most 2147483647 (a frame's length is a 32-bit field). @default 536870912
   * (512 MiB, the server's own limit)
   */
  maxFrameBytes?: number;
  /**
   * true: requests are written straight from the tablet into one pooled buffer (the fast path);
   * false: the plain path through the generic Thrift struct codec. Both produce the same bytes.
   * @default true
   */
  enableFastSerialization?: boolean;
  /** INT64/TIMESTAMP results as bigint (exact) or number (throws IoTDBValidationError past 2^53). @default 'bigint' */
  int64As?: Int64Mode;
  /** Row timestamps (`RowRecord.timestamp`) as bigint, number or Date (converted from the server's unit). @default 'number' with int64As 'number', else 'bigint' */
  timestampAs?: TimestampMode;
  /** Where request buffers come from. @default globalBufferPool */
  bufferPool?: BufferPool;
  /**
   * DataNodes to connect to, 'host:port' each; the session uses the first reachable one and fails over
   * to the next when its connection is lost. Overrides host/port. @default `IOTDB_NODE_URLS`
   * (comma-separated), else [`${host}:${port}`]
   */
  nodeUrls?: readonly string[];
  /**
   * How long and how often a failed call is tried again (see the user's guide, "Retries"): writes after
   * connection failures, reply timeouts and "not ready" statuses, on any available node; queries and
   * statements only when they never left the client. @default { maxElapsedMs: 60000, initialDelayMs: 100, maxDelayMs: 2000 }
   */
  retry?: RetryOptions;
  /**
   * TLS for every connection (the default node, the other `nodeUrls`, redirect targets, pooled sessions):
   * `true`, or Node's `tls.ConnectionOptions` (`ca`, `cert`, `key`, `servername`, ...) but where to connect (the
   * session's host and port). The server's certificate is verified unless `rejectUnauthorized: false`; a misspelt
   * option, which Node would ignore, is refused. @default false
   */
  tls?: boolean | TlsOptions;
  /**
   * RPC compression: the Thrift compact protocol, for a server started with
   * `dn_rpc_thrift_compression_enable=true` (Java's `open(true)`); a server without it refuses the
   * connection, and the other way round. @default false
   */
  rpcCompression?: boolean;
  /** How connections reach the nodes; overrides `tls`. @default plain TCP, or TLS with `tls` */
  transport?: Transport;
  /**
   * Send each device's writes, and the queries of one device (structured ones, a tree SELECT of one device, a
   * TableSession's SELECT of one device of a table it or its pool wrote), to the DataNode that leads its region, as the
   * server's replies name it. @default true
   */
  enableRedirection?: boolean;
  /**
   * Queries take turns on the cluster's DataNodes (each query to the next node; its rows are fetched from that
   * node), as the Java Session's do, instead of all going to the default node: the coordinators' work of reads
   * is spread. A node is used once a server session on it is open (opened in the background at its first turn);
   * until then, and while it is quarantined after a failure, its turns go to the default node. Statements and
   * writes are not affected. @default true
   */
  spreadQueries?: boolean;
  /**
   * With `spreadQueries`, learn the DataNodes from the cluster (`SHOW DATANODES` on the default node, at the
   * first query and every minute after), as the Java Session's `enableAutoFetch`: queries take turns on them, and
   * the session fails over to them after `nodeUrls`; off, both keep to `nodeUrls`. Turn it off when the addresses
   * the nodes report (`dn_rpc_address`) are not ones the client can reach (behind NAT, a proxy or a port
   * mapping). @default true
   */
  discoverNodes?: boolean;
  /**
   * `insertRecords` of many rows of a few devices (40 records or more, at most one device for every two), and
   * `insertRecordsOfOneDevice` of 40 rows or more, are sent as those devices' tablets in one insertTablets
   * request, as the Java Session does by default (`enableRecordsAutoConvertTablet`): the server stores them
   * about 5x faster. A device's tablet has the measurements its records name in all, a record's missing ones
   * null. Records that are not rows of tablets (a measurement with two types in a device, a record naming less
   * than half of its device's measurements, a device with a time twice) stay records; errors still name the
   * records by their index.
   * @default true
   */
  recordsAsTablets?: boolean;
  /**
   * Where the client reports connects, failovers, retries, redirects and slow calls (pools: also their
   * growth and shrinking): any object with pino's/console's `debug/info/warn/error(obj, msg)`. The
   * password is never logged. See the user's guide, "Diagnostics". @default none (silent)
   */
  logger?: Logger;
  /** A call that takes longer than this is logged at `warn` (with a logger set). 0 = never. @default 1000 */
  slowCallMs?: number;
}

/** Options of `TableSession`: SessionOptions and the database. */
export interface TableSessionOptions extends SessionOptions {
  /** The database the session starts in (`USE db`); also the connection string's path. @default none */
  database?: string;
}

export interface ResolvedSessionOptions {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly fetchSize: number;
  readonly readAhead: number;
  readonly timeZone: string;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** undefined: a query's timeout is its reply wait */
  readonly queryTimeoutMs: number | undefined;
  readonly maxFrameBytes: number;
  readonly enableFastSerialization: boolean;
  readonly int64As: Int64Mode;
  readonly timestampAs: TimestampMode;
  readonly bufferPool: BufferPool;
  readonly endpoints: readonly Endpoint[];
  readonly retry: ResolvedRetryOptions;
  readonly transport: Transport;
  readonly rpcCompression: boolean;
  readonly enableRedirection: boolean;
  readonly spreadQueries: boolean;
  readonly discoverNodes: boolean;
  readonly recordsAsTablets: boolean;
  readonly logger: Logger | undefined;
  readonly slowCallMs: number;
  /** TableSession: the database it starts in */
  readonly database: string | undefined;
}

/** IoTDB's own default password: not in SESSION_DEFAULTS, so that no exported object holds a password. */
const DEFAULT_PASSWORD = 'root';

/** The session options' defaults (those a user leaves out; the password's is IoTDB's own, `root`). */
export const SESSION_DEFAULTS = Object.freeze({
  host: '127.0.0.1',
  port: DEFAULT_PORT,
  username: 'root',
  fetchSize: 5000,
  readAhead: 1,
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxFrameBytes: 512 * 1024 * 1024,
  enableFastSerialization: true,
  int64As: 'bigint',
  enableRedirection: true,
  spreadQueries: true,
  discoverNodes: true,
  recordsAsTablets: true,
  slowCallMs: 1000,
});

/**
 * Passwords of resolved options, kept off every object a user can reach: not a property (enumerable
 * or not) of the options, the session or the pool, so that neither code nor `util.inspect` nor a log
 * of the options can show it. Only the login reads it (`passwordOf`, not exported by the package).
 */
const passwords = new WeakMap<ResolvedSessionOptions, string>();

export function passwordOf(options: ResolvedSessionOptions): string {
  return passwords.get(options) ?? DEFAULT_PASSWORD;
}

/** The model a session speaks; table sessions also take `database`. */
export type SessionModel = 'tree' | 'table';

/**
 * A session's options, resolved with the documented precedence, per option: the options object, its
 * connection string (`url`, or a string given instead of options), the environment (IOTDB_HOST, ...),
 * the defaults. Every unknown or invalid option is reported in one IoTDBValidationError. Options
 * already resolved (a pool resolves them once for all its sessions) are returned as they are.
 */
export function resolveSessionOptions(
  input: SessionOptions | string = {},
  model: SessionModel = 'tree',
  env: NodeJS.ProcessEnv = process.env,
): ResolvedSessionOptions {
  if (isResolved(input)) return input;
  const issues = new IssueList();
  const layered = layerOptions(input, { table: model === 'table', pool: false }, issues, env);
  const resolved = collectSessionOptions(layered, issues);
  issues.throwIfAny();
  return resolved;
}

function isResolved(input: unknown): input is ResolvedSessionOptions {
  return typeof input === 'object' && input !== null && passwords.has(input as ResolvedSessionOptions);
}

/** Options with every layer applied, checked one by one (problems go to `issues`) and completed with the defaults. */
export function collectSessionOptions(o: LayeredOptions, issues: IssueList): ResolvedSessionOptions {
  const int = (field: keyof LayeredOptions, fallback: number, allowZero = false, check = positiveInt): number =>
    issues.take(() => check(field, (o[field] as number | undefined) ?? fallback, allowZero)) ?? fallback;
  const bool = (field: keyof LayeredOptions, fallback: boolean): boolean =>
    issues.take(() => checkBoolean(field, o[field] ?? fallback)) ?? fallback;
  const int64As = (): Int64Mode =>
    issues.take(() => checkOneOf('int64As', o.int64As ?? SESSION_DEFAULTS.int64As, INT64_MODES)) ??
    SESSION_DEFAULTS.int64As;
  const timestampAs = (int64: Int64Mode): TimestampMode => {
    const fallback = int64 === 'number' ? 'number' : 'bigint';
    return issues.take(() => checkOneOf('timestampAs', o.timestampAs ?? fallback, TIMESTAMP_MODES)) ?? fallback;
  };
  // in the order of the fields, so that the problems are listed in that order
  let int64: Int64Mode;
  const r: ResolvedSessionOptions = {
    host: issues.take(() => checkString('host', o.host ?? SESSION_DEFAULTS.host)) ?? SESSION_DEFAULTS.host,
    port: issues.take(() => portOf(o.port ?? SESSION_DEFAULTS.port)) ?? SESSION_DEFAULTS.port,
    username:
      issues.take(() => checkString('username', o.username ?? SESSION_DEFAULTS.username)) ?? SESSION_DEFAULTS.username,
    fetchSize: int('fetchSize', SESSION_DEFAULTS.fetchSize, false, int32Count),
    readAhead: int('readAhead', SESSION_DEFAULTS.readAhead, true),
    // the process's own zone is the server's to judge (a machine may report one such as Etc/Unknown)
    timeZone:
      o.timeZone === undefined
        ? processTimeZone()
        : (issues.take(() => checkTimeZone('timeZone', o.timeZone)) ?? processTimeZone()),
    connectTimeoutMs: int('connectTimeoutMs', SESSION_DEFAULTS.connectTimeoutMs, false, timerMs),
    requestTimeoutMs: int('requestTimeoutMs', SESSION_DEFAULTS.requestTimeoutMs, true, timerMs),
    queryTimeoutMs: o.queryTimeoutMs === undefined ? undefined : int('queryTimeoutMs', 0, true),
    maxFrameBytes: int('maxFrameBytes', SESSION_DEFAULTS.maxFrameBytes, false, int32Count), // a frame's length: an i32
    enableFastSerialization: bool('enableFastSerialization', SESSION_DEFAULTS.enableFastSerialization),
    int64As: (int64 = int64As()),
    timestampAs: timestampAs(int64),
    bufferPool: issues.take(() => bufferPoolOf(o.bufferPool)) ?? globalBufferPool,
    endpoints: issues.take(() => endpointsOf(o)) ?? [],
    retry: retryOf(o.retry, issues),
    transport: transportFor(o, issues),
    rpcCompression: bool('rpcCompression', false),
    enableRedirection: bool('enableRedirection', SESSION_DEFAULTS.enableRedirection),
    spreadQueries: bool('spreadQueries', SESSION_DEFAULTS.spreadQueries),
    discoverNodes: bool('discoverNodes', SESSION_DEFAULTS.discoverNodes),
    recordsAsTablets: bool('recordsAsTablets', SESSION_DEFAULTS.recordsAsTablets),
    logger: issues.take(() => checkLogger(o.logger)),
    slowCallMs: int('slowCallMs', SESSION_DEFAULTS.slowCallMs, true),
    database: o.database === undefined ? undefined : issues.take(() => checkString('database', o.database)),
  };
  const password: unknown = o.password ?? DEFAULT_PASSWORD;
  if (typeof password !== 'string') issues.add('password', 'needs a string');
  const resolved = Object.freeze(r);
  passwords.set(resolved, typeof password === 'string' ? password : DEFAULT_PASSWORD);
  return resolved;
}

const INT64_MODES: readonly Int64Mode[] = ['bigint', 'number'];
const TIMESTAMP_MODES: readonly TimestampMode[] = ['bigint', 'number', 'Date'];

function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function portOf(port: unknown): number {
  if (typeof port !== 'number' || !Number.isSafeInteger(port) || port < 1 || port > 65535)
    throw new IoTDBValidationError('port', `needs 1-65535, got ${describe(port)}`);
  return port;
}

function bufferPoolOf(pool: unknown): BufferPool {
  return pool === undefined ? globalBufferPool : checkMethods<BufferPool>('bufferPool', pool, ['acquire', 'release']);
}

function transportObject(transport: unknown): Transport {
  return checkMethods<Transport>('transport', transport, ['connect']);
}

/** Each `retry` key checked (all of them reported), then the budget as a whole. */
function retryOf(retry: unknown, issues: IssueList): ResolvedRetryOptions {
  const before = issues.size;
  if (typeof retry === 'object' && retry !== null) {
    for (const [key, v] of Object.entries(retry)) {
      if (RETRY_KEYS.has(key) && v !== undefined)
        issues.take(() => checkRetryValue(key as keyof RetryOptions, v as number));
    }
  }
  if (issues.size > before) return RETRY_DEFAULTS;
  return issues.take(() => resolveRetryOptions(retry as RetryOptions | undefined)) ?? RETRY_DEFAULTS;
}

/** `transport`, else one for `tls` (checked either way). */
function transportFor(o: LayeredOptions, issues: IssueList): Transport {
  const forTls = issues.take(() => transportOf(o.tls)) ?? tcpTransport;
  return o.transport === undefined ? forTls : (issues.take(() => transportObject(o.transport)) ?? tcpTransport);
}

function transportOf(tls: unknown): Transport {
  if (tls === undefined || tls === false) return tcpTransport;
  if (tls === true) return tlsTransport();
  if (tls === null || typeof tls !== 'object' || Array.isArray(tls))
    throw new IoTDBValidationError('tls', `needs a boolean or tls.ConnectionOptions, got ${describe(tls)}`);
  return tlsTransport(tls);
}

function endpointsOf(o: LayeredOptions): Endpoint[] {
  if (o.nodeUrls === undefined)
    return [{ host: o.host ?? SESSION_DEFAULTS.host, port: o.port ?? SESSION_DEFAULTS.port }];
  if (!Array.isArray(o.nodeUrls)) {
    const where = 'comma-separated in IOTDB_NODE_URLS or a connection string: iotdb://h1:6667,h2:6667';
    throw new IoTDBValidationError('nodeUrls', `needs an array of 'host:port' (${where}), got ${describe(o.nodeUrls)}`);
  }
  if (o.nodeUrls.length === 0) throw new IoTDBValidationError('nodeUrls', "needs at least one 'host:port'");
  const issues = new IssueList();
  const urls: readonly unknown[] = o.nodeUrls;
  const endpoints = urls.map((u, i) => issues.take(() => parseEndpoint(u as string, `nodeUrls[${i}]`)));
  issues.throwIfAny();
  return endpoints as Endpoint[];
}
