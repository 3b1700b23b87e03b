import { ByteWriter, TSDataType } from '@iotdb/fast-serializer';

/**
 * The executeQueryStatementV2 reply of a statement answered with TEXT columns only (SHOW TIMESERIES, DESC): `columns`
 * and `rows` of their values, as IoTDB 2.0 answers it (one TsBlock, built by hand as protocol.md 6.1 says).
 */
export function textTableReply(
  columns: readonly string[],
  rows: readonly string[][],
  queryId = 78n,
): Record<string, unknown> {
  const w = new ByteWriter(256);
  const BINARY_ARRAY = 3;
  w.i32(columns.length);
  for (const _ of columns) w.i8(TSDataType.TEXT);
  w.i32(rows.length);
  w.i8(2); // the time column: INT64_ARRAY
  for (const _ of columns) w.i8(BINARY_ARRAY);
  w.i8(0); // time column: no nulls
  for (const _ of rows) w.i64(0);
  columns.forEach((_, c) => {
    w.i8(0);
    for (const row of rows) w.lengthPrefixedBytes(Buffer.from(row[c]));
  });
  return {
    status: { code: 200 },
    queryId,
    columns: [...columns],
    dataTypeList: columns.map(() => 'TEXT'),
    ignoreTimeStamp: true,
    queryResult: [Buffer.from(w.view())],
    moreData: false,
  };
}
