import { Socket, connect } from 'node:net';
import {
  ByteReader,
  ByteWriter,
  IoTDBProtocolError,
  beginCall,
  endCall,
  readReplyHeader,
  readStruct,
  type BufferPool,
  type StructSchema,
} from '@iotdb/fast-serializer';
import { IoTDBConnectionError, IoTDBTimeoutError, type ConnectionFailure } from '../errors.js';
import { FrameDecoder } from './frame-decoder.js';

export interface ConnectionOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  /** 0 = no limit */
  requestTimeoutMs: number;
  maxFrameBytes: number;
  bufferPool: BufferPool;
}

/** Writes field 1 of the call's args struct (its value only; the field header is written already). */
export type ArgsWriter = (w: ByteWriter) => void;

export interface CallOptions {
  /** Thrift type of args field 1 when it is not a struct (`requestStatementId(1: i64)`). */
  argType?: number;
  /** reply wait for this call instead of requestTimeoutMs (0 = none) */
  timeoutMs?: number;
}

interface Pending {
  resolve: (frame: Buffer) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * One framed TBinaryProtocol connection to one DataNode. IoTDB binds a session to its connection,
 * so calls are strictly one at a time: each waits for the previous reply (protocol.md 1).
 * A timeout or socket failure breaks the connection for good: a late reply could otherwise be taken
 * for the answer to the next call.
 */
export class ThriftConnection {
  readonly endpoint: string;
  readonly #socket: Socket;
  readonly #options: ConnectionOptions;
  readonly #decoder: FrameDecoder;
  #pending: Pending | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #seqid = 0;
  #broken: IoTDBConnectionError | null = null;

  private constructor(socket: Socket, options: ConnectionOptions) {
    this.#socket = socket;
    this.#options = options;
    this.endpoint = `${options.host}:${options.port}`;
    this.#decoder = new FrameDecoder(options.maxFrameBytes);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => this.#fail(failureOf(e), e.message, e));
    socket.on('close', () => this.#fail('closed', 'connection closed by the server'));
  }

  static connect(options: ConnectionOptions): Promise<ThriftConnection> {
    const endpoint = `${options.host}:${options.port}`;
    return new Promise((resolve, reject) => {
      const socket = connect({ host: options.host, port: options.port, noDelay: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new IoTDBTimeoutError(endpoint, `no connection within connectTimeoutMs=${options.connectTimeoutMs}`));
      }, options.connectTimeoutMs);
      timer.unref();
      const onError = (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new IoTDBConnectionError(failureOf(e), endpoint, `cannot connect: ${e.message}`, { cause: e }));
      };
      socket.once('error', onError);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        socket.setKeepAlive(true);
        resolve(new ThriftConnection(socket, options));
      });
    });
  }

  get isOpen(): boolean {
    return this.#broken === null;
  }

  /**
   * Sends `method(args)` and resolves with field 0 of the result struct. The request is encoded
   * before anything is written: an encoding error (bad user input) leaves the connection untouched.
   */
  call<T>(method: string, writeArgs: ArgsWriter, resultSchema: StructSchema, options: CallOptions = {}): Promise<T> {
    const run = () => this.#call<T>(method, writeArgs, resultSchema, options);
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #call<T>(method: string, writeArgs: ArgsWriter, resultSchema: StructSchema, options: CallOptions): Promise<T> {
    if (this.#broken) throw this.#broken;
    const seqid = (this.#seqid = (this.#seqid + 1) | 0);
    const w = new ByteWriter(4096, this.#options.bufferPool);
    try {
      const frameAt = beginCall(w, method, seqid, options.argType);
      writeArgs(w);
      endCall(w, frameAt);
    } catch (e) {
      w.release();
      throw e;
    }
    const reply = new Promise<Buffer>((resolve, reject) => {
      const timeout = options.timeoutMs ?? this.#options.requestTimeoutMs;
      const knob = options.timeoutMs === undefined ? 'requestTimeoutMs' : 'timeoutMs';
      const timer =
        timeout > 0
          ? setTimeout(() => this.#fail('timeout', `${method}: no reply within ${knob}=${timeout}`), timeout)
          : undefined;
      timer?.unref();
      this.#pending = { resolve, reject, timer };
    });
    // the pooled buffer goes back only once the socket is done with it
    this.#socket.write(w.view(), () => w.release());
    const frame = await reply;
    const r = new ByteReader(frame);
    const header = readReplyHeader(r);
    if (header.seqid !== seqid || header.method !== method) {
      const e = new IoTDBProtocolError(`reply ${header.method}#${header.seqid} does not answer ${method}#${seqid}`);
      this.#fail('reset', e.message, e);
      throw e;
    }
    const result = readStruct<{ success?: T }>(r, resultSchema);
    if (result.success === undefined) throw new IoTDBProtocolError(`${method}: the reply carries no result`);
    return result.success;
  }

  #onData(chunk: Buffer): void {
    try {
      this.#decoder.push(chunk, (frame) => {
        const p = this.#pending;
        if (p === null) {
          this.#fail('reset', 'received a reply nobody asked for');
          return;
        }
        this.#pending = null;
        clearTimeout(p.timer);
        p.resolve(frame);
      });
    } catch (e) {
      this.#fail('reset', (e as Error).message, e);
    }
  }

  #fail(reason: ConnectionFailure, message: string, cause?: unknown): void {
    if (this.#broken) return;
    this.#broken =
      reason === 'timeout'
        ? new IoTDBTimeoutError(this.endpoint, message)
        : new IoTDBConnectionError(reason, this.endpoint, message, cause === undefined ? undefined : { cause });
    const p = this.#pending;
    this.#pending = null;
    if (p) {
      clearTimeout(p.timer);
      p.reject(this.#broken);
    }
    this.#socket.destroy();
  }

  /** Closes the socket; a call in flight fails with a 'closed' IoTDBConnectionError. */
  close(): void {
    this.#fail('closed', 'connection closed by the client');
  }
}

function failureOf(e: NodeJS.ErrnoException): ConnectionFailure {
  switch (e.code) {
    case 'ECONNREFUSED': return 'refused';
    case 'ECONNRESET':
    case 'EPIPE': return 'reset';
    case 'ETIMEDOUT': return 'timeout';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN': return 'unreachable';
    default: return 'reset';
  }
}
