import { createRequire } from 'node:module';
import { plainInsertTabletReq, prepareTablet, type Tablet } from '@iotdb/fast-serializer';

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
const { TSInsertTabletReq } = require('../generated/insert-tablet_types.cjs') as {
  TSInsertTabletReq: new (args: object) => { write(protocol: unknown): void };
};

/** The framed TSInsertTabletReq struct bytes (no message header), as the thrift package writes them. */
export function encodeNaive(t: Tablet, sessionId: number): Buffer {
  // the thrift package's i64 takes a number (node-int64), not a bigint
  const req = new TSInsertTabletReq({ ...plainInsertTabletReq(0n, prepareTablet(t)), sessionId });
  let out: Buffer | undefined;
  const transport = new thrift.TFramedTransport(undefined, (buf) => (out = buf));
  req.write(new thrift.TBinaryProtocol(transport));
  transport.flush();
  return out!;
}
