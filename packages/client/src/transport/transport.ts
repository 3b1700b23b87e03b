import type { Endpoint } from '../cluster/endpoint.js';

/** What a stream reports to its owner (the RPC connection). */
export interface StreamEvents {
  /** bytes from the server, in order */
  onData(chunk: Buffer): void;
  /** the stream ended: by the server (error undefined), or because of `error` */
  onClose(error?: Error): void;
}

export interface ConnectOptions {
  /** give up (IoTDBTimeoutError) when the stream is not open by then */
  readonly timeoutMs: number;
  /** abort the attempt (the promise rejects with the signal's reason) */
  readonly signal?: AbortSignal;
}

/** An open byte stream to one node. */
export interface TransportStream {
  /** Sends bytes; `onWritten` runs once the stream no longer needs `data` (a pooled buffer may go back then). */
  write(data: Uint8Array, onWritten: () => void): void;
  /** Closes the stream at once; no events follow. */
  close(): void;
  /**
   * The address the stream reached, when the transport knows it (a socket's remote address and port): a node
   * given by name is then known under the IP the cluster reports for it.
   */
  readonly peer?: Endpoint;
}

/**
 * The seam between the client and the network: opens byte streams to nodes. `tcpTransport` is the
 * real one (TLS comes next); unit tests pass a scripted fake (transport/fake-transport.ts). Nothing
 * here knows about Thrift or sessions. Failures to connect reject with IoTDBConnectionError
 * (requestSent false): refused, unreachable, or a timeout.
 */
export interface Transport {
  connect(endpoint: Endpoint, events: StreamEvents, options: ConnectOptions): Promise<TransportStream>;
}
