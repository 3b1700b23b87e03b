import { tsBlock } from './tsblock.js';

/**
 * The executeQueryStatementV2 reply of a statement answered with TEXT columns only (SHOW TIMESERIES, DESC): `columns`
 * and `rows` of their values, as IoTDB 2.0 answers it (one TsBlock).
 */
export function textTableReply(
  columns: readonly string[],
  rows: readonly string[][],
  queryId = 78n,
): Record<string, unknown> {
  const block = tsBlock(
    rows.map(() => 0),
    columns.map((_, c) => ({ type: 'TEXT', values: rows.map((row) => row[c]) })),
  );
  return {
    status: { code: 200 },
    queryId,
    columns: [...columns],
    dataTypeList: columns.map(() => 'TEXT'),
    ignoreTimeStamp: true,
    queryResult: [block],
    moreData: false,
  };
}
