import { IOTDB_SERVICE_PROTOCOL_V3, IoTDBProtocolError, type TSExecuteStatementResp } from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import { connectChannel, connectContext, traced, type TraceContext } from '../diagnostics/channels.js';
import type { Recorder } from '../diagnostics/recorder.js';
import { RpcConnection } from '../connection/rpc-connection.js';
import { verifySuccess } from '../protocol/status.js';
import { passwordOf, type ResolvedSessionOptions } from './options.js';
import { releaseWait } from './session-data-set.js';
import { StatementIds } from './statement-ids.js';

export type SqlDialect = 'tree' | 'table';
export type TimestampPrecision = 'ms' | 'us' | 'ns';

/** What every query RPC sends alike, and how its call is made. */
export interface QueryFields {
  /** the statement the query goes under (StatementIds.take) */
  readonly statementId: bigint;
  readonly fetchSize: number;
  /** the query's server-side timeout, as sent (serverQueryTimeout) */
  readonly timeout: number;
  readonly call: { timeoutMs: number; timeoutOption: string; operation: string; signal: AbortSignal };
}

/** Where a server session starts: its SQL dialect and (table model) database. */
export interface SessionContext {
  readonly dialect: SqlDialect;
  readonly database: string | undefined;
  /** the zone the server reads and renders times in (`timeZone`, then setTimeZone) */
  readonly timeZone: string;
}

/** What a session on one node is opened from: the node, the options, the session's context, its recorder, a signal. */
interface Dial {
  readonly endpoint: Endpoint;
  readonly o: ResolvedSessionOptions;
  readonly context: SessionContext;
  readonly recorder: Recorder;
  readonly signal: AbortSignal | undefined;
}

/**
 * One server session on one connection to one DataNode (IoTDB binds a session to its connection).
 * A user's Session holds one for its default node and one per node that redirects sent it to.
 */
export class NodeSession {
  readonly endpoint: Endpoint;
  readonly key: string;
  readonly connection: RpcConnection;
  readonly sessionId: bigint;
  /**
   * The statement ids its calls go under: Java asks for one after opening and uses it for every statement (protocol.md
   * 2); here a new one every so many queries read to their end, whose ids the old one's release takes with it.
   */
  readonly statements: StatementIds;
  readonly precision: TimestampPrecision;
  readonly #requestTimeoutMs: number;

  private constructor(
    connection: RpcConnection,
    sessionId: bigint,
    statementId: bigint,
    precision: TimestampPrecision,
    o: { requestTimeoutMs: number; recorder: Recorder },
  ) {
    this.#requestTimeoutMs = o.requestTimeoutMs;
    this.endpoint = connection.endpoint;
    this.key = connection.key;
    this.connection = connection;
    this.sessionId = sessionId;
    this.precision = precision;
    const wait = releaseWait(o.requestTimeoutMs);
    this.statements = new StatementIds(statementId, {
      requestId: () => connection.call('requestStatementId', sessionId, wait),
      close: (id) => {
        if (!connection.isOpen) return; // the server session ends with its connection
        const what = `closeOperation of statement ${id}`;
        connection
          .call('closeOperation', { sessionId, statementId: id }, wait)
          .then((status) => verifySuccess(status, what))
          .catch((e: unknown) => {
            if (connection.isOpen) o.recorder.releaseFailed(what, e);
          });
      },
      // a connection gone: the server session with it, and this one is replaced
      rotateFailed: (e) => {
        if (connection.isOpen) o.recorder.releaseFailed('requestStatementId', e);
      },
    });
  }

  /**
   * Connects and logs in; a wrong password rejects with IoTDBServerError 801. `signal` aborts both steps.
   * One `iotdb:connect` trace; the recorder counts and logs the connect or its failure.
   */
  static async open(
    endpoint: Endpoint,
    o: ResolvedSessionOptions,
    context: SessionContext,
    recorder: Recorder,
    signal?: AbortSignal,
  ): Promise<NodeSession> {
    const started = performance.now();
    const dial: Dial = { endpoint, o, context, recorder, signal };
    try {
      const ns = connectChannel.hasSubscribers
        ? await traced(connectChannel, connectContext(endpointKey(endpoint)), (trace) =>
            NodeSession.#openTraced(dial, trace),
          )
        : await NodeSession.#connectAndLogin(dial, null);
      recorder.connected(ns.key, performance.now() - started);
      return ns;
    } catch (e) {
      if (signal?.aborted !== true) recorder.connectFailed(endpointKey(endpoint), e); // not when given up on
      throw e;
    }
  }

  /** #connectAndLogin as one `iotdb:connect` trace, its duration set before it settles. */
  static async #openTraced(dial: Dial, trace: TraceContext): Promise<NodeSession> {
    const started = performance.now();
    try {
      return await NodeSession.#connectAndLogin(dial, trace);
    } finally {
      trace.durationMs = performance.now() - started;
    }
  }

  static async #connectAndLogin(
    { endpoint, o, context, recorder, signal }: Dial,
    trace: TraceContext | null,
  ): Promise<NodeSession> {
    const connection = await RpcConnection.open(endpoint, {
      counters: recorder.stats,
      transport: o.transport,
      connectTimeoutMs: o.connectTimeoutMs,
      requestTimeoutMs: o.requestTimeoutMs,
      maxFrameBytes: o.maxFrameBytes,
      bufferPool: o.bufferPool,
      compact: o.rpcCompression,
      signal,
    });
    try {
      const configuration = new Map([
        ['version', 'V_1_0'], // redirect info is computed only for V_1_0 clients
        ['sql_dialect', context.dialect],
      ]);
      if (context.database !== undefined) configuration.set('db', context.database);
      const login = {
        client_protocol: IOTDB_SERVICE_PROTOCOL_V3,
        zoneId: context.timeZone,
        username: o.username,
        password: passwordOf(o),
        configuration,
      };
      // sensitive: the request buffer is zeroed before it goes back to the shared pool
      // the login counts as part of connecting: a peer that takes the bytes but never answers (a plaintext
      // client at a TLS port) fails within connectTimeoutMs
      const timeoutMs = o.connectTimeoutMs;
      const timeoutOption = 'connectTimeoutMs';
      const loginOptions = { signal, sensitive: true, timeoutMs, timeoutOption, operation: 'openSession' };
      const resp = await (trace === null
        ? connection.call('openSession', login, loginOptions)
        : connection.withTrace(trace, () => connection.call('openSession', login, loginOptions)));
      // the user named (the password never): a refused login of one of several users says which
      verifySuccess(resp.status, `openSession as user ${JSON.stringify(o.username)}`);
      if (resp.sessionId === undefined) throw new IoTDBProtocolError('openSession: no sessionId in the reply');
      const p = resp.configuration?.get('timestamp_precision');
      const precision: TimestampPrecision = p === 'us' || p === 'ns' ? p : 'ms';
      const sessionId = resp.sessionId;
      const askId = () => connection.call('requestStatementId', sessionId, { signal, timeoutMs, timeoutOption });
      const statementId = await (trace === null ? askId() : connection.withTrace(trace, askId));
      return new NodeSession(connection, resp.sessionId, statementId, precision, {
        requestTimeoutMs: o.requestTimeoutMs,
        recorder,
      });
    } catch (e) {
      connection.close();
      throw e;
    }
  }

  get isOpen(): boolean {
    return this.connection.isOpen;
  }

  /** Runs `sql` as a query (executeQueryStatementV2, as the Java Session sends it); its reply as it comes. */
  querySql(sql: string, q: QueryFields): Promise<TSExecuteStatementResp> {
    const { sessionId } = this;
    const { statementId, fetchSize, timeout } = q;
    const req = { sessionId, statement: sql, statementId, fetchSize, timeout, enableRedirectQuery: false };
    return this.connection.call('executeQueryStatementV2', req, q.call);
  }

  /** Logs out (when the connection still works) and closes the socket. */
  async close(): Promise<void> {
    try {
      if (this.connection.isOpen) {
        // a server that does not answer the logout closes the session itself once the socket is gone
        const wait = releaseWait(this.#requestTimeoutMs);
        verifySuccess(await this.connection.call('closeSession', { sessionId: this.sessionId }, wait), 'closeSession');
      }
    } finally {
      this.connection.close();
    }
  }
}
