import { tsBlock } from './tsblock.js';

/** A row of SHOW DATANODES: the node's RPC address 'host:port' and its status (Running unless given). */
export interface ListedNode {
  readonly url: string;
  readonly status?: string;
}

/**
 * The executeQueryStatementV2 reply of SHOW DATANODES listing `nodes`, as IoTDB 2.0 answers it (columns NodeID
 * INT32, Status TEXT, RpcAddress TEXT, RpcPort INT32; one TsBlock).
 */
export function showDataNodesReply(nodes: readonly ListedNode[], queryId = 77n): Record<string, unknown> {
  const parts = nodes.map((n) => /^(.*):(\d+)$/.exec(n.url)!);
  const block = tsBlock(
    nodes.map(() => 0),
    [
      { type: 'INT32', values: nodes.map((_, i) => i + 1) },
      { type: 'TEXT', values: nodes.map((n) => n.status ?? 'Running') },
      { type: 'TEXT', values: parts.map(([, host]) => host) },
      { type: 'INT32', values: parts.map(([, , port]) => Number(port)) },
    ],
  );
  return {
    status: { code: 200 },
    queryId,
    columns: ['NodeID', 'Status', 'RpcAddress', 'RpcPort'],
    dataTypeList: ['INT32', 'TEXT', 'TEXT', 'INT32'],
    ignoreTimeStamp: true,
    queryResult: [block],
    moreData: false,
  };
}
