import type { Socket } from 'node:net';
import { IoTDBConnectionError, IoTDBTimeoutError } from '../errors.js';
import type { Endpoint } from '../cluster/endpoint.js';
import type { ConnectOptions, StreamEvents, TransportStream } from './transport.js';

/**
 * A connection idle this long sends TCP keep-alive probes (the system's default waits two hours): load balancers and
 * NATs drop a connection idle a few minutes (AWS NLB 350 s, Azure 240 s) without a word, and a pooled session's next
 * call would then wait out its requestTimeoutMs. The probes keep such a path open, and find a dead peer in minutes.
 */
export const KEEP_ALIVE_DELAY_MS = 30_000;

/** A connected socket (TCP or TLS) as a TransportStream. */
export class SocketStream implements TransportStream {
  readonly #socket: Socket;
  #closed = false;

  constructor(socket: Socket, events: StreamEvents) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => events.onData(chunk));
    socket.on('error', (e) => this.#end(events, e));
    socket.on('close', () => this.#end(events));
  }

  get peer(): Endpoint | undefined {
    const { remoteAddress, remotePort } = this.#socket;
    return remoteAddress === undefined || remotePort === undefined
      ? undefined
      : { host: remoteAddress, port: remotePort };
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

/** What a connect that timed out got to. */
function notReadyIn(timeoutMs: number, ready: 'connect' | 'secureConnect', socket: Socket): string {
  if (ready === 'connect' || socket.connecting) return `no connection within connectTimeoutMs=${timeoutMs}`;
  // a TLS client at a port without TLS connects, and its server reads the ClientHello as a frame's length and waits
  return `connected, but no TLS handshake within connectTimeoutMs=${timeoutMs}: is TLS on at the server (its enable_thrift_ssl)?`;
}

/**
 * Resolves with the stream once `socket` emits `ready` ('connect', or 'secureConnect' after a TLS
 * handshake); rejects, destroying the socket, on an error (`failure` says which IoTDBConnectionError),
 * a close before it, the timeout, or an abort (with the signal's reason).
 */
export function whenReady(
  socket: Socket,
  ready: 'connect' | 'secureConnect',
  key: string,
  events: StreamEvents,
  options: ConnectOptions,
  failure: (e: NodeJS.ErrnoException | null) => IoTDBConnectionError,
): Promise<TransportStream> {
  const { signal, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (error === null) return resolve(new SocketStream(socket, events));
      socket.destroy();
      reject(error);
    };
    // confirmed after the socket's next poll: an application that held the event loop past the timeout may have
    // let the connection complete meanwhile, and the timers run before its completion is read
    const timer = setTimeout(
      () =>
        setImmediate(() => settle(new IoTDBTimeoutError(key, 'connect', notReadyIn(timeoutMs, ready, socket), false))),
      timeoutMs,
    );
    const onAbort = () => settle(signal!.reason as Error);
    const onError = (e: NodeJS.ErrnoException) => settle(failure(e));
    const onClose = () => settle(failure(null));
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.once(ready, () => settle(null));
  });
}
