import type { ByteWriter } from '../io/byte-writer.js';
import { TType } from '../thrift/ttype.js';
import type { EncodedRecord } from './encode-record.js';

/**
 * TSInsertRecordsReq written field by field (binary protocol). Records usually repeat their device and
 * share one measurements array: a repeat is copied from where it was first written in this request
 * (same bytes, one `copyWithin`) instead of being encoded again, string by string.
 */
export function writeInsertRecordsReq(
  w: ByteWriter,
  sessionId: bigint,
  records: readonly EncodedRecord[],
  isAligned: boolean,
): void {
  const n = records.length;
  w.i8(TType.I64).i16(1).i64(sessionId);
  w.i8(TType.LIST).i16(2).i8(TType.STRING).i32(n);
  let lastDevice: string | null = null;
  let deviceAt = 0;
  let deviceEnd = 0;
  for (const r of records) {
    if (r.deviceId === lastDevice) copyEarlier(w, deviceAt, deviceEnd);
    else {
      deviceAt = w.pos;
      w.lengthPrefixedUtf8(r.deviceId);
      deviceEnd = w.pos;
      lastDevice = r.deviceId;
    }
  }
  w.i8(TType.LIST).i16(3).i8(TType.LIST).i32(n);
  const written = new Map<readonly string[], [number, number]>();
  for (const r of records) {
    const earlier = written.get(r.measurements);
    if (earlier !== undefined) {
      copyEarlier(w, earlier[0], earlier[1]);
      continue;
    }
    const at = w.pos;
    w.i8(TType.STRING).i32(r.measurements.length);
    for (const m of r.measurements) w.lengthPrefixedUtf8(m);
    written.set(r.measurements, [at, w.pos]);
  }
  w.i8(TType.LIST).i16(4).i8(TType.STRING).i32(n);
  for (const r of records) w.lengthPrefixedBytes(r.values);
  w.i8(TType.LIST).i16(5).i8(TType.I64).i32(n);
  for (const r of records) w.i64(r.timestamp);
  w.i8(TType.BOOL)
    .i16(6)
    .i8(isAligned ? 1 : 0);
  w.i8(TType.STOP);
}

/** Appends a copy of bytes [from, to) written earlier in this request. */
function copyEarlier(w: ByteWriter, from: number, to: number): void {
  w.ensure(to - from);
  w.buf.copyWithin(w.pos, from, to);
  w.pos += to - from;
}
