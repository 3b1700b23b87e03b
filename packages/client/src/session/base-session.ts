import { plainInsertTabletReq, type PreparedTablet, type TSStatus } from '@iotdb/fast-serializer';
import { IoTDBSessionClosedError } from '../errors.js';
import { rpc } from '../rpc/client-rpc.js';
import { verifySuccess } from '../rpc/status.js';
import { endpointKey, type Endpoint } from './endpoint.js';
import { NodeSession, type SqlDialect, type TimestampPrecision } from './node-session.js';
import { resolveSessionOptions, type ResolvedSessionOptions, type SessionOptions } from './options.js';
import { backoffMs, isRetryable, sleep } from './retry.js';
import { RouteTable } from './routes.js';
import { SessionDataSet } from './session-data-set.js';

export type { SqlDialect, TimestampPrecision } from './node-session.js';

export interface QueryOptions {
  /** rows per fetch for this query. @default the session's fetchSize */
  fetchSize?: number;
  /** server-side query timeout and reply wait, ms. @default the session's requestTimeoutMs */
  timeoutMs?: number;
}

/**
 * What tree and table sessions share. A session has a default node (the first reachable of
 * `nodeUrls`) and, with redirection, one more server session per DataNode that leads some of its
 * devices. Calls that fail for a connection reason reconnect (the same node first, then the others)
 * and are retried up to `maxRetries` times; errors the server returns are not retried.
 */
export abstract class BaseSession {
  protected readonly options: ResolvedSessionOptions;
  protected readonly routes = new RouteTable();
  readonly #dialect: SqlDialect;
  #database: string | undefined;
  #open = false;
  #default: NodeSession | null = null;
  #defaultIndex = 0;
  #connecting: Promise<NodeSession> | null = null;
  readonly #nodes = new Map<string, Promise<NodeSession>>();

  protected constructor(options: SessionOptions, dialect: SqlDialect, database?: string) {
    this.options = resolveSessionOptions(options);
    this.#dialect = dialect;
    this.#database = database;
  }

  /** Opened and not closed (a lost connection is re-established by the next call). */
  get isOpen(): boolean {
    return this.#open;
  }

  /** The default node's connection works right now (a broken one is re-established by the next call). */
  get isConnected(): boolean {
    return this.#default?.isOpen === true;
  }

  /** The server's timestamp precision (`timestamp_precision`), known once open. */
  get timestampPrecision(): TimestampPrecision {
    return this.#default?.precision ?? 'ms';
  }

  /** The database statements run in (table model: the `database` option, then `USE`). */
  protected get currentDatabase(): string | undefined {
    return this.#database;
  }

  /** The node the session talks to by default, 'host:port'. */
  get currentEndpoint(): string | undefined {
    return this.#default?.key;
  }

  /** Connects to the first reachable node and logs in. Rejects with IoTDBServerError (e.g. 801) or IoTDBConnectionError. */
  async open(): Promise<void> {
    if (this.#open && this.#default?.isOpen) return;
    await this.#defaultSession();
    this.#open = true;
  }

  /** Logs out and closes every connection. Safe to call twice; later calls throw IoTDBSessionClosedError. */
  async close(): Promise<void> {
    this.#open = false;
    const nodes = await Promise.allSettled(this.#nodes.values());
    this.#nodes.clear();
    this.routes.clear();
    const others = nodes.flatMap((n) => (n.status === 'fulfilled' ? [n.value.close().catch(() => undefined)] : []));
    const d = this.#default;
    this.#default = null;
    await Promise.all(others);
    await d?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Runs a statement that returns no rows (DDL, INSERT, DELETE, ...). Server failures throw IoTDBServerError. */
  async executeNonQueryStatement(sql: string): Promise<void> {
    const resp = await this.withDefault((ns) =>
      rpc.executeUpdateStatementV2(ns.connection, { sessionId: ns.sessionId, statement: sql, statementId: ns.statementId }),
    );
    verifySuccess(resp.status, sqlContext(sql));
    if (resp.database !== undefined && resp.database !== this.#database) {
      // `USE db` (table model): new server sessions start there; the redirect targets reopen lazily
      this.#database = resp.database;
      await this.#closeNodes();
    }
  }

  /** Runs a query; read the rows with `for await`, or all at once with `toColumnar()`. Close it if you stop early. */
  async executeQueryStatement(sql: string, opts: QueryOptions = {}): Promise<SessionDataSet> {
    const fetchSize = opts.fetchSize ?? this.options.fetchSize;
    const timeoutMs = opts.timeoutMs ?? this.options.requestTimeoutMs;
    const { ns, resp } = await this.withDefault(async (ns) => {
      const resp = await rpc.executeQueryStatementV2(ns.connection, timeoutMs, {
        sessionId: ns.sessionId,
        statement: sql,
        statementId: ns.statementId,
        fetchSize,
        timeout: timeoutMs,
        enableRedirectQuery: false,
      });
      return { ns, resp };
    });
    verifySuccess(resp.status, sqlContext(sql));
    const { connection, sessionId, statementId } = ns;
    return new SessionDataSet({ connection, sessionId, statementId, sql, fetchSize, timeoutMs, int64As: this.options.int64As }, resp);
  }

  /** IoTDBSessionClosedError unless open: checked before anything is encoded or sent. */
  protected checkOpen(): void {
    if (!this.#open) throw new IoTDBSessionClosedError();
  }

  /** Runs `fn` on the default node, reconnecting and retrying on connection failures. */
  protected async withDefault<T>(fn: (ns: NodeSession) => Promise<T>): Promise<T> {
    this.checkOpen();
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn(await this.#defaultSession());
      } catch (e) {
        if (!isRetryable(e) || attempt >= this.options.maxRetries || !this.#open) throw e;
        await sleep(backoffMs(this.options.retryIntervalMs, attempt + 1));
      }
    }
  }

  /**
   * Sends a write to `target` (a node a redirect named) or, without one or when that node fails, to the
   * default node with retries. Server errors throw IoTDBServerError; the status is returned to learn from.
   */
  protected async write(target: Endpoint | undefined, send: (ns: NodeSession) => Promise<TSStatus>, context: string): Promise<TSStatus> {
    this.checkOpen();
    if (target !== undefined && this.options.enableRedirection) {
      try {
        const status = await send(await this.#node(target));
        verifySuccess(status, context);
        return status;
      } catch (e) {
        if (!isRetryable(e)) throw e;
        this.#forgetNode(target); // its devices go to the default node again
      }
    }
    const status = await this.withDefault(send);
    verifySuccess(status, context);
    return status;
  }

  /** The node a device's writes should go to, when a redirect said so. */
  protected routeOf(device: string): Endpoint | undefined {
    return this.options.enableRedirection ? this.routes.get(device) : undefined;
  }

  /** Learns device -> node from a successful write's status (protocol.md 5). */
  protected learnRoutes(status: TSStatus, device: string | null, deviceOf: (i: number) => string | null): void {
    if (this.options.enableRedirection) this.routes.learn(status, device, deviceOf);
  }

  /** One tablet to one node, fast path or plain path (enableFastSerialization). */
  protected sendTablet(ns: NodeSession, p: PreparedTablet): Promise<TSStatus> {
    return this.options.enableFastSerialization
      ? rpc.insertTablet(ns.connection, ns.sessionId, p)
      : rpc.insertTabletStruct(ns.connection, plainInsertTabletReq(ns.sessionId, p));
  }

  /** The working default node session: reconnects (same node first, then the others) when it broke. */
  #defaultSession(): Promise<NodeSession> {
    if (this.#default?.isOpen) return Promise.resolve(this.#default);
    this.#connecting ??= this.#connectDefault().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  async #connectDefault(): Promise<NodeSession> {
    this.#default?.connection.close();
    this.#default = null;
    const eps = this.options.endpoints;
    let last: unknown;
    for (let k = 0; k < eps.length; k++) {
      const i = (this.#defaultIndex + k) % eps.length;
      try {
        const ns = await NodeSession.open(eps[i], this.options, this.#dialect, this.#database);
        this.#defaultIndex = i;
        this.#default = ns;
        return ns;
      } catch (e) {
        if (!isRetryable(e)) throw e; // e.g. a wrong password: the next node would say the same
        last = e;
      }
    }
    throw last;
  }

  #node(target: Endpoint): Promise<NodeSession> {
    const key = endpointKey(target);
    if (this.#default?.isOpen && this.#default.key === key) return Promise.resolve(this.#default);
    let p = this.#nodes.get(key);
    if (p === undefined) {
      p = NodeSession.open(target, this.options, this.#dialect, this.#database);
      p.catch(() => this.#nodes.delete(key));
      this.#nodes.set(key, p);
    }
    return p.then((ns) => {
      if (ns.isOpen) return ns;
      this.#nodes.delete(key);
      return this.#node(target);
    });
  }

  #forgetNode(target: Endpoint): void {
    const key = endpointKey(target);
    this.routes.forgetEndpoint(target);
    const p = this.#nodes.get(key);
    this.#nodes.delete(key);
    p?.then((ns) => ns.connection.close(), () => undefined);
  }

  async #closeNodes(): Promise<void> {
    const nodes = [...this.#nodes.values()];
    this.#nodes.clear();
    for (const p of nodes) await p.then((ns) => ns.close(), () => undefined).catch(() => undefined);
  }
}

function sqlContext(sql: string): string {
  return `"${sql.length > 80 ? sql.slice(0, 80) + '...' : sql}"`;
}
