import {
  ColumnCategory,
  IoTDBValidationError,
  TSDataType,
  checkDevicePath,
  checkTableName,
  dateToTime,
  describeValue as describe,
  isInt64,
  KnownKeys,
  type CellValue,
  type TimestampPrecision,
  deviceName,
} from '@iotdb/fast-serializer';
import type { TabletBuffer, TakenTablet, TypeOf } from './tablet-buffer.js';
import { tableTypes, treeTypes, type RegisteredTypes, type SchemaQuery } from './learned-types.js';

/** A row of the tree model: one time of one device, a value per measurement (null or missing: none). */
export interface TreeRow {
  deviceId: string;
  /** in the server's precision (number or bigint), or a Date converted to it */
  timestamp: number | bigint | Date;
  values: Readonly<Record<string, CellValue>>;
}

/** A row of the table model: the device is the table and its tags; attributes and fields by name. */
export interface TableRow {
  table: string;
  timestamp: number | bigint | Date;
  tags: Readonly<Record<string, string | null | undefined>>;
  attributes?: Readonly<Record<string, string | null | undefined>>;
  fields: Readonly<Record<string, CellValue>>;
}

/** How a model's rows go into buffers and come back out of a failed request. */
export interface WriterModel<Row> {
  /** Appends a row to the buffer `bufferOf(key)` and returns that buffer; throws IoTDBValidationError, appending nothing. */
  append(row: Row, bufferOf: (key: string) => TabletBuffer, seq: number, precision: TimestampPrecision): TabletBuffer;
  /**
   * Checks a new buffer's key (a device, a table) as a session's write checks it: once a buffer, not at every row
   * (a table name's check is a regular expression). Throws IoTDBValidationError for the row that named it.
   */
  checkKey(key: unknown): void;
  /** A buffer's key as the server names it: a device's nodes without backquotes (deviceName), a table in lower case. */
  serverName(key: string): string;
  /** tree: a request carries many devices' tablets; table: one table's tablet */
  readonly tabletsPerRequest: 'many' | 'one';
  /** The rows a failure index names: tree, every row of tablet `index`; table, row `index` of the one tablet. */
  rowsAt(taken: readonly TakenTablet[], index: number): Row[];
  /** a request's indexes (tree: its tablets'; table: its tablet's source rows), for a failure of all of them */
  indexes(taken: readonly TakenTablet[]): number[];
  /** the inference rule for names without a declared type */
  readonly infer: TypeOf;
  /** The types the server has for the columns of buffers `keys` (devices; a table), looked up with `query`. */
  registeredTypes(keys: readonly string[], query: SchemaQuery): Promise<RegisteredTypes>;
}

/** The row time in the server's unit: a checked int64, a Date converted. */
function rowTime(v: unknown, precision: TimestampPrecision): number | bigint {
  const t = v instanceof Date ? dateToTime(v, precision, 'timestamp') : v;
  if (!isInt64(t))
    throw new IoTDBValidationError(
      'timestamp',
      `needs a safe integer number, an int64 bigint or a Date, got ${describe(v)}`,
    );
  return t;
}

function objectField(row: object, field: string, required: boolean): Record<string, unknown> | undefined {
  const v = (row as Record<string, unknown>)[field];
  if (v === undefined && !required) return undefined;
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new IoTDBValidationError(field, `needs an object of names to values, got ${describe(v)}`);
  return v as Record<string, unknown>;
}

/** number → DOUBLE, bigint → INT64, string → `text`, boolean → BOOLEAN, bytes → BLOB, Date → TIMESTAMP. */
function inferType(v: unknown, text: TSDataType): TSDataType | undefined {
  switch (typeof v) {
    case 'number':
      return TSDataType.DOUBLE;
    case 'bigint':
      return TSDataType.INT64;
    case 'string':
      return text;
    case 'boolean':
      return TSDataType.BOOLEAN;
    default:
      if (v instanceof Uint8Array) return TSDataType.BLOB;
      if (v instanceof Date) return TSDataType.TIMESTAMP;
      return undefined;
  }
}

const TREE_ROW_KEYS: KnownKeys = KnownKeys.of<TreeRow>('row')('deviceId', 'timestamp', 'values');
const TABLE_ROW_KEYS: KnownKeys = KnownKeys.of<TableRow>('row')('table', 'timestamp', 'tags', 'attributes', 'fields');

export const treeModel: WriterModel<TreeRow> = {
  append(row, bufferOf, seq, precision) {
    TREE_ROW_KEYS.check(row, '');
    const buffer = bufferOf(row.deviceId);
    buffer.begin(rowTime(row.timestamp, precision));
    buffer.put(objectField(row, 'values', true)!, ColumnCategory.FIELD, 'values', seq);
    buffer.commit(seq);
    return buffer;
  },
  checkKey: (key) => checkDevicePath('deviceId', key),
  serverName: deviceName,
  tabletsPerRequest: 'many',
  rowsAt(taken, index) {
    const t = taken[index];
    return Array.from({ length: t.tablet.rows }, (_, i) => ({
      deviceId: t.tablet.prefixPath,
      timestamp: t.timeAt(i),
      values: t.cellsAt(i, ColumnCategory.FIELD),
    }));
  },
  indexes: (taken) => taken.map((_, i) => i),
  infer: (_name, v) => inferType(v, TSDataType.TEXT),
  registeredTypes: treeTypes,
};

export const tableModel: WriterModel<TableRow> = {
  append(row, bufferOf, seq, precision) {
    TABLE_ROW_KEYS.check(row, '');
    const buffer = bufferOf(row.table);
    buffer.begin(rowTime(row.timestamp, precision));
    buffer.put(objectField(row, 'tags', true)!, ColumnCategory.TAG, 'tags', seq);
    const attributes = objectField(row, 'attributes', false);
    if (attributes !== undefined) buffer.put(attributes, ColumnCategory.ATTRIBUTE, 'attributes', seq);
    buffer.put(objectField(row, 'fields', true)!, ColumnCategory.FIELD, 'fields', seq);
    buffer.commit(seq);
    return buffer;
  },
  checkKey: (key) => checkTableName('table', key),
  serverName: (key) => key.toLowerCase(),
  tabletsPerRequest: 'one',
  rowsAt(taken, index) {
    const t = taken[0];
    return [
      {
        table: t.tablet.prefixPath,
        timestamp: t.timeAt(index),
        tags: t.cellsAt(index, ColumnCategory.TAG) as Record<string, string>,
        attributes: t.cellsAt(index, ColumnCategory.ATTRIBUTE) as Record<string, string>,
        fields: t.cellsAt(index, ColumnCategory.FIELD),
      },
    ];
  },
  indexes: ([{ tablet }]) =>
    tablet.order === null
      ? Array.from({ length: tablet.rows }, (_, i) => i)
      : Array.from(tablet.order.subarray(0, tablet.rows)),
  // tags and attributes are strings (STRING); a field's string is STRING too
  infer: (_name, v, category) =>
    category === ColumnCategory.FIELD
      ? inferType(v, TSDataType.STRING)
      : typeof v === 'string'
        ? TSDataType.STRING
        : undefined,
  registeredTypes: async ([table], query) => tableTypes(table, query), // a request holds one table
};
