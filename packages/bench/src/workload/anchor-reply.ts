import type { SessionDataSet } from '@iotdb/client';
import { dataTypeName } from '@iotdb/fast-serializer';
import { AnchorTabletBuilder } from './anchor.js';
import { anchorTsBlock } from './anchor-tsblock.js';

/** What a SessionDataSet is made from: the session's side of a query. */
type QueryContext = ConstructorParameters<typeof SessionDataSet>[0];

/**
 * A query's first reply holding one anchor block (`anchorTsBlock(rows, sensors, nullEvery)`) and no more, the
 * block itself and its column types: for reading a block through SessionDataSet without a server. Give the data
 * set `{ ...reply, queryResult: [block] }`, a new array each time (a data set lets go of a block once decoded).
 */
export function anchorQueryReply(rows: number, sensors: number, nullEvery = 0) {
  const types = new AnchorTabletBuilder({ sensors, rows: 1 }).types;
  const block = anchorTsBlock(rows, sensors, nullEvery);
  const reply = {
    status: { code: 200 },
    columns: types.map((_, s) => `root.bench.d000.s${s}`),
    dataTypeList: types.map(dataTypeName),
    moreData: false,
  };
  return { types, block, reply };
}

/** A query context with no connection: with no query id in the reply, its data set sends nothing. */
export function noServerContext(fetchSize: number): QueryContext {
  return {
    connection: undefined as never,
    sessionId: 0n,
    statementId: 0n,
    sql: '',
    fetchSize,
    timeoutMs: 0,
    timeoutOption: 'requestTimeoutMs',
    queryTimeoutMs: 0,
    int64As: 'bigint',
    timestampAs: 'bigint',
    precision: 'ms',
    timeZone: 'UTC',
    settled: () => undefined,
  };
}
