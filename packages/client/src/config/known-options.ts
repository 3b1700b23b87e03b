import type { PoolOptions } from '../pool/pool-options.js';
import type { RetryOptions } from '../retry/retry-policy.js';
import type { SessionOptions, TableSessionOptions } from '../session/options.js';

/** The DataNode RPC port (`dn_rpc_port`) when nothing gives another. */
export const DEFAULT_PORT = 6667;

/** What is being configured: a tree or table session, alone or pooled. */
export interface ConfigTarget {
  readonly table: boolean;
  readonly pool: boolean;
}

/**
 * How a connection string parameter becomes an option's value (`?fetchSize=100` is the number 100);
 * null: the option is not a parameter (the address and the user are the URL's own parts, objects
 * and functions cannot be written in a URL).
 */
export type ParamType = 'integer' | 'boolean' | 'string' | null;

// Records over every key, so that an option added to the types without being listed here is a compile error.
const SESSION: Record<keyof SessionOptions, ParamType> = {
  url: null,
  host: null,
  port: null,
  username: null,
  password: null,
  nodeUrls: null,
  fetchSize: 'integer',
  readAhead: 'integer',
  timeZone: 'string',
  connectTimeoutMs: 'integer',
  requestTimeoutMs: 'integer',
  queryTimeoutMs: 'integer',
  maxFrameBytes: 'integer',
  enableFastSerialization: 'boolean',
  int64As: 'string',
  timestampAs: 'string',
  bufferPool: null,
  retry: null,
  tls: 'boolean',
  rpcCompression: 'boolean',
  transport: null,
  enableRedirection: 'boolean',
  spreadQueries: 'boolean',
  discoverNodes: 'boolean',
  recordsAsTablets: 'boolean',
  logger: null,
  slowCallMs: 'integer',
};

const TABLE: Record<Exclude<keyof TableSessionOptions, keyof SessionOptions>, ParamType> = {
  database: 'string',
};

const POOL: Record<keyof PoolOptions, ParamType> = {
  maxSize: 'integer',
  minSize: 'integer',
  maxIdleTimeMs: 'integer',
  waitTimeoutMs: 'integer',
  healthCheckIntervalMs: 'integer',
  deviceBinding: 'boolean',
};

const RETRY: Record<keyof RetryOptions, ParamType> = {
  maxElapsedMs: 'integer',
  initialDelayMs: 'integer',
  maxDelayMs: 'integer',
};

/** The options `target` takes, each with its parameter type. */
function optionsOf(target: ConfigTarget): [string, ParamType][] {
  return [
    ...Object.entries(SESSION),
    ...(target.table ? Object.entries(TABLE) : []),
    ...(target.pool ? Object.entries(POOL) : []),
  ];
}

/** The option names `target` takes (for unknown-option errors). */
export function knownOptions(target: ConfigTarget): ReadonlySet<string> {
  return new Set(optionsOf(target).map(([name]) => name));
}

/** An option of another client, and what this one calls it. */
interface NameElsewhere {
  readonly ours: string;
  readonly whose: string;
  readonly note?: string;
}

const JAVA = "the Java Session's";
const BY_TIME = 'retries here are bounded by time: retry.maxElapsedMs';

/**
 * Other clients' names for options this one has under its own, by lower-case name: the Java Session's builders
 * (Session, SessionPool, TableSession of 2.0.1) and the pools of node-postgres, mysql2 and generic-pool. Someone
 * coming from one of them is told the name here, which a near-miss suggestion would not find (`zoneId` is no typo of
 * `timeZone`; `user` is one of `url`).
 */
const NAMES_ELSEWHERE: ReadonlyMap<string, NameElsewhere> = new Map([
  ['zoneid', { ours: 'timeZone', whose: JAVA }],
  ['thriftmaxframesize', { ours: 'maxFrameBytes', whose: JAVA }],
  ['enablerecordsautoconverttablet', { ours: 'recordsAsTablets', whose: JAVA }],
  ['querytimeoutinms', { ours: 'queryTimeoutMs', whose: JAVA }],
  ['enableautofetch', { ours: 'spreadQueries', whose: JAVA }],
  ['maxretrycount', { ours: 'retry', whose: JAVA, note: BY_TIME }],
  [
    'retryintervalinms',
    { ours: 'retry', whose: JAVA, note: 'its delays here: retry.initialDelayMs, retry.maxDelayMs' },
  ],
  ['usessl', { ours: 'tls', whose: JAVA }],
  ['truststore', { ours: 'tls', whose: JAVA, note: 'a CA here is PEM text: tls: { ca }' }],
  ['truststorepwd', { ours: 'tls', whose: JAVA, note: 'a CA here is PEM text: tls: { ca }' }],
  ['connectiontimeoutinms', { ours: 'connectTimeoutMs', whose: JAVA }],
  ['enablecompression', { ours: 'rpcCompression', whose: JAVA }],
  ['user', { ours: 'username', whose: "the Java SessionPool's and node-postgres's" }],
  ['waittogetsessiontimeoutinms', { ours: 'waitTimeoutMs', whose: "the Java SessionPool's" }],
  ['max', { ours: 'maxSize', whose: "node-postgres's" }],
  ['min', { ours: 'minSize', whose: "node-postgres's" }],
  ['idletimeoutmillis', { ours: 'maxIdleTimeMs', whose: "node-postgres's" }],
  ['connectiontimeoutmillis', { ours: 'connectTimeoutMs', whose: "node-postgres's" }],
  ['ssl', { ours: 'tls', whose: "node-postgres's and mysql2's" }],
  ['connectionlimit', { ours: 'maxSize', whose: "mysql2's" }],
  ['acquiretimeoutmillis', { ours: 'waitTimeoutMs', whose: "generic-pool's" }],
]);

/**
 * "did you mean" for `name` when another client calls an option of `known` so (see NAMES_ELSEWHERE), else
 * undefined.
 */
export function nameElsewhere(name: string, known: { has(name: string): boolean }): string | undefined {
  const elsewhere = NAMES_ELSEWHERE.get(name.toLowerCase());
  if (elsewhere === undefined || !known.has(elsewhere.ours)) return undefined;
  const note = elsewhere.note === undefined ? '' : `; ${elsewhere.note}`;
  return `did you mean '${elsewhere.ours}'? ${name} is ${elsewhere.whose} name${note}`;
}

/** The keys of `retry`. */
export const RETRY_KEYS: ReadonlySet<string> = new Set(Object.keys(RETRY));

/** The connection string parameters `target` takes: its scalar options and `retry.*`, with their types. */
export function connectionParams(target: ConfigTarget): ReadonlyMap<string, Exclude<ParamType, null>> {
  const params = new Map<string, Exclude<ParamType, null>>();
  for (const [name, type] of optionsOf(target)) if (type !== null) params.set(name, type);
  for (const [name, type] of Object.entries(RETRY)) if (type !== null) params.set(`retry.${name}`, type);
  return params;
}
