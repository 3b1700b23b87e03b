import {
  IOTDB_SERVICE_PROTOCOL_V3,
  IoTDBProtocolError,
  plainInsertTabletReq,
  type PreparedTablet,
  type TSStatus,
} from '@iotdb/fast-serializer';
import { ThriftConnection } from '../connection/thrift-connection.js';
import { IoTDBSessionClosedError } from '../errors.js';
import { rpc } from '../rpc/client-rpc.js';
import { verifySuccess } from '../rpc/status.js';
import { resolveSessionOptions, type ResolvedSessionOptions, type SessionOptions } from './options.js';
import { SessionDataSet } from './session-data-set.js';

export type SqlDialect = 'tree' | 'table';
export type TimestampPrecision = 'ms' | 'us' | 'ns';

export interface QueryOptions {
  /** rows per fetch for this query. @default the session's fetchSize */
  fetchSize?: number;
  /** server-side query timeout and reply wait, ms. @default the session's requestTimeoutMs */
  timeoutMs?: number;
}

interface OpenState {
  readonly connection: ThriftConnection;
  readonly sessionId: bigint;
  /** Java asks for one statement id after opening and uses it for every statement (protocol.md 2). */
  readonly statementId: bigint;
}

/**
 * What tree and table sessions share: one TCP connection, one server session on it, SQL statements
 * and queries. Writes are in the subclasses.
 */
export abstract class BaseSession {
  protected readonly options: ResolvedSessionOptions;
  readonly #dialect: SqlDialect;
  readonly #database: string | undefined;
  #state: OpenState | null = null;
  #opening: Promise<void> | null = null;
  #precision: TimestampPrecision = 'ms';

  protected constructor(options: SessionOptions, dialect: SqlDialect, database?: string) {
    this.options = resolveSessionOptions(options);
    this.#dialect = dialect;
    this.#database = database;
  }

  get isOpen(): boolean {
    return this.#state !== null && this.#state.connection.isOpen;
  }

  /** The server's timestamp precision (`timestamp_precision`), known once open. */
  get timestampPrecision(): TimestampPrecision {
    return this.#precision;
  }

  /** Connects and logs in. A wrong password or an unreachable server rejects (IoTDBServerError 801 / IoTDBConnectionError). */
  async open(): Promise<void> {
    if (this.#state !== null && this.#state.connection.isOpen) return;
    if (this.#state !== null) {
      // the connection broke: reopen with a new server session
      this.#state.connection.close();
      this.#state = null;
    }
    this.#opening ??= this.#open().finally(() => (this.#opening = null));
    return this.#opening;
  }

  async #open(): Promise<void> {
    const o = this.options;
    const connection = await ThriftConnection.connect({
      host: o.host,
      port: o.port,
      connectTimeoutMs: o.connectTimeoutMs,
      requestTimeoutMs: o.requestTimeoutMs,
      maxFrameBytes: o.maxFrameBytes,
      bufferPool: o.bufferPool,
    });
    try {
      const configuration = new Map([
        ['version', 'V_1_0'], // redirect info is computed only for V_1_0 clients
        ['sql_dialect', this.#dialect],
      ]);
      if (this.#database !== undefined) configuration.set('db', this.#database);
      const resp = await rpc.openSession(connection, {
        client_protocol: IOTDB_SERVICE_PROTOCOL_V3,
        zoneId: o.timeZone,
        username: o.username,
        password: o.password,
        configuration,
      });
      verifySuccess(resp.status, 'openSession');
      if (resp.sessionId === undefined) throw new IoTDBProtocolError('openSession: no sessionId in the reply');
      const precision = resp.configuration?.get('timestamp_precision');
      if (precision === 'us' || precision === 'ns') this.#precision = precision;
      const statementId = await rpc.requestStatementId(connection, resp.sessionId);
      this.#state = { connection, sessionId: resp.sessionId, statementId };
    } catch (e) {
      connection.close();
      throw e;
    }
  }

  /** Logs out and closes the connection. Safe to call twice; later calls on the session throw IoTDBSessionClosedError. */
  async close(): Promise<void> {
    const state = this.#state;
    if (state === null) return;
    this.#state = null;
    try {
      if (state.connection.isOpen) verifySuccess(await rpc.closeSession(state.connection, state.sessionId), 'closeSession');
    } finally {
      state.connection.close();
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Runs a statement that returns no rows (DDL, INSERT, DELETE, ...). Server failures throw IoTDBServerError. */
  async executeNonQueryStatement(sql: string): Promise<void> {
    const s = this.state();
    const resp = await rpc.executeUpdateStatementV2(s.connection, { sessionId: s.sessionId, statement: sql, statementId: s.statementId });
    verifySuccess(resp.status, sqlContext(sql));
  }

  /** Runs a query; read the rows with `for await`, or all at once with `toColumnar()`. Close it if you stop early. */
  async executeQueryStatement(sql: string, opts: QueryOptions = {}): Promise<SessionDataSet> {
    const s = this.state();
    const fetchSize = opts.fetchSize ?? this.options.fetchSize;
    const timeoutMs = opts.timeoutMs ?? this.options.requestTimeoutMs;
    const resp = await rpc.executeQueryStatementV2(s.connection, timeoutMs, {
      sessionId: s.sessionId,
      statement: sql,
      statementId: s.statementId,
      fetchSize,
      timeout: timeoutMs,
      enableRedirectQuery: false,
    });
    verifySuccess(resp.status, sqlContext(sql));
    const { connection, sessionId, statementId } = s;
    return new SessionDataSet({ connection, sessionId, statementId, sql, fetchSize, timeoutMs, int64As: this.options.int64As }, resp);
  }

  /** The open state, or IoTDBSessionClosedError: checked before anything is encoded or sent. */
  protected state(): OpenState {
    const s = this.#state;
    if (s === null || !s.connection.isOpen) throw new IoTDBSessionClosedError();
    return s;
  }

  /** One tablet, fast path or plain path (enableFastSerialization). */
  protected async writeTablet(p: PreparedTablet): Promise<void> {
    const s = this.state();
    let status: TSStatus;
    if (this.options.enableFastSerialization) {
      status = await rpc.insertTablet(s.connection, s.sessionId, p);
    } else {
      status = await rpc.insertTabletStruct(s.connection, plainInsertTabletReq(s.sessionId, p));
    }
    verifySuccess(status, `insertTablet ${p.prefixPath}`);
  }
}

function sqlContext(sql: string): string {
  return `"${sql.length > 80 ? sql.slice(0, 80) + '...' : sql}"`;
}
