import { IOTDB_SERVICE_PROTOCOL_V3, IoTDBProtocolError } from '@iotdb/fast-serializer';
import { ThriftConnection } from '../connection/thrift-connection.js';
import { rpc } from '../rpc/client-rpc.js';
import { verifySuccess } from '../rpc/status.js';
import { endpointKey, type Endpoint } from './endpoint.js';
import type { ResolvedSessionOptions } from './options.js';

export type SqlDialect = 'tree' | 'table';
export type TimestampPrecision = 'ms' | 'us' | 'ns';

/**
 * One server session on one connection to one DataNode (IoTDB binds a session to its connection).
 * A user's Session holds one for its default node and one per node that redirects sent it to.
 */
export class NodeSession {
  readonly endpoint: Endpoint;
  readonly key: string;
  readonly connection: ThriftConnection;
  readonly sessionId: bigint;
  /** Java asks for one statement id after opening and uses it for every statement (protocol.md 2). */
  readonly statementId: bigint;
  readonly precision: TimestampPrecision;

  private constructor(endpoint: Endpoint, connection: ThriftConnection, sessionId: bigint, statementId: bigint, precision: TimestampPrecision) {
    this.endpoint = endpoint;
    this.key = endpointKey(endpoint);
    this.connection = connection;
    this.sessionId = sessionId;
    this.statementId = statementId;
    this.precision = precision;
  }

  /** Connects and logs in; a wrong password rejects with IoTDBServerError 801. */
  static async open(endpoint: Endpoint, o: ResolvedSessionOptions, dialect: SqlDialect, database: string | undefined): Promise<NodeSession> {
    const connection = await ThriftConnection.connect({
      host: endpoint.host,
      port: endpoint.port,
      connectTimeoutMs: o.connectTimeoutMs,
      requestTimeoutMs: o.requestTimeoutMs,
      maxFrameBytes: o.maxFrameBytes,
      bufferPool: o.bufferPool,
    });
    try {
      const configuration = new Map([
        ['version', 'V_1_0'], // redirect info is computed only for V_1_0 clients
        ['sql_dialect', dialect],
      ]);
      if (database !== undefined) configuration.set('db', database);
      const resp = await rpc.openSession(connection, {
        client_protocol: IOTDB_SERVICE_PROTOCOL_V3,
        zoneId: o.timeZone,
        username: o.username,
        password: o.password,
        configuration,
      });
      verifySuccess(resp.status, 'openSession');
      if (resp.sessionId === undefined) throw new IoTDBProtocolError('openSession: no sessionId in the reply');
      const p = resp.configuration?.get('timestamp_precision');
      const precision: TimestampPrecision = p === 'us' || p === 'ns' ? p : 'ms';
      const statementId = await rpc.requestStatementId(connection, resp.sessionId);
      return new NodeSession(endpoint, connection, resp.sessionId, statementId, precision);
    } catch (e) {
      connection.close();
      throw e;
    }
  }

  get isOpen(): boolean {
    return this.connection.isOpen;
  }

  /** Logs out (when the connection still works) and closes the socket. */
  async close(): Promise<void> {
    try {
      if (this.connection.isOpen) verifySuccess(await rpc.closeSession(this.connection, this.sessionId), 'closeSession');
    } finally {
      this.connection.close();
    }
  }
}
