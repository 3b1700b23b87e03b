/**
 * Errors raised by the codec layer. The client package extends this hierarchy with server and
 * connection errors (packages/client/src/errors.ts) and re-exports it, so users catch one base class.
 */
export class IoTDBError extends Error {
  /** A stable identifier of the kind of error, in Node's style (`IOTDB_TIMEOUT`); see the user's guide. */
  readonly code: string = 'IOTDB_ERROR';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Input the client refuses before any byte goes on the wire. `field` names the offending input. */
export class IoTDBValidationError extends IoTDBError {
  override readonly code = 'IOTDB_INVALID_ARG';
  readonly field: string;
  constructor(field: string, message: string, options?: ErrorOptions) {
    super(`${field}: ${message}`, options);
    this.field = field;
  }
}

/** The same validation error with `prefix.` in front of its field (which tablet or record of a batch). */
export function prefixField(e: unknown, prefix: string): unknown {
  if (!(e instanceof IoTDBValidationError)) return e;
  return new IoTDBValidationError(`${prefix}.${e.field}`, e.message.slice(e.field.length + 2), { cause: e });
}

/** Bytes from the server that do not follow the protocol (truncated, unknown encoding, ...). */
export class IoTDBProtocolError extends IoTDBError {
  override readonly code = 'IOTDB_PROTOCOL';
}
