import { BufferPool, IoTDBValidationError, globalBufferPool } from '@iotdb/fast-serializer';
import { parseEndpoint, type Endpoint } from '../cluster/endpoint.js';
import { resolveRetryOptions, type ResolvedRetryOptions, type RetryOptions } from '../retry/retry-policy.js';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { tcpTransport } from '../transport/tcp-transport.js';
import { tlsTransport } from '../transport/tls-transport.js';
import type { Transport } from '../transport/transport.js';

/** How INT64 and TIMESTAMP values (and row timestamps) come back from queries. */
export type Int64Mode = 'bigint' | 'number';

/** How row timestamps come back: bigint (exact), number (exact below 2^53, else an error) or Date (from the server's unit). */
export type TimestampMode = 'bigint' | 'number' | 'Date';

/** Options of `Session` and `TableSession`; every field is optional. */
export interface SessionOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** DataNode RPC port (`dn_rpc_port`). @default 6667 */
  port?: number;
  /** @default 'root' */
  username?: string;
  /** @default 'root' */
  password?: string;
  /** Rows the server sends per query response. @default 5000 */
  fetchSize?: number;
  /** IANA zone or offset sent to the server (it renders times with it). @default the process's zone */
  timeZone?: string;
  /** Time to establish the connection (TCP, the TLS handshake and the login). @default 10000 */
  connectTimeoutMs?: number;
  /** Time to wait for each reply; also the server-side query timeout. 0 = no limit. @default 60000 */
  requestTimeoutMs?: number;
  /** Largest reply frame accepted. @default 536870912 (512 MiB, the server's own limit) */
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
   * to the next when its connection is lost. Overrides host/port. @default [`${host}:${port}`]
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
   * `true`, or Node's `tls.ConnectionOptions` (`ca`, `cert`, `key`, `servername`, ...). The server's
   * certificate is verified unless `rejectUnauthorized: false`. @default false
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
  /** Send each device's writes to the DataNode that leads its region, as the server recommends. @default true */
  enableRedirection?: boolean;
}

/** TableSession only: the database the session starts in (`USE db`). */
export interface TableSessionOptions extends SessionOptions {
  database?: string;
}

export interface ResolvedSessionOptions {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly fetchSize: number;
  readonly timeZone: string;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
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
}

const DEFAULTS = Object.freeze({
  host: '127.0.0.1',
  port: 6667,
  username: 'root',
  password: 'root',
  fetchSize: 5000,
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxFrameBytes: 512 * 1024 * 1024,
  enableFastSerialization: true,
  int64As: 'bigint' as Int64Mode,
  enableRedirection: true,
});

export function positiveInt(field: string, v: number, allowZero = false): number {
  if (!Number.isSafeInteger(v) || v < 0 || (!allowZero && v === 0)) {
    throw new IoTDBValidationError(
      field,
      `needs a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(v)}`,
    );
  }
  return v;
}

/**
 * Passwords of resolved options, kept off every object a user can reach: not a property (enumerable
 * or not) of the options, the session or the pool, so that neither code nor `util.inspect` nor a log
 * of the options can show it. Only the login reads it (`passwordOf`, not exported by the package).
 */
const passwords = new WeakMap<ResolvedSessionOptions, string>();

export function passwordOf(options: ResolvedSessionOptions): string {
  return passwords.get(options) ?? DEFAULTS.password;
}

/** Options over defaults; the password is held apart (see `passwords`). */
export function resolveSessionOptions(o: SessionOptions = {}): ResolvedSessionOptions {
  if (o === null || typeof o !== 'object')
    throw new IoTDBValidationError('options', `needs an object, got ${o === null ? 'null' : typeof o}`);
  const r = {
    host: o.host ?? DEFAULTS.host,
    port: positiveInt('port', o.port ?? DEFAULTS.port),
    username: o.username ?? DEFAULTS.username,
    fetchSize: positiveInt('fetchSize', o.fetchSize ?? DEFAULTS.fetchSize),
    timeZone: o.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    connectTimeoutMs: positiveInt('connectTimeoutMs', o.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs),
    requestTimeoutMs: positiveInt('requestTimeoutMs', o.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs, true),
    maxFrameBytes: positiveInt('maxFrameBytes', o.maxFrameBytes ?? DEFAULTS.maxFrameBytes),
    enableFastSerialization: o.enableFastSerialization ?? DEFAULTS.enableFastSerialization,
    int64As: o.int64As ?? DEFAULTS.int64As,
    timestampAs: o.timestampAs ?? (o.int64As === 'number' ? 'number' : 'bigint'),
    bufferPool: o.bufferPool ?? globalBufferPool,
    endpoints: endpointsOf(o),
    retry: resolveRetryOptions(o.retry),
    transport: o.transport ?? transportOf(o.tls),
    rpcCompression: o.rpcCompression ?? false,
    enableRedirection: o.enableRedirection ?? DEFAULTS.enableRedirection,
  };
  if (typeof r.host !== 'string' || r.host.length === 0)
    throw new IoTDBValidationError('host', 'needs a non-empty string');
  if (r.port > 65535) throw new IoTDBValidationError('port', `needs 1-65535, got ${r.port}`);
  if (typeof r.rpcCompression !== 'boolean')
    throw new IoTDBValidationError('rpcCompression', `needs a boolean, got ${String(r.rpcCompression)}`);
  if (r.timestampAs !== 'bigint' && r.timestampAs !== 'number' && r.timestampAs !== 'Date') {
    throw new IoTDBValidationError('timestampAs', `needs 'bigint', 'number' or 'Date', got ${String(r.timestampAs)}`);
  }
  if (r.int64As !== 'bigint' && r.int64As !== 'number') {
    throw new IoTDBValidationError('int64As', `needs 'bigint' or 'number', got ${String(r.int64As)}`);
  }
  if (o.password !== undefined && typeof o.password !== 'string')
    throw new IoTDBValidationError('password', 'needs a string');
  const resolved = Object.freeze(r) as ResolvedSessionOptions;
  passwords.set(resolved, o.password ?? DEFAULTS.password);
  return resolved;
}

function transportOf(tls: SessionOptions['tls']): Transport {
  if (tls === undefined || tls === false) return tcpTransport;
  if (tls === true) return tlsTransport();
  if (tls === null || typeof tls !== 'object')
    throw new IoTDBValidationError('tls', `needs a boolean or tls.ConnectionOptions, got ${String(tls)}`);
  return tlsTransport(tls);
}

function endpointsOf(o: SessionOptions): Endpoint[] {
  if (o.nodeUrls === undefined) return [{ host: o.host ?? DEFAULTS.host, port: o.port ?? DEFAULTS.port }];
  if (!Array.isArray(o.nodeUrls) || o.nodeUrls.length === 0)
    throw new IoTDBValidationError('nodeUrls', "needs at least one 'host:port'");
  return o.nodeUrls.map((u, i) => parseEndpoint(u, `nodeUrls[${i}]`));
}
