import {
  IoTDBValidationError,
  KnownKeys,
  dataTypeCode,
  type DataTypeInput,
  type TSDataType,
} from '@iotdb/fast-serializer';
import { checkedIfGiven, positiveInt, timerMs } from '../config/checks.js';
import { checkCallOptions } from '../config/issues.js';
import type { TableWriterOptions, TreeWriterOptions } from './sink.js';

/** What a batching writer takes; every limit has a default. `Row` is what `onError` hands back. */
export interface WriterOptions<Row> {
  /**
   * Types by measurement (tree) or field (table) name. A name not listed gets its type from its first
   * value: number → DOUBLE, bigint → INT64, string → TEXT (tree) / STRING (table), boolean → BOOLEAN,
   * Buffer/Uint8Array → BLOB, Date → TIMESTAMP. A later value that does not fit is an error for its row.
   */
  types?: Readonly<Record<string, DataTypeInput>>;
  /** Rows buffered per device (tree) or table before a flush. @default 1000 */
  maxRows?: number;
  /** Bytes buffered (all devices, as they go on the wire) before a flush. @default 16 MiB */
  maxBytes?: number;
  /** A flush at the latest this long after the first row buffered; 0 = none. @default 1000 */
  flushIntervalMs?: number;
  /** Rows per request at most: a flush packs whole device tablets into requests up to it. @default 10000 */
  maxRowsPerRequest?: number;
  /** Requests in flight at most. @default 2 on a session, the pool's maxSize on a pool */
  maxInFlight?: number;
  /**
   * Rows held at most (buffered, waiting or in flight): past it `write()` returns a promise that waits
   * until requests are acknowledged (backpressure). Half of it in buffers is a flush too, so that one
   * half is sent while the other fills. @default 100000
   */
  maxBufferedRows?: number;
  /**
   * Called with the rows a request could not write (a permanent rejection, or a transient one that
   * outlived the retry budget): exactly those rows, as written (null cells left out). Without it,
   * the next flush() or close() rejects with IoTDBWriteFailedError.
   */
  onError?: (error: Error, rows: Row[]) => void;
}

export interface ResolvedWriterOptions<Row> {
  readonly types: ReadonlyMap<string, TSDataType>;
  readonly maxRows: number;
  readonly maxBytes: number;
  readonly flushIntervalMs: number;
  readonly maxRowsPerRequest: number;
  readonly maxInFlight: number;
  readonly maxBufferedRows: number;
  readonly onError: ((error: Error, rows: Row[]) => void) | undefined;
}

export const WRITER_DEFAULTS = {
  maxRows: 1000,
  maxBytes: 16 * 1024 * 1024,
  flushIntervalMs: 1000,
  maxRowsPerRequest: 10_000,
  maxBufferedRows: 100_000,
} as const;

const OPTION_KEYS = [
  'types',
  'maxRows',
  'maxBytes',
  'flushIntervalMs',
  'maxRowsPerRequest',
  'maxInFlight',
  'maxBufferedRows',
  'onError',
] as const;
// every option of the types listed: one left out fails to compile
const TABLE_OPTION_KEYS: KnownKeys = KnownKeys.of<TableWriterOptions>('options')(...OPTION_KEYS);
const TREE_OPTION_KEYS: KnownKeys = KnownKeys.of<TreeWriterOptions>('options')(...OPTION_KEYS, 'aligned');

/** `tree`: the options may say `aligned` (TreeWriterOptions); any other name is refused, not ignored. */
export function resolveWriterOptions<Row>(
  o: WriterOptions<Row> = {},
  defaultInFlight: number,
  tree: boolean,
): ResolvedWriterOptions<Row> {
  if (o === null || typeof o !== 'object') throw new IoTDBValidationError('options', 'expected an object');
  checkCallOptions(o, tree ? TREE_OPTION_KEYS : TABLE_OPTION_KEYS);
  const types = new Map<string, TSDataType>();
  for (const [name, t] of Object.entries(o.types ?? {})) types.set(name, dataTypeCode(t, `types.${name}`));
  const maxRows = limit('maxRows', o.maxRows, WRITER_DEFAULTS.maxRows);
  const maxRowsPerRequest = limit(
    'maxRowsPerRequest',
    o.maxRowsPerRequest,
    Math.max(WRITER_DEFAULTS.maxRowsPerRequest, maxRows),
  );
  if (maxRowsPerRequest < maxRows) {
    throw new IoTDBValidationError(
      'maxRowsPerRequest',
      `must be at least maxRows (${maxRows}): a device's rows go in one request`,
    );
  }
  const flushIntervalMs = limit('flushIntervalMs', o.flushIntervalMs, WRITER_DEFAULTS.flushIntervalMs, true, timerMs);
  if (o.onError !== undefined && typeof o.onError !== 'function')
    throw new IoTDBValidationError('onError', 'needs a function');
  return {
    types,
    maxRows,
    maxBytes: limit('maxBytes', o.maxBytes, WRITER_DEFAULTS.maxBytes),
    flushIntervalMs,
    maxRowsPerRequest,
    maxInFlight: limit('maxInFlight', o.maxInFlight, defaultInFlight),
    maxBufferedRows: limit('maxBufferedRows', o.maxBufferedRows, Math.max(WRITER_DEFAULTS.maxBufferedRows, maxRows)),
    onError: o.onError,
  };
}

function limit(field: string, v: number | undefined, fallback: number, allowZero = false, check = positiveInt): number {
  return checkedIfGiven(field, v, check, allowZero) ?? fallback;
}
