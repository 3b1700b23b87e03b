import { queryableNodes, SHOW_DATANODES } from '../cluster/data-nodes.js';
import type { Endpoint } from '../cluster/endpoint.js';
import { Recorder } from '../diagnostics/recorder.js';
import { verifySuccess } from '../protocol/status.js';
import { NodeSession } from './node-session.js';
import type { ResolvedSessionOptions } from './options.js';
import { dataSetContext } from './data-set-context.js';
import { SessionDataSet } from './session-data-set.js';
import { serverQueryTimeout } from './result-fetcher.js';

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
    const settings = {
      fetchSize: o.fetchSize,
      readAhead: undefined,
      timeoutMs: o.requestTimeoutMs,
      timeoutOption: 'requestTimeoutMs' as const,
      queryTimeoutMs: o.queryTimeoutMs ?? o.requestTimeoutMs,
    };
    const sentAt = performance.now();
    const call = { timeoutMs: settings.timeoutMs, timeoutOption: settings.timeoutOption, operation: OPERATION, signal };
    const st = ns.statements.take();
    const resp = await ns.querySql(SHOW_DATANODES, {
      statementId: st.id,
      fetchSize: settings.fetchSize,
      timeout: serverQueryTimeout(settings.queryTimeoutMs),
      call,
    });
    verifySuccess(resp.status, OPERATION);
    const ctx = dataSetContext(ns, st, settings, { sql: SHOW_DATANODES, sentAt, signal }, o, timeZone);
    return queryableNodes(await new SessionDataSet(ctx, resp).toColumnar(), at);
  } finally {
    await ns.close().catch(() => undefined); // the list is learnt; a failed logout ends with the socket
  }
}
