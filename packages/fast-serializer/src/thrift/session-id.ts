import { IoTDBError } from '../errors.js';
import type { ByteWriter } from '../io/byte-writer.js';
import { CType, fieldHeader, zigzag64 } from './compact.js';
import { TType } from './ttype.js';

/**
 * The first field of a request argument that has a session id (field 1, i64: every IoTDB write request), holding
 * session id 0: 11 bytes in the binary protocol, 2 in the compact protocol.
 */
const BINARY_HEAD = Buffer.from([TType.I64, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
const COMPACT_HEAD = Buffer.from([(1 << 4) | CType.I64, 0]);

/**
 * Writes `encoded`, an argument struct encoded with session id 0 as its first field (encoded before the session
 * it goes on was known), with `sessionId` in that field instead. What follows the field does not depend on its
 * value in either protocol (the compact protocol's next field header counts from field 1, whatever field 1 holds),
 * so the bytes written are those of the struct encoded with `sessionId`.
 */
export function writeWithSessionId(w: ByteWriter, encoded: Uint8Array, sessionId: bigint, compact: boolean): void {
  const head = compact ? COMPACT_HEAD : BINARY_HEAD;
  if (encoded.length < head.length || Buffer.compare(encoded.subarray(0, head.length), head) !== 0)
    throw new IoTDBError('an argument encoded ahead of its session must start with session id 0 (a client bug)');
  if (compact) {
    fieldHeader(w, 0, 1, CType.I64);
    zigzag64(w, sessionId);
  } else w.i8(TType.I64).i16(1).i64(sessionId);
  w.bytes(encoded.subarray(head.length));
}
