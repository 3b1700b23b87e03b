/** Thrift TBinaryProtocol wire codes (see the Thrift binary protocol spec). */
export const TType = {
  STOP: 0,
  BOOL: 2,
  BYTE: 3,
  DOUBLE: 4,
  I16: 6,
  I32: 8,
  I64: 10,
  STRING: 11, // also `binary`
  STRUCT: 12,
  MAP: 13,
  SET: 14,
  LIST: 15,
} as const;
export type TType = (typeof TType)[keyof typeof TType];

export const TMessageType = { CALL: 1, REPLY: 2, EXCEPTION: 3, ONEWAY: 4 } as const;

/** Strict binary protocol: the first i32 of a message is VERSION_1 | message type. */
export const VERSION_1 = 0x80010000 | 0;
export const VERSION_MASK = 0xffff0000 | 0;

/** Framed transport: a 4-byte big-endian payload length precedes every message. */
export const FRAME_HEADER_BYTES = 4;
