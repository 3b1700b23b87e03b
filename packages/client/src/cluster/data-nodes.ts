import { IoTDBProtocolError } from '@iotdb/fast-serializer';
import type { ColumnarResult } from '../session/columnar.js';
import type { Endpoint } from './endpoint.js';

/** The statement that lists a cluster's DataNodes, in either SQL dialect. */
export const SHOW_DATANODES = 'SHOW DATANODES';

/**
 * The DataNodes that take queries, from SHOW DATANODES's result (NodeID, Status, RpcAddress, RpcPort, ...):
 * every node but one being removed or one the ConfigNode has lost (Status Removing, Unknown), and one whose
 * RPC address is the wildcard 0.0.0.0 (not an address a client can call), in the server's order.
 */
export function queryableNodes(result: ColumnarResult): Endpoint[] {
  const column = (name: string) => {
    const k = result.columnNames.indexOf(name);
    if (k < 0)
      throw new IoTDBProtocolError(`${SHOW_DATANODES} has no ${name} column (${result.columnNames.join(', ')})`);
    return result.values[k] as ArrayLike<unknown>;
  };
  const [status, address, port] = [column('Status'), column('RpcAddress'), column('RpcPort')];
  const nodes: Endpoint[] = [];
  for (let i = 0; i < result.rowCount; i++) {
    const host = address[i];
    const p = Number(port[i]);
    if (status[i] === 'Removing' || status[i] === 'Unknown') continue;
    if (typeof host !== 'string' || host === '' || host === '0.0.0.0') continue;
    if (!Number.isInteger(p) || p < 1 || p > 65535) continue;
    nodes.push({ host, port: p });
  }
  return nodes;
}
