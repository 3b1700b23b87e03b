import { IoTDBProtocolError } from '@iotdb/fast-serializer';
import type { Endpoint } from './endpoint.js';

/** A result as columns, as a data set's toColumnar() gives it. */
interface Columns {
  readonly columnNames: readonly string[];
  readonly values: readonly ArrayLike<unknown>[];
  readonly rowCount: number;
}

/** The statement that lists a cluster's DataNodes, in either SQL dialect. */
export const SHOW_DATANODES = 'SHOW DATANODES';

/**
 * The DataNodes that take queries, from SHOW DATANODES's result (NodeID, Status, RpcAddress, RpcPort, ...) as
 * `asked` answered it: every node but one being removed or one the ConfigNode has lost (Status Removing,
 * Unknown), one whose RPC address is the wildcard 0.0.0.0 (not an address a client can call), and, when `asked`
 * was reached by an address other than a loopback one, one reporting a loopback address (127.0.0.1 there is the
 * client's own machine, where another server may listen), in the server's order.
 */
export function queryableNodes(result: Columns, asked: Endpoint): Endpoint[] {
  const loopbackOk = isLoopback(asked.host);
  const column = (name: string) => {
    const k = result.columnNames.indexOf(name);
    if (k < 0)
      throw new IoTDBProtocolError(`${SHOW_DATANODES} has no ${name} column (${result.columnNames.join(', ')})`);
    return result.values[k];
  };
  const [status, address, port] = [column('Status'), column('RpcAddress'), column('RpcPort')];
  const nodes: Endpoint[] = [];
  for (let i = 0; i < result.rowCount; i++) {
    const host = address[i];
    const p = Number(port[i]);
    if (status[i] === 'Removing' || status[i] === 'Unknown') continue;
    if (typeof host !== 'string' || host === '' || host === '0.0.0.0') continue;
    if (!loopbackOk && isLoopback(host)) continue;
    if (!Number.isInteger(p) || p < 1 || p > 65535) continue;
    nodes.push({ host, port: p });
  }
  return nodes;
}

/** 127.0.0.0/8, ::1 or localhost. */
function isLoopback(host: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host.toLowerCase() === 'localhost';
}
