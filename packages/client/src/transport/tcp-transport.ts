import { connect, type Socket } from 'node:net';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import { IoTDBConnectionError, IoTDBTimeoutError, failureOf } from '../errors.js';
import type { ConnectOptions, StreamEvents, Transport, TransportStream } from './transport.js';

/** Plain TCP (Nagle off, keep-alive on): the only file that touches node:net. */
export const tcpTransport: Transport = {
  connect(endpoint: Endpoint, events: StreamEvents, options: ConnectOptions): Promise<TransportStream> {
    const key = endpointKey(endpoint);
    return new Promise((resolve, reject) => {
      const { signal, timeoutMs } = options;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const socket = connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
      const settle = (error: Error | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.off('error', onError);
        if (error === null) {
          resolve(new TcpStream(socket, events));
        } else {
          socket.destroy();
          reject(error);
        }
      };
      const timer = setTimeout(
        () => settle(new IoTDBTimeoutError(key, 'connect', `no connection within connectTimeoutMs=${timeoutMs}`, false)),
        timeoutMs,
      );
      const onAbort = () => settle(signal!.reason as Error);
      const onError = (e: NodeJS.ErrnoException) =>
        settle(new IoTDBConnectionError(failureOf(e), key, `cannot connect: ${e.message}`, false, { cause: e }));
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('error', onError);
      socket.once('connect', () => settle(null));
    });
  },
};

class TcpStream implements TransportStream {
  readonly #socket: Socket;
  #closed = false;

  constructor(socket: Socket, events: StreamEvents) {
    this.#socket = socket;
    socket.setKeepAlive(true);
    socket.on('data', (chunk: Buffer) => events.onData(chunk));
    socket.on('error', (e) => this.#end(events, e));
    socket.on('close', () => this.#end(events));
  }

  write(data: Uint8Array, onWritten: () => void): void {
    this.#socket.write(data, onWritten);
  }

  close(): void {
    this.#closed = true;
    this.#socket.destroy();
  }

  #end(events: StreamEvents, error?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    events.onClose(error);
  }
}
