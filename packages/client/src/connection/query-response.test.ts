import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ByteReader,
  ByteWriter,
  TSExecuteStatementRespSchema,
  checkTsBlockCase,
  decodeTsBlock,
  parseVectorFile,
  readStruct,
  writeStruct,
  type TSExecuteStatementResp,
} from '@iotdb/fast-serializer';
import { FrameDecoder } from './frame-decoder.js';

/**
 * A query response carrying the Java-made TsBlocks of the vectors, framed, fed to the connection's frame
 * decoder whole, split at every offset and byte by byte: the blocks decode to the same values every way.
 */
const file = parseVectorFile(
  readFileSync(new URL('../../../fast-serializer/fixtures/vectors/tsblock.json', import.meta.url), 'utf8'),
);
const cases = file.kind === 'tsblock' ? file.cases : [];

function framedResponse(): Buffer {
  const w = new ByteWriter(1024);
  const at = w.reserve(4);
  writeStruct(w, TSExecuteStatementRespSchema, {
    status: { code: 200 },
    queryId: 7n,
    columns: ['c'],
    dataTypeList: ['INT32'],
    queryResult: cases.map((c) => Buffer.from(c.tsBlockHex, 'hex')),
    moreData: false,
  });
  w.buf.writeInt32BE(w.pos - at - 4, at);
  return Buffer.from(w.view());
}

function decodeAll(chunks: Buffer[]): TSExecuteStatementResp {
  const frames: Buffer[] = [];
  const d = new FrameDecoder(1 << 20);
  for (const c of chunks) d.push(c, (f) => frames.push(f));
  expect(frames).toHaveLength(1);
  return readStruct(new ByteReader(frames[0]), TSExecuteStatementRespSchema);
}

function expectBlocksMatchVectors(resp: TSExecuteStatementResp): void {
  expect(resp.queryResult).toHaveLength(cases.length);
  resp.queryResult!.forEach((block, i) => {
    // the decoder reads the block where it lies in the frame (a view, no copy)
    expect(decodeTsBlock(block, cases[i].types).rows).toBe(cases[i].times.length);
    expect(checkTsBlockCase({ ...cases[i], tsBlockHex: block.toString('hex') }).problem).toBeUndefined();
  });
}

describe('query responses through the frame decoder', () => {
  const whole = framedResponse();

  it('decodes the TsBlocks of a response fed whole', () => {
    expectBlocksMatchVectors(decodeAll([whole]));
  });

  it('decodes the same when the response is split in two, at offsets all through it', () => {
    for (let at = 1; at < whole.length; at += 7)
      expectBlocksMatchVectors(decodeAll([whole.subarray(0, at), whole.subarray(at)]));
  });

  it('decodes the same when the response arrives byte by byte', () => {
    expectBlocksMatchVectors(decodeAll(Array.from(whole, (b) => Buffer.from([b]))));
  });
});
