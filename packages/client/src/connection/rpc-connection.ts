import {
  ByteReader,
  ByteWriter,
  FRAME_HEADER_BYTES,
  IClientRPCService,
  IoTDBProtocolError,
  IoTDBValidationError,
  TApplicationError,
  beginCall,
  beginCallCompact,
  readReplyHeaderCompact,
  readStructCompact,
  writeValueCompact,
  endCall,
  holdsViews,
  readReplyHeader,
  readStruct,
  resultSchema,
  ttypeOf,
  writeValue,
  writeWithSessionId,
  type BufferPool,
  type ClientMethod,
  type InputOf,
  type ValueOf,
} from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import { IoTDBConnectionError, IoTDBTimeoutError, failureOf, type ConnectionFailure } from '../errors.js';
import type { TraceContext } from '../diagnostics/channels.js';
import type { WireCounters } from '../diagnostics/stats.js';
import type { Transport, TransportStream } from '../transport/transport.js';
import { FrameDecoder } from './frame-decoder.js';
import { settleFrame } from './frame-pool.js';

type Spec<M extends ClientMethod> = (typeof IClientRPCService)[M];
/** The argument of `method` as the encoder takes it. */
export type ArgsOf<M extends ClientMethod> = InputOf<Spec<M>['args'], never>;
/** The decoded return value of `method`. */
export type ResultOf<M extends ClientMethod> = ValueOf<Spec<M>['result'], never>;
/**
 * Writes args field 1's value straight into the request (the tablet fast path), in the connection's
 * protocol (`compact`: RPC compression); the field header is written already.
 */
export type ArgsWriter = (w: ByteWriter, compact: boolean) => void;

export interface ConnectionOptions {
  readonly transport: Transport;
  readonly connectTimeoutMs: number;
  /** reply wait of a call without its own timeoutMs; 0 = no limit */
  readonly requestTimeoutMs: number;
  readonly maxFrameBytes: number;
  readonly bufferPool: BufferPool;
  /** Thrift compact protocol (RPC compression, `dn_rpc_thrift_compression_enable`) instead of binary */
  readonly compact: boolean;
  /** aborts the connect */
  readonly signal?: AbortSignal;
  /** where requests and bytes are counted (the session's stats) */
  readonly counters?: WireCounters;
}

export interface CallOptions {
  /** reply wait for this call instead of requestTimeoutMs (0 = none) */
  readonly timeoutMs?: number;
  /** the option `timeoutMs` came from, named when it runs out (default 'timeoutMs': a call's own) */
  readonly timeoutOption?: string;
  /** for a wait no option sets as such, how it came about, said when it runs out instead of an option */
  readonly timeoutWhy?: string;
  /** what the call is, for a timeout's message (`executeQueryStatement "SELECT ..."`) */
  readonly operation?: string;
  /** gives up on the call; once its bytes are out this also breaks the connection */
  readonly signal?: AbortSignal;
  /** the request carries a secret (the login's password): its buffer is zeroed before it returns to the pool */
  readonly sensitive?: boolean;
}

/** A reply's frame, and the FRAME_POOL buffer it is in when it is in one (FrameDecoder). */
interface Reply {
  readonly frame: Buffer;
  readonly pooled: Buffer | undefined;
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout | undefined;
  /** what the call is, for its errors (CallOptions.operation, else the method) */
  readonly operation: string;
  /** the request's frame, bytes (its header left out, as the server counts it) */
  readonly bytes: number;
  /** the Thrift method called */
  readonly method: string;
}

/** IoTDB's least dn_thrift_max_frame_size: a smaller setting is raised to it. */
const SERVER_LEAST_MAX_FRAME = 8 * 1024 * 1024;

/**
 * IoTDB 2.0.1-beta never answers a write whose write-ahead log entry is over its WAL queue's memory (its write memory
 * times wal_buffer_queue_proportion, 0.1: a few tens of MB with a 2 GiB heap), and holds later writes behind it until the
 * DataNode restarts (measured: a 40 MB tablet written at once, a 50 MB one never answered, nor after it a small write
 * of its device, FLUSH, DELETE DATABASE, and then a write of a new database). A write over 8 MiB that got no reply says
 * so; the limit is the server's to know.
 */
function walHint(entry: Pending): string {
  if (!entry.method.startsWith('insert') || entry.bytes <= SERVER_LEAST_MAX_FRAME) return '';
  return ` to a write of ${entry.bytes} bytes: IoTDB 2.0.1-beta never answers a write whose log entry is over its write-ahead log queue's memory (wal_buffer_queue_proportion of its write memory; with a 2 GiB heap a 40 MB tablet was answered, a 50 MB one never) and holds later writes behind it until the DataNode restarts; send fewer rows a call`;
}

/** Gives a request buffer back to its pool, zeroed first when it held a secret. */
function release(w: ByteWriter, sensitive: boolean): void {
  if (sensitive) w.buf.fill(0);
  w.release();
}

/** Writes `method`'s argument (args field 1's value) in the protocol asked for: the request struct, or a writer's. */
export function writeArgs<M extends ClientMethod>(
  w: ByteWriter,
  method: M,
  args: ArgsOf<M> | ArgsWriter,
  compact: boolean,
): void {
  const argType = IClientRPCService[method].args;
  if (typeof args === 'function') args(w, compact);
  else if (compact) writeValueCompact(w, argType, args);
  else writeValue(w, argType, args);
}

/**
 * An argument encoded already with session id 0 (writeArgs, in the connection's protocol), copied into the request
 * with `sessionId` in its place and then given back to its pool: it is not held while the server works on it.
 */
export function withSessionId(encoded: ByteWriter, sessionId: bigint): ArgsWriter {
  return (w, compact) => {
    writeWithSessionId(w, encoded.view(), sessionId, compact);
    encoded.release();
  };
}

const resultSchemas = new Map(Object.entries(IClientRPCService).map(([m, spec]) => [m, resultSchema(m, spec.result)]));
/** The methods whose results keep views of their reply's frame (a query's TsBlocks): its buffer goes back once read. */
const resultHoldsViews = new Set(
  Object.entries(IClientRPCService)
    .filter(([, spec]) => holdsViews(spec.result))
    .map(([m]) => m),
);

/**
 * One framed TBinaryProtocol connection to one DataNode over a Transport stream. IoTDB binds a
 * session to its connection and answers its requests one by one, in order: a call waits for the previous
 * call's reply (protocol.md 1). One request in flight: two replies back to back would stall on a hop that holds
 * small writes (Nagle's algorithm), 40 ms a call through a proxy without TCP_NODELAY.
 * A timeout, an abort after the bytes left, or a stream failure breaks the connection for good: a late
 * reply could otherwise be taken for the answer to the next call.
 * Every failure says whether the request may have reached the server (`requestSent`).
 */
export class RpcConnection {
  readonly endpoint: Endpoint;
  readonly key: string;
  readonly #options: ConnectionOptions;
  readonly #decoder: FrameDecoder;
  #stream: TransportStream | null = null;
  /** the stream's peer as a key, read once it is open (asked on every query routed by name: see NodeSessions) */
  #peerKey: string | undefined;
  /** the replies awaited, in the order their requests went out */
  #replies: Pending[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #seqid = 0;
  readonly #counters: WireCounters;
  /** the trace whose calls are being started (see withTrace); null nearly always */
  #trace: TraceContext | null = null;
  /** why the connection is unusable: a connection failure, a timeout, or a reply that broke the protocol */
  #broken: IoTDBConnectionError | IoTDBProtocolError | null = null;
  /** whether any reply came: a server that closes before the first one may expect TLS or compression */
  #replied = false;

  private constructor(endpoint: Endpoint, options: ConnectionOptions) {
    this.endpoint = endpoint;
    this.key = endpointKey(endpoint);
    this.#options = options;
    this.#decoder = new FrameDecoder(options.maxFrameBytes);
    this.#counters = options.counters ?? { requests: 0, bytesOut: 0, bytesIn: 0 };
  }

  static async open(endpoint: Endpoint, options: ConnectionOptions): Promise<RpcConnection> {
    const c = new RpcConnection(endpoint, options);
    c.#stream = await options.transport.connect(
      endpoint,
      { onData: (chunk) => c.#onData(chunk), onClose: (e) => c.#onClose(e) },
      { timeoutMs: options.connectTimeoutMs, signal: options.signal },
    );
    const peer = c.#stream.peer;
    c.#peerKey = peer === undefined ? undefined : endpointKey(peer);
    return c;
  }

  get isOpen(): boolean {
    return this.#broken === null;
  }

  /** 'host:port' the connection reached (the resolved address), when the transport says; else undefined. */
  get peerKey(): string | undefined {
    return this.#peerKey;
  }

  /**
   * Sends `method(args)` and resolves with its decoded return value. `args` is the request struct, or
   * a writer that puts it straight into the buffer. The request is encoded before anything is written:
   * an encoding error (bad user input) leaves the connection untouched.
   */
  call<M extends ClientMethod>(
    method: M,
    args: ArgsOf<M> | ArgsWriter,
    options: CallOptions = {},
  ): Promise<ResultOf<M>> {
    const trace = this.#trace;
    const run = () => this.#call(method, args, options, trace);
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #write(bytes: Uint8Array, onWritten: () => void): void {
    this.#stream!.write(bytes, onWritten);
  }

  async #call<M extends ClientMethod>(
    method: M,
    args: ArgsOf<M> | ArgsWriter,
    options: CallOptions,
    trace: TraceContext | null,
  ): Promise<ResultOf<M>> {
    if (this.#broken) throw this.#notSent(this.#broken, options.operation ?? method);
    if (options.signal?.aborted) throw options.signal.reason;
    const seqid = (this.#seqid = (this.#seqid + 1) | 0);
    // phase marks only while traced: serialize, then network + server, then decode
    let mark = trace !== null ? performance.now() : 0;
    const request = this.#encode(method, seqid, args, options.sensitive === true);
    const reply = this.#awaitReply(method, options, request.pos - FRAME_HEADER_BYTES);
    const bytes = request.view();
    const counters = this.#counters;
    counters.requests++;
    counters.bytesOut += bytes.length;
    if (trace !== null) {
      trace.endpoint = this.key;
      trace.bytesOut += bytes.length;
      trace.serializeMs += -mark + (mark = performance.now());
    }
    // the pooled buffer goes back once written
    try {
      this.#write(bytes, () => release(request, options.sensitive === true));
    } catch (e) {
      // a stream that throws took nothing: no reply comes for this call
      clearTimeout(this.#replies.pop()?.timer);
      throw e;
    }
    const { frame, pooled } = await reply;
    counters.bytesIn += frame.length + FRAME_HEADER_BYTES;
    if (trace === null) return this.#resultOf(method, seqid, frame, pooled);
    trace.bytesIn += frame.length + FRAME_HEADER_BYTES;
    trace.networkMs += -mark + (mark = performance.now());
    try {
      return this.#resultOf(method, seqid, frame, pooled);
    } finally {
      trace.decodeMs += performance.now() - mark;
    }
  }

  /**
   * The reply's result, its frame's pooled buffer settled (settleFrame): given back now, or by the reader of the
   * query blocks it holds. A reply that fails to decode leaves its buffer to the collector.
   */
  #resultOf<M extends ClientMethod>(method: M, seqid: number, frame: Buffer, pooled: Buffer | undefined): ResultOf<M> {
    const result = this.#decodeReply(method, seqid, frame);
    settleFrame(result, pooled, resultHoldsViews.has(method));
    return result;
  }

  /**
   * Runs `start`, and counts the calls it starts on this connection (synchronously, as every caller
   * does: `call()` reads the trace before it returns) into `trace`: their endpoint and bytes. Used only
   * while someone subscribes to the channels; a call started later is not counted.
   */
  withTrace<T>(trace: TraceContext, start: () => T): T {
    this.#trace = trace;
    try {
      return start();
    } finally {
      this.#trace = null;
    }
  }

  /**
   * The reply's result. A reply that does not follow the protocol breaks the connection (what follows
   * it on the stream cannot be trusted) and fails the call with IoTDBProtocolError; a Thrift
   * application exception (TApplicationError) is a well-formed answer and leaves it working.
   */
  #decodeReply<M extends ClientMethod>(method: M, seqid: number, frame: Buffer): ResultOf<M> {
    const r = new ByteReader(frame);
    const compact = this.#options.compact;
    try {
      const header = compact ? readReplyHeaderCompact(r) : readReplyHeader(r);
      if (header.seqid !== seqid || header.method !== method) {
        throw new IoTDBProtocolError(`reply ${header.method}#${header.seqid} does not answer ${method}#${seqid}`);
      }
      const schema = resultSchemas.get(method)!;
      const result = (compact ? readStructCompact(r, schema) : readStruct(r, schema)) as { success?: ResultOf<M> };
      if (result.success === undefined) throw new IoTDBProtocolError(`${method}: the reply carries no result`);
      return result.success;
    } catch (e) {
      if (e instanceof TApplicationError) throw e;
      const error =
        e instanceof IoTDBProtocolError
          ? e
          : new IoTDBProtocolError(`${method}: malformed reply (${String(e)})`, { cause: e });
      this.#breakWith(new IoTDBProtocolError(`${this.key}: ${method}: ${error.message}`, { cause: error }));
      throw this.#broken!; // set now, or earlier by the first error (which it keeps)
    }
  }

  #encode<M extends ClientMethod>(
    method: M,
    seqid: number,
    args: ArgsOf<M> | ArgsWriter,
    sensitive: boolean,
  ): ByteWriter {
    const w = new ByteWriter(4096, this.#options.bufferPool);
    const argType = IClientRPCService[method].args;
    try {
      const compact = this.#options.compact;
      const frameAt = compact
        ? beginCallCompact(w, method, seqid, argType)
        : beginCall(w, method, seqid, ttypeOf(argType));
      writeArgs(w, method, args, compact);
      endCall(w, frameAt);
      this.#checkFrameSize(method, w.pos - FRAME_HEADER_BYTES);
      return w;
    } catch (e) {
      release(w, sensitive);
      throw e;
    }
  }

  /**
   * A request over maxFrameBytes is refused before it is written: IoTDB reads the length first and closes the
   * connection on a frame over its dn_thrift_max_frame_size (512 MiB, maxFrameBytes' default), so sending it
   * would only break the connection, after the whole request was written, and again at every retry.
   */
  #checkFrameSize(method: string, bytes: number): void {
    const max = this.#options.maxFrameBytes;
    if (bytes <= max) return;
    throw new IoTDBValidationError(
      'request',
      `${method} is ${bytes} bytes, over maxFrameBytes=${max} (the server refuses a frame over its dn_thrift_max_frame_size, 512 MiB by default): send fewer rows a call, or raise both limits`,
    );
  }

  /** The next reply awaited (they come in the order the requests went out); its timeout runs from now. */
  #awaitReply(method: string, options: CallOptions, bytes: number): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const entry: Pending = {
        resolve,
        reject,
        timer: undefined,
        operation: options.operation ?? method,
        bytes,
        method,
      };
      const signal = options.signal;
      if (signal !== undefined) {
        const onAbort = () => this.#abort(entry, signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        const done = () => signal.removeEventListener('abort', onAbort);
        entry.resolve = (f) => (done(), resolve(f));
        entry.reject = (e) => (done(), reject(e));
      }
      this.#replies.push(entry);
      const timeout = options.timeoutMs ?? this.#options.requestTimeoutMs;
      if (timeout <= 0) return;
      this.#armTimeout(entry, waitOf(options, timeout), timeout);
    });
  }

  /**
   * Fails `entry`'s call when no reply came within `ms`. A timer that fires is checked once more after the event
   * loop's next read of the socket: when the application held the loop (synchronous work) past the timeout, the
   * reply may be waiting in the socket already, and the timers run before the socket is read.
   */
  #armTimeout(entry: Pending, wait: string, ms: number): void {
    entry.timer = setTimeout(
      () =>
        setImmediate(() => {
          if (this.#replies.includes(entry)) this.#timeout(entry.operation, `no reply within ${wait}${walHint(entry)}`);
        }),
      ms,
    );
    entry.timer.unref();
  }

  #onData(chunk: Buffer): void {
    try {
      this.#decoder.push(chunk, (frame, pooled) => {
        const p = this.#replies.shift();
        if (p === undefined) throw new IoTDBProtocolError('received a reply nobody asked for');
        clearTimeout(p.timer);
        this.#replied = true;
        p.resolve({ frame, pooled });
      });
    } catch (e) {
      const error = e instanceof IoTDBProtocolError ? e : new IoTDBProtocolError(String(e), { cause: e });
      this.#breakWith(new IoTDBProtocolError(`${this.key}: ${error.message}`, { cause: error }));
    }
  }

  #onClose(error?: Error): void {
    const hint = (this.#replied ? '' : this.#noReplyHint()) + this.#frameSizeHint();
    if (error === undefined) this.#fail('closed', `connection closed by the server${hint}`);
    else this.#fail(failureOf(error), `${error.message}${hint}`, error);
  }

  /**
   * IoTDB closes (or resets) a connection on its first request when the client speaks without the TLS or compression it
   * expects, and when it already serves as many clients as it may (measured on 2.0.1-beta: no word in its log).
   */
  #noReplyHint(): string {
    const compression = this.#options.compact;
    return ` before its first reply, as IoTDB closes a client without the TLS or RPC compression it expects: check the tls and rpcCompression options against the server's enable_thrift_ssl and dn_rpc_thrift_compression_enable (this connection: rpcCompression ${compression}); or as it closes a client past its dn_rpc_max_concurrent_client_num (connections of every client together; 65535 by default)`;
  }

  /**
   * IoTDB reads a frame's length first and closes the connection on one over its dn_thrift_max_frame_size, which may be
   * set below maxFrameBytes (512 MiB, the server's default; 8 MiB at the least): when the request awaiting its reply was
   * over that least, say so. The call is still retried as a broken connection (a node may have gone down under it).
   */
  #frameSizeHint(): string {
    const bytes = this.#replies[0]?.bytes ?? 0;
    if (bytes <= SERVER_LEAST_MAX_FRAME) return '';
    return ` while a request of ${bytes} bytes awaited its reply: IoTDB closes a connection on a frame over its dn_thrift_max_frame_size, which may be set as low as 8 MiB; if the server's is below that request, give maxFrameBytes its value (this session's: ${this.#options.maxFrameBytes}), so that a request over it is refused before it is sent`;
  }

  #timeout(operation: string, message: string): void {
    this.#breakWith(new IoTDBTimeoutError(this.key, operation, message, true));
  }

  /** The caller gave up on the call in flight: its reply must never be read as another call's. */
  #abort(aborted: Pending, reason: unknown): void {
    const at = this.#replies.indexOf(aborted);
    if (at >= 0) {
      this.#replies.splice(at, 1);
      clearTimeout(aborted.timer);
      aborted.reject(reason as Error);
    }
    this.#fail('closed', 'a call was aborted', reason, aborted.operation);
  }

  /**
   * Breaks the connection: the calls in flight fail with `reason`, each named in its error. What broke it is named after
   * `operation` (the call it broke under: by default the oldest in flight), which later calls quote.
   */
  #fail(reason: ConnectionFailure, message: string, cause?: unknown, operation = this.#replies[0]?.operation): void {
    const error = (call?: string) =>
      new IoTDBConnectionError(
        reason,
        this.key,
        message,
        true,
        cause === undefined ? { operation: call } : { cause, operation: call },
      );
    const broken = error(operation);
    this.#breakWith(broken, (call) => (call === operation ? broken : error(call))); // the call it names: the same error
  }

  /** Keeps `error` as what broke the connection; each call in flight fails with it, or with `forCall`'s error. */
  #breakWith(
    error: IoTDBConnectionError | IoTDBProtocolError,
    forCall: (operation: string) => Error = () => error,
  ): void {
    if (this.#broken) return;
    this.#broken = error;
    for (const p of this.#replies.splice(0)) {
      clearTimeout(p.timer);
      p.reject(forCall(p.operation));
    }
    this.#stream?.close();
  }

  /** The error for a call that found the connection already broken: its bytes never left. */
  #notSent(e: IoTDBConnectionError | IoTDBProtocolError, operation: string): IoTDBConnectionError {
    const reason = e instanceof IoTDBConnectionError ? e.reason : 'reset';
    return new IoTDBConnectionError(reason, this.key, `connection unusable (${e.message})`, false, {
      cause: e,
      operation,
    });
  }

  /** Closes the stream; a call in flight fails with a 'closed' IoTDBConnectionError. */
  close(): void {
    this.#fail('closed', 'connection closed by the client');
  }
}

/** A call's reply wait as its timeout names it: the option it came from, or how it came about. */
function waitOf(options: CallOptions, ms: number): string {
  if (options.timeoutMs === undefined) return `requestTimeoutMs=${ms}`;
  if (options.timeoutWhy !== undefined) return `${ms} ms (${options.timeoutWhy})`;
  return `${options.timeoutOption ?? 'timeoutMs'}=${ms}`;
}
