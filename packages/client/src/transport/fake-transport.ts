import {
  ByteReader,
  ByteWriter,
  FRAME_HEADER_BYTES,
  IClientRPCService,
  TMessageType,
  VERSION_1,
  argsSchema,
  readMessageHeader,
  readMessageHeaderCompact,
  readStruct,
  readStructCompact,
  resultSchema,
  writeMessageHeader,
  writeMessageHeaderCompact,
  writeStruct,
  writeStructCompact,
  type ClientMethod,
} from '@iotdb/fast-serializer';
import { endpointKey, parseEndpoint, type Endpoint } from '../cluster/endpoint.js';
import { FrameDecoder } from '../connection/frame-decoder.js';
import type { ArgsOf, ResultOf } from '../connection/rpc-connection.js';
import { IoTDBConnectionError, IoTDBTimeoutError } from '../errors.js';
import type { ConnectOptions, StreamEvents, Transport, TransportStream } from './transport.js';

/** One request the fake received, decoded. */
export interface FakeCall<M extends ClientMethod = ClientMethod> {
  /** 'host:port' */
  readonly node: string;
  readonly method: M;
  /** the decoded argument (a request struct, or the i64 of requestStatementId) */
  readonly args: DecodedArgs<M>;
  /** which connection (1, 2, ... in connect order) */
  readonly connection: number;
}

type DecodedArgs<M extends ClientMethod> =
  ArgsOf<M> extends infer A ? (A extends object ? Record<string, unknown> : A) : never;

/** What the fake does with a call. */
export type FakeAction =
  /** answer with this return value */
  | { readonly reply: unknown }
  /** send `bytes` of the reply (default: half), then reset the connection */
  | { readonly resetAfter?: number; readonly reset: true }
  /** never answer */
  | { readonly hang: true }
  /** answer later */
  | { readonly delayMs: number; readonly then: FakeAction };

/** Decides a call's fate; undefined = the default answer (a working, empty server). */
export type FakeScript = (call: FakeCall) => FakeAction | undefined;

/** How the fake answers connects to a node: accept, refuse at once, or never complete (until connectTimeoutMs). */
export type NodeState = 'up' | 'refuse' | 'blackhole';

/**
 * A scripted Transport for unit tests: no sockets, no server. Requests are decoded with the same IDL
 * schemas the client encodes with, in the protocol they come in (binary, or compact for a session with
 * `rpcCompression`, answered in the same), and `script` decides each reply (a status, a result, a reset in the
 * middle of a reply, silence); replies are encoded as a real server would and fed back in `chunkBytes`
 * pieces. `calls` records everything sent, so a test can say what was sent how often, and where.
 */
export class FakeTransport implements Transport {
  readonly calls: FakeCall[] = [];
  readonly #states = new Map<string, NodeState>();
  readonly #peers = new Map<string, Endpoint>();
  readonly #script: FakeScript;
  readonly #chunkBytes: number;
  readonly #open = new Set<FakeStream>();
  connects = 0;

  constructor(script: FakeScript = () => undefined, options: { chunkBytes?: number } = {}) {
    this.#script = script;
    this.#chunkBytes = options.chunkBytes ?? Infinity;
  }

  /** Takes a node down (refusing or swallowing connects, resetting its open connections) or brings it up. */
  setNode(node: string, state: NodeState): void {
    this.#states.set(node, state);
    if (state !== 'up') for (const s of this.#open) if (s.node === node) s.serverReset();
  }

  /** The address a connection to `node` reaches, as a socket's remote address says ('host:port'; `node` itself by default). */
  setPeer(node: string, peer: string): void {
    this.#peers.set(node, parseEndpoint(peer, 'peer'));
  }

  /** Connections open right now. */
  get openConnections(): number {
    return this.#open.size;
  }

  /** The calls of `method` so far. */
  callsOf<M extends ClientMethod>(method: M): FakeCall<M>[] {
    return this.calls.filter((c): c is FakeCall<M> => c.method === method);
  }

  connect(endpoint: Endpoint, events: StreamEvents, options: ConnectOptions): Promise<TransportStream> {
    const node = endpointKey(endpoint);
    const state = this.#states.get(node) ?? 'up';
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) return reject(options.signal.reason);
      if (state === 'refuse') {
        queueMicrotask(() =>
          reject(new IoTDBConnectionError('refused', node, 'cannot connect: connect ECONNREFUSED', false)),
        );
        return;
      }
      const id = ++this.connects;
      const finish = (error: Error | null) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (error) return reject(error);
        const stream = new FakeStream(node, id, events, this, () => this.#open.delete(stream));
        stream.peer = this.#peers.get(node) ?? endpoint;
        this.#open.add(stream);
        resolve(stream);
      };
      const onAbort = () => finish(options.signal!.reason as Error);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const timer =
        state === 'blackhole'
          ? setTimeout(
              () =>
                finish(
                  new IoTDBTimeoutError(
                    node,
                    'connect',
                    `no connection within connectTimeoutMs=${options.timeoutMs}`,
                    false,
                  ),
                ),
              options.timeoutMs,
            )
          : setTimeout(() => finish(null), 0);
    });
  }

  /** @internal the stream's view of the script */
  answer(call: FakeCall): FakeAction {
    this.calls.push(call);
    return this.#script(call) ?? { reply: defaultReply(call) };
  }

  get chunkBytes(): number {
    return this.#chunkBytes;
  }
}

class FakeStream implements TransportStream {
  readonly node: string;
  peer: Endpoint | undefined;
  readonly #id: number;
  readonly #events: StreamEvents;
  readonly #fake: FakeTransport;
  readonly #onGone: () => void;
  readonly #decoder = new FrameDecoder(64 * 1024 * 1024);
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed = false;
  /**
   * Requests received (recorded in `calls` and decided by the script as they come) while one is being answered: a
   * server answers a connection's requests one by one, in order.
   */
  readonly #waiting: { action: FakeAction; to: ReplyTo }[] = [];
  #busy = false;

  constructor(node: string, id: number, events: StreamEvents, fake: FakeTransport, onGone: () => void) {
    this.node = node;
    this.#id = id;
    this.#events = events;
    this.#fake = fake;
    this.#onGone = onGone;
  }

  write(data: Uint8Array, onWritten: () => void): void {
    const copy = Buffer.from(data); // the caller's pooled buffer goes back now
    onWritten();
    if (this.#closed) return;
    this.#decoder.push(copy, (frame) => {
      this.#waiting.push(this.#receive(Buffer.from(frame)));
      if (!this.#busy) this.#next();
    });
  }

  /** Answers the next request waiting, then the one after it once that is answered. */
  #next(): void {
    const next = this.#waiting.shift();
    if (next === undefined) return;
    this.#busy = true;
    try {
      this.#act(next.action, next.to, () => {
        this.#busy = false;
        this.#next();
      });
    } catch (e) {
      this.#busy = false; // a script whose reply cannot be encoded: the error reaches the writer, as ever
      throw e;
    }
  }

  close(): void {
    this.#end();
  }

  /** The server side drops the connection: the client hears a reset. */
  serverReset(): void {
    if (this.#closed) return;
    this.#end();
    this.#events.onClose(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
  }

  #end(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.#onGone();
  }

  /** A request in the binary protocol, or the compact one (RPC compression, answered in the same): the script's say. */
  #receive(frame: Buffer): { action: FakeAction; to: ReplyTo } {
    const r = new ByteReader(frame);
    const compact = frame[0] !== VERSION_1 >>> 24; // binary starts 0x80 0x01, compact 0x82
    const header = compact ? readMessageHeaderCompact(r) : readMessageHeader(r);
    const method = header.method as ClientMethod;
    const schema = argsSchema(method, IClientRPCService[method].args);
    const args = (compact ? readStructCompact(r, schema) : readStruct(r, schema)).req as DecodedArgs<ClientMethod>;
    const action = this.#fake.answer({ node: this.node, method, args, connection: this.#id });
    return { action, to: { method, seqid: header.seqid, compact } };
  }

  /** Does what the script said; `done` once the reply is sent (never for a hang: nothing after it is answered). */
  #act(action: FakeAction, to: ReplyTo, done: () => void): void {
    if ('hang' in action) return;
    if ('delayMs' in action) {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        this.#act(action.then, to, done);
      }, action.delayMs);
      this.#timers.add(t);
      return;
    }
    if ('reset' in action) {
      const bytes = encodeReply(to.method, to.seqid, defaultReply(to), to.compact);
      this.#send(bytes.subarray(0, action.resetAfter ?? bytes.length >> 1));
      queueMicrotask(() => this.serverReset());
      return;
    }
    this.#send(encodeReply(to.method, to.seqid, action.reply, to.compact));
    done();
  }

  #send(bytes: Buffer): void {
    const step = Math.max(1, Math.min(this.#fake.chunkBytes, bytes.length));
    for (let at = 0; at < bytes.length; at += step) {
      const chunk = bytes.subarray(at, at + step);
      queueMicrotask(() => {
        if (!this.#closed) this.#events.onData(chunk);
      });
    }
  }
}

/** What a reply answers: the call's method and seqid, in its protocol. */
interface ReplyTo {
  readonly method: ClientMethod;
  readonly seqid: number;
  readonly compact: boolean;
}

/** A framed REPLY of `method` carrying `value` as its result, as a server writes it (`compact`: RPC compression). */
export function encodeReply(method: ClientMethod, seqid: number, value: unknown, compact = false): Buffer {
  const w = new ByteWriter(256);
  const frameAt = w.reserve(FRAME_HEADER_BYTES);
  const schema = resultSchema(method, IClientRPCService[method].result);
  (compact ? writeMessageHeaderCompact : writeMessageHeader)(w, TMessageType.REPLY, method, seqid);
  (compact ? writeStructCompact : writeStruct)(w, schema, { success: value } as never);
  w.buf.writeInt32BE(w.pos - frameAt - FRAME_HEADER_BYTES, frameAt);
  return Buffer.from(w.view());
}

const OK = { code: 200 };

/** What a healthy, empty server answers. */
export function defaultReply(call: Pick<FakeCall, 'method'>): ResultOf<ClientMethod> {
  switch (call.method) {
    case 'openSession':
      return {
        status: OK,
        serverProtocolVersion: 2,
        sessionId: 1n,
        configuration: new Map([['timestamp_precision', 'ms']]),
      };
    case 'requestStatementId':
      return 1n;
    case 'executeQueryStatementV2':
    case 'executeRawDataQueryV2':
    case 'executeLastDataQueryV2':
    case 'executeFastLastDataQueryForOneDeviceV2':
    case 'executeAggregationQueryV2':
      return {
        status: OK,
        queryId: 1n,
        columns: [],
        dataTypeList: [],
        queryResult: [],
        moreData: false,
        columnIndex2TsBlockColumnIndexList: [],
      };
    case 'executeUpdateStatementV2':
      return { status: OK };
    case 'fetchResultsV2':
      return { status: OK, hasResultSet: false, isAlign: true };
    default:
      return OK;
  }
}
