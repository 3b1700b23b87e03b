import { createRequire } from 'node:module';
import { encodeTabletPlain, prepareTablet, type Tablet } from '@iotdb/fast-serializer';

/**
 * The naive baseline of `pnpm bench`: what a client built the obvious way does. Values one at a time
 * into small Buffers (the plain encoder), then the request struct through the `thrift` package's
 * generated code (src/generated, from thrift/insert-tablet.thrift) and its TBinaryProtocol over a
 * TFramedTransport, which copies the big binaries once more on flush.
 */
const require = createRequire(import.meta.url);
const thrift = require('thrift') as {
  TFramedTransport: new (buf: Buffer | undefined, onFlush: (out: Buffer) => void) => { flush(): void };
  TBinaryProtocol: new (transport: unknown) => unknown;
};
const { TSInsertTabletReq } = require('#generated/insert-tablet_types.cjs') as {
  TSInsertTabletReq: new (args: object) => { write(protocol: unknown): void };
};

/** The framed TSInsertTabletReq struct bytes (no message header), as the thrift package writes them. */
export function encodeNaive(t: Tablet, sessionId: number): Buffer {
  const p = prepareTablet(t);
  const { values, timestamps } = encodeTabletPlain(p);
  const req = new TSInsertTabletReq({
    sessionId,
    prefixPath: p.prefixPath,
    measurements: p.measurements,
    values,
    timestamps,
    types: p.types,
    size: p.rows,
    isAligned: p.isAligned,
  });
  let out: Buffer | undefined;
  const transport = new thrift.TFramedTransport(undefined, (buf) => (out = buf));
  req.write(new thrift.TBinaryProtocol(transport));
  transport.flush();
  return out!;
}
