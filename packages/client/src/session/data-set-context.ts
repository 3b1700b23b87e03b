import type { NodeSession } from './node-session.js';
import type { ResolvedSessionOptions } from './options.js';
import type { QueryContext, SessionDataSet } from './session-data-set.js';
import type { Statement } from './statement-ids.js';

/** How a query's data set fetches and waits: the call's options, else the session's. */
export type QuerySettings = Pick<
  QueryContext,
  'fetchSize' | 'readAhead' | 'timeoutMs' | 'timeoutOption' | 'queryTimeoutMs'
>;

/** The query itself: its SQL, when it went out, the caller's AbortSignal. */
export interface SentQuery {
  readonly sql: string;
  readonly sentAt: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * The context of a query `ns` answered under statement `st` (settled through ns's statements once the data set is
 * done with it), written out field by field: an object spread here cost 1-2 us a query.
 */
export function dataSetContext(
  ns: NodeSession,
  st: Statement,
  s: QuerySettings,
  q: SentQuery,
  o: Pick<ResolvedSessionOptions, 'int64As' | 'timestampAs'>,
  timeZone: string,
  onClose?: (ds: SessionDataSet) => void,
): QueryContext {
  return {
    connection: ns.connection,
    sessionId: ns.sessionId,
    statementId: st.id,
    sql: q.sql,
    fetchSize: s.fetchSize,
    readAhead: s.readAhead,
    timeoutMs: s.timeoutMs,
    timeoutOption: s.timeoutOption,
    queryTimeoutMs: s.queryTimeoutMs,
    sentAt: q.sentAt,
    signal: q.signal,
    int64As: o.int64As,
    timestampAs: o.timestampAs,
    precision: ns.precision,
    timeZone,
    onClose,
    settled: (finished: boolean) => ns.statements.settle(st, finished),
  };
}
