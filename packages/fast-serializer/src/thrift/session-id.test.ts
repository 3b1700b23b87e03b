import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoTDBError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import { writeInsertTabletReqCompact, writeInsertTabletsReqCompact } from '../tablet/insert-tablet-request-compact.js';
import { writeInsertTabletReq, writeInsertTabletsReq } from '../tablet/insert-tablet-request.js';
import { prepareTablet } from '../tablet/prepare-tablet.js';
import { writeStructCompact } from './compact.js';
import { TSInsertTabletReqSchema } from './iotdb-idl.js';
import { writeWithSessionId } from './session-id.js';
import { readStruct, writeStruct } from './struct-codec.js';

const tablet = prepareTablet({
  deviceId: 'root.sg.d1',
  measurements: ['s1', 's2'],
  dataTypes: ['INT64', 'TEXT'],
  timestamps: [1, 2, 3],
  values: [
    [1n, 'a'],
    [null, 'bé'],
    [2n ** 62n, null],
  ],
});
/** The fast encoders and the struct codec (the plain path), in both protocols: the argument for `sessionId`. */
const encoders: Record<string, [compact: boolean, (w: ByteWriter, sessionId: bigint) => void]> = {
  insertTablet: [false, (w, id) => writeInsertTabletReq(w, id, tablet)],
  'insertTablet, compact': [true, (w, id) => writeInsertTabletReqCompact(w, id, tablet)],
  insertTablets: [false, (w, id) => writeInsertTabletsReq(w, id, [tablet, tablet])],
  'insertTablets, compact': [true, (w, id) => writeInsertTabletsReqCompact(w, id, [tablet, tablet])],
  ...(() => {
    const w = new ByteWriter();
    writeInsertTabletReq(w, 0n, tablet);
    const struct = readStruct(new ByteReader(w.view()), TSInsertTabletReqSchema);
    return {
      'struct codec': [
        false,
        (w: ByteWriter, id: bigint) => writeStruct(w, TSInsertTabletReqSchema, { ...struct, sessionId: id }),
      ],
      'struct codec, compact': [
        true,
        (w: ByteWriter, id: bigint) => writeStructCompact(w, TSInsertTabletReqSchema, { ...struct, sessionId: id }),
      ],
    } as const;
  })(),
};
const encoded = (write: (w: ByteWriter, id: bigint) => void, id: bigint) => {
  const w = new ByteWriter();
  write(w, id);
  return w.view();
};

describe('writeWithSessionId', () => {
  it.each(Object.entries(encoders))(
    'gives the bytes of the argument encoded with that session id (%s)',
    (_, [compact, write]) => {
      const ahead = encoded(write, 0n);
      fc.assert(
        fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (id) => {
          const w = new ByteWriter();
          writeWithSessionId(w, ahead, id, compact);
          expect(w.view()).toEqual(encoded(write, id));
        }),
      );
    },
  );

  it('refuses an argument not encoded with session id 0, or in the other protocol', () => {
    const [, tabletReq] = encoders.insertTablet;
    expect(() => writeWithSessionId(new ByteWriter(), encoded(tabletReq, 7n), 1n, false)).toThrow(IoTDBError);
    expect(() => writeWithSessionId(new ByteWriter(), encoded(tabletReq, 0n), 1n, true)).toThrow(/session id 0/);
  });
});
