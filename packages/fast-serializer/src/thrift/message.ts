import { IoTDBError, IoTDBProtocolError } from '../errors.js';
import { ByteReader } from '../io/byte-reader.js';
import { ByteWriter } from '../io/byte-writer.js';
import { readStruct, schema } from './struct-codec.js';
import { FRAME_HEADER_BYTES, TMessageType, TType, VERSION_1, VERSION_MASK } from './ttype.js';

/**
 * Starts a framed TBinaryProtocol CALL: a frame length placeholder, the message header and the
 * args struct up to its field 1 header. The caller writes field 1's value, then calls `endCall`.
 * Returns the offset of the frame header, for `endCall`.
 */
export function beginCall(w: ByteWriter, method: string, seqid: number, argType: number = TType.STRUCT): number {
  const frameAt = w.reserve(FRAME_HEADER_BYTES);
  writeMessageHeader(w, TMessageType.CALL, method, seqid);
  w.i8(argType).i16(1); // args struct, field 1 (`req` or `sessionId`)
  return frameAt;
}

/** A binary message header (`type`: TMessageType): what readMessageHeader reads. */
export function writeMessageHeader(w: ByteWriter, type: number, method: string, seqid: number): void {
  w.i32(VERSION_1 | type)
    .lengthPrefixedUtf8(method)
    .i32(seqid);
}

/** A binary message header, its version checked; leaves the reader at the body. */
export function readMessageHeader(r: ByteReader): { method: string; seqid: number; type: number } {
  const word = r.i32();
  if ((word & VERSION_MASK) !== VERSION_1) {
    throw new IoTDBProtocolError(`bad Thrift message header 0x${(word >>> 0).toString(16)}`);
  }
  const method = r.utf8(r.i32());
  return { method, seqid: r.i32(), type: word & 0xff };
}

/** Closes the args struct and patches the frame length. */
export function endCall(w: ByteWriter, frameAt: number): void {
  w.i8(TType.STOP);
  w.buf.writeInt32BE(w.pos - frameAt - FRAME_HEADER_BYTES, frameAt);
}

/** Thrift's TApplicationException, sent instead of a reply when the server could not run the call. */
export class TApplicationError extends IoTDBError {
  override readonly code = 'IOTDB_SERVER_EXCEPTION';
  readonly type: number;
  constructor(message: string, type: number) {
    super(message);
    this.type = type;
  }
}

export const TApplicationExceptionSchema = schema({
  name: 'TApplicationException',
  fields: [
    { id: 1, name: 'message', type: 'string' },
    { id: 2, name: 'type', type: 'i32' },
  ],
});

export interface ReplyHeader {
  method: string;
  seqid: number;
}

/**
 * Reads a reply's message header (the frame length already removed) and leaves the reader at the
 * result struct. An EXCEPTION message is thrown as TApplicationError.
 */
export function readReplyHeader(r: ByteReader): ReplyHeader {
  const { method, seqid, type } = readMessageHeader(r);
  if (type === TMessageType.EXCEPTION) {
    const e = readStruct(r, TApplicationExceptionSchema);
    throw new TApplicationError(`${method}: ${e.message ?? 'server exception'}`, e.type ?? 0);
  }
  if (type !== TMessageType.REPLY) throw new IoTDBProtocolError(`unexpected Thrift message type ${type}`);
  return { method, seqid };
}
