import { connect } from 'node:net';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import { IoTDBConnectionError, failureOf } from '../errors.js';
import { KEEP_ALIVE_DELAY_MS, whenReady } from './socket-stream.js';
import type { ConnectOptions, StreamEvents, Transport, TransportStream } from './transport.js';

/** Plain TCP (Nagle off, keep-alive probes after KEEP_ALIVE_DELAY_MS idle). */
export const tcpTransport: Transport = {
  connect(endpoint: Endpoint, events: StreamEvents, options: ConnectOptions): Promise<TransportStream> {
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const key = endpointKey(endpoint);
    const socket = connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
    socket.setKeepAlive(true, KEEP_ALIVE_DELAY_MS);
    return whenReady(socket, 'connect', key, events, options, (e) =>
      e === null
        ? new IoTDBConnectionError('closed', key, 'closed before the connection was made', false)
        : new IoTDBConnectionError(failureOf(e), key, `cannot connect: ${e.message}`, false, { cause: e }),
    );
  },
};
