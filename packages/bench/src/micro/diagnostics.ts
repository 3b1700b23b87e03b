import { tracingChannel } from 'node:diagnostics_channel';
import { CHANNELS, Session, TSDataType, type Logger, type Tablet, type Transport } from '@iotdb/client';
import {
  ByteWriter,
  FRAME_HEADER_BYTES,
  IClientRPCService,
  TMessageType,
  resultSchema,
  writeMessageHeader,
  writeStruct,
  type ClientMethod,
} from '@iotdb/fast-serializer';
import { median } from '../report/numbers.js';

/**
 * What diagnostics cost on the write path: Session.insertTablet through a loopback transport (no socket,
 * no server: each request is answered in-process), with nobody subscribed, with a subscriber on the
 * three tracing channels, and with a (silent) logger set. The variants run the same client code; only the
 * diagnostics differ. A 10 rows x 5 series tablet shows a per-call cost most; 500 x 50 is the anchor size.
 * The variants take turns in short batches, round after round, and each reports its median batch: on a
 * shared machine, load that comes and goes then hits every variant alike (tasks run one after the other
 * would each see different load).
 */
function doubles(rows: number, series: number): Tablet {
  return {
    deviceId: 'root.bench.d0',
    measurements: Array.from({ length: series }, (_, s) => `s${s}`),
    dataTypes: Array.from({ length: series }, () => TSDataType.DOUBLE),
    timestamps: Float64Array.from({ length: rows }, (_, r) => 1_700_000_000_000 + r),
    columns: Array.from({ length: series }, (_, s) => Float64Array.from({ length: rows }, (_, r) => r * s)),
  };
}
const small = doubles(10, 5);
const big = doubles(500, 50);

/** The reply a healthy server gives each method the session calls, encoded once (its seqid patched per call). */
const REPLIES: Partial<Record<ClientMethod, unknown>> = {
  openSession: { status: { code: 200 }, serverProtocolVersion: 2, sessionId: 1n, configuration: new Map() },
  requestStatementId: 1n,
  insertTablet: { code: 200 },
  closeSession: { code: 200 },
};
const encoded = new Map<string, { frame: Buffer; seqidAt: number }>();
for (const [method, value] of Object.entries(REPLIES)) {
  const w = new ByteWriter(256);
  const frameAt = w.reserve(FRAME_HEADER_BYTES);
  writeMessageHeader(w, TMessageType.REPLY, method, 0);
  const seqidAt = w.pos - 4; // the seqid ends the header
  const spec = IClientRPCService[method as ClientMethod];
  writeStruct(w, resultSchema(method, spec.result), { success: value } as never);
  w.buf.writeInt32BE(w.pos - frameAt - FRAME_HEADER_BYTES, frameAt);
  encoded.set(method, { frame: Buffer.from(w.view()), seqidAt });
}

/** Answers each (whole, binary-protocol) request frame with the canned reply, one microtask later. */
const loopback: Transport = {
  connect: (_endpoint, events) =>
    Promise.resolve({
      write(data, onWritten) {
        const req = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
        const nameLength = req.readInt32BE(8);
        const method = req.toString('latin1', 12, 12 + nameLength);
        const seqid = req.readInt32BE(12 + nameLength);
        onWritten();
        const reply = encoded.get(method);
        if (reply === undefined) throw new Error(`loopback: no reply for ${method}`);
        const frame = Buffer.from(reply.frame);
        frame.writeInt32BE(seqid, reply.seqidAt);
        queueMicrotask(() => events.onData(frame));
      },
      close: () => events.onClose(),
    }),
};

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const noop = () => undefined;
const subscriber = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
const channels = Object.values(CHANNELS).map((name) => tracingChannel(name));

interface Variant {
  readonly name: string;
  readonly session: Session;
  readonly tablet: Tablet;
  readonly subscribed: boolean;
}

/** Runs the variants in turns for about `seconds` in all; returns each one's median time per insert, in µs. */
export async function measureDiagnostics(seconds: number): Promise<{ name: string; medianUs: number }[]> {
  const plain = new Session({ transport: loopback });
  const logged = new Session({ transport: loopback, logger: silent });
  await plain.open();
  await logged.open();
  const variants: Variant[] = [
    { name: '10x5: no subscriber, no logger', session: plain, tablet: small, subscribed: false },
    { name: '10x5: subscriber on the 3 channels', session: plain, tablet: small, subscribed: true },
    { name: '10x5: logger set (nothing to log)', session: logged, tablet: small, subscribed: false },
    { name: '500x50: no subscriber, no logger', session: plain, tablet: big, subscribed: false },
    { name: '500x50: subscriber on the 3 channels', session: plain, tablet: big, subscribed: true },
  ];
  const times: number[][] = variants.map(() => []);
  const until = performance.now() + seconds * 1000;
  for (let round = 0; round < 5 || performance.now() < until; round++) {
    for (const [i, v] of variants.entries()) times[i].push(await batch(v));
  }
  await plain.close();
  await logged.close();
  return variants.map((v, i) => ({ name: v.name, medianUs: median(times[i]) }));
}

/** One batch of inserts (after a short warm-up); µs per insert. */
async function batch(v: Variant): Promise<number> {
  const n = v.tablet === small ? 2000 : 200;
  if (v.subscribed) channels.forEach((c) => c.subscribe(subscriber));
  try {
    for (let k = 0; k < n / 10; k++) await v.session.insertTablet(v.tablet);
    const started = performance.now();
    for (let k = 0; k < n; k++) await v.session.insertTablet(v.tablet);
    return ((performance.now() - started) * 1000) / n;
  } finally {
    if (v.subscribed) channels.forEach((c) => c.unsubscribe(subscriber));
  }
}

/** The report: each variant's median, and its ratio to the same tablet with no diagnostics. */
export function diagnosticsReport(results: readonly { name: string; medianUs: number }[]): string {
  const base = (name: string) => results.find((r) => r.name.split(':')[0] === name.split(':')[0])!.medianUs;
  const lines = results.map(
    (r) =>
      `  ${r.name.padEnd(40)} ${r.medianUs.toFixed(2).padStart(8)} µs/insert  ${(base(r.name) / r.medianUs).toFixed(3)}x the rate without`,
  );
  return ['diagnostics (Session.insertTablet, loopback transport, median of interleaved batches):', ...lines].join(
    '\n',
  );
}
