import { queryableNodes, SHOW_DATANODES } from '../cluster/data-nodes.js';
import type { Endpoint } from '../cluster/endpoint.js';
import { Recorder } from '../diagnostics/recorder.js';
import { verifySuccess } from '../protocol/status.js';
import { NodeSession } from './node-session.js';
import type { ResolvedSessionOptions } from './options.js';
import { SessionDataSet, serverQueryTimeout } from './session-data-set.js';

const OPERATION = `discover DataNodes (${SHOW_DATANODES})`;

/**
 * The cluster's DataNodes that take queries (discoverNodes): SHOW DATANODES asked at `at` in a server session of
 * its own (tree dialect, no database), closed after it, as the Java Session asks on a connection of its own:
 * however the server answers (late, not at all, with an error), no call of the session waits behind it. Not one of
 * the session's calls: not counted in its stats, traced, logged or retried (the router logs a failure). `signal`:
 * the session's lifetime.
 */
export async function discoverDataNodes(
  at: Endpoint,
  o: ResolvedSessionOptions,
  timeZone: string,
  signal: AbortSignal,
): Promise<Endpoint[]> {
  const context = { dialect: 'tree' as const, database: undefined, timeZone };
  const ns = await NodeSession.open(at, o, context, new Recorder(undefined, 0), signal);
  try {
    const timeoutMs = o.requestTimeoutMs;
    const timeoutOption = 'requestTimeoutMs' as const;
    const queryTimeoutMs = o.queryTimeoutMs ?? timeoutMs;
    const sentAt = performance.now();
    const call = { timeoutMs, timeoutOption, operation: OPERATION, signal };
    const st = ns.statements.take();
    const statementId = st.id;
    const settled = (finished: boolean) => ns.statements.settle(st, finished);
    const resp = await ns.querySql(SHOW_DATANODES, {
      statementId,
      fetchSize: o.fetchSize,
      timeout: serverQueryTimeout(queryTimeoutMs),
      call,
    });
    verifySuccess(resp.status, OPERATION);
    const { connection, sessionId, precision } = ns;
    const { fetchSize, int64As, timestampAs } = o;
    const ctx = {
      connection,
      sessionId,
      statementId,
      sql: SHOW_DATANODES,
      fetchSize,
      timeoutMs,
      timeoutOption,
      queryTimeoutMs,
    };
    const ds = new SessionDataSet({ ...ctx, sentAt, signal, int64As, timestampAs, precision, settled }, resp);
    return queryableNodes(await ds.toColumnar(), at);
  } finally {
    await ns.close().catch(() => undefined); // the list is learnt; a failed logout ends with the socket
  }
}
