/**
 * Errors raised by the codec layer. The client package extends this hierarchy with server and
 * connection errors (packages/client/src/errors.ts) and re-exports it, so users catch one base class.
 */
export class IoTDBError extends Error {
  /** A stable identifier of the kind of error, in Node's style (`IOTDB_TIMEOUT`); see the user's guide. */
  readonly code: string = 'IOTDB_ERROR';
  /**
   * How many times the failed call was sent, when more than once (the client's retries; its message then ends
   * `(after 5 attempts over 2.9 s)`); absent for a call that failed on its first attempt.
   */
  declare readonly attempts?: number; // declared: set only when there is one
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One problem with an input: the field (or option, or environment variable) and what is wrong with it. */
export interface ValidationIssue {
  readonly field: string;
  readonly message: string;
}

/** The options of IoTDBValidationError: Error's, and the problems when there are several. */
export interface ValidationErrorOptions extends ErrorOptions {
  /** Every problem found (options are checked all at once). @default [{ field, message }] */
  issues?: readonly ValidationIssue[];
}

/**
 * Input the client refuses before any byte goes on the wire. `field` names the offending input;
 * `issues` lists every problem found when several were checked at once (the options of a session or
 * a pool: `field` is then `'options'`), else the one problem.
 */
export class IoTDBValidationError extends IoTDBError {
  override readonly code = 'IOTDB_INVALID_ARG';
  readonly field: string;
  /** Every problem, machine-readable: at least one, the same as `field` and the message when alone. */
  readonly issues: readonly ValidationIssue[];
  constructor(field: string, message: string, options?: ValidationErrorOptions) {
    super(`${field}: ${message}`, options && 'cause' in options ? { cause: options.cause } : undefined);
    this.field = field;
    this.issues = Object.freeze((options?.issues ?? [{ field, message }]).map((i) => Object.freeze({ ...i })));
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
