import { ByteWriter, TSDataType } from '@iotdb/fast-serializer';

/** A row of SHOW DATANODES: the node's RPC address 'host:port' and its status (Running unless given). */
export interface ListedNode {
  readonly url: string;
  readonly status?: string;
}

/**
 * The executeQueryStatementV2 reply of SHOW DATANODES listing `nodes`, as IoTDB 2.0 answers it (columns NodeID
 * INT32, Status TEXT, RpcAddress TEXT, RpcPort INT32; one TsBlock, built by hand as protocol.md 6.1 says).
 */
export function showDataNodesReply(nodes: readonly ListedNode[], queryId = 77n): Record<string, unknown> {
  const w = new ByteWriter(256);
  const [INT32_ARRAY, INT64_ARRAY, BINARY_ARRAY] = [1, 2, 3];
  w.i32(4).i8(TSDataType.INT32).i8(TSDataType.TEXT).i8(TSDataType.TEXT).i8(TSDataType.INT32).i32(nodes.length);
  w.i8(INT64_ARRAY).i8(INT32_ARRAY).i8(BINARY_ARRAY).i8(BINARY_ARRAY).i8(INT32_ARRAY);
  w.i8(0); // time column: no nulls
  nodes.forEach(() => w.i64(0));
  const parts = nodes.map((n) => /^(.*):(\d+)$/.exec(n.url)!);
  w.i8(0);
  nodes.forEach((_, i) => w.i32(i + 1));
  w.i8(0);
  for (const n of nodes) w.lengthPrefixedBytes(Buffer.from(n.status ?? 'Running'));
  w.i8(0);
  for (const [, host] of parts) w.lengthPrefixedBytes(Buffer.from(host));
  w.i8(0);
  for (const [, , port] of parts) w.i32(Number(port));
  return {
    status: { code: 200 },
    queryId,
    columns: ['NodeID', 'Status', 'RpcAddress', 'RpcPort'],
    dataTypeList: ['INT32', 'TEXT', 'TEXT', 'INT32'],
    ignoreTimeStamp: true,
    queryResult: [Buffer.from(w.view())],
    moreData: false,
  };
}
