import {
  StridedColumn,
  TSDataType,
  dataTypeFromName,
  dateIntOf,
  timeToDate,
  type PreparedColumn,
  type PreparedTablet,
  pathNodes,
} from '@iotdb/fast-serializer';
import { IoTDBBatchError, IoTDBServerError } from '../errors.js';
import { StatusCode } from '../protocol/status.js';
import { escapeTableIdentifier } from '../sql/escape.js';
import { isDate } from './column.js';

/**
 * The types a writer learns from the server. A writer infers a column's type from its first value (a number DOUBLE, a
 * bigint INT64, a string TEXT or STRING, bytes BLOB, a Date TIMESTAMP) unless `types` says otherwise, and IoTDB
 * refuses those for a series (a table column) it has as another type ([507] "registered type FLOAT, inserting type
 * DOUBLE", "Incompatible data type of column f: DOUBLE/FLOAT"), storing the tablet's other columns. Then the writer
 * looks the types of the request's devices (its table) up and sends it again with those columns as the server has
 * them, when every value is one of that type; later tablets of those devices go so at once.
 */

/** The types an inferred column may be sent as instead, by the type it was inferred as. */
const LEARNABLE: ReadonlyMap<TSDataType, readonly TSDataType[]> = new Map([
  [TSDataType.DOUBLE, [TSDataType.FLOAT, TSDataType.INT32, TSDataType.INT64, TSDataType.TIMESTAMP]],
  [TSDataType.INT64, [TSDataType.INT32]],
  [TSDataType.TEXT, [TSDataType.DATE]],
  [TSDataType.STRING, [TSDataType.DATE]],
  [TSDataType.BLOB, [TSDataType.TEXT, TSDataType.STRING]], // bytes, which TEXT and STRING take as they are
  [TSDataType.TIMESTAMP, [TSDataType.DATE]], // Dates (times once put), sent as their UTC day
]);

/** A refusal a type lookup may mend: the server's metadata error (a type mismatch), for a request or an item of it. */
export function isTypeRefusal(e: Error): boolean {
  if (e instanceof IoTDBServerError)
    return e.statusCode === StatusCode.METADATA_ERROR || e.statusCode === StatusCode.DATA_TYPE_MISMATCH;
  return e instanceof IoTDBBatchError && e.failures.some((f) => isTypeRefusal(f.error));
}

/**
 * Whether a lookup of the server's types might change `tablet`: it has a column the writer inferred, of a type it may be
 * sent as another for, whose type on the server is not known yet (`learned`: its device's types from an earlier
 * lookup). One whose type is known and still refused holds a value that type does not take: a lookup would not help.
 */
export function mayLearn(
  tablet: PreparedTablet,
  learned: ReadonlyMap<string, TSDataType> | undefined,
  inferred: (name: string) => boolean,
  table: boolean,
): boolean {
  return tablet.measurements.some(
    (name, k) => LEARNABLE.has(tablet.types[k]) && inferred(name) && learned?.get(columnKey(name, table)) === undefined,
  );
}

/**
 * `tablet` with each column the writer inferred (`inferred(name)`) as the server has it (`registered`, by name: a
 * tree's without backquotes, a table's lower-cased), where that type may take the column's values (LEARNABLE) and
 * every value is one; undefined when no column changes.
 */
export function retypedTablet(
  tablet: PreparedTablet,
  registered: ReadonlyMap<string, TSDataType>,
  inferred: (name: string) => boolean,
  table: boolean,
): PreparedTablet | undefined {
  let types: TSDataType[] | undefined;
  let columns: PreparedColumn[] | undefined;
  tablet.measurements.forEach((name, k) => {
    const from = tablet.types[k];
    if (!LEARNABLE.has(from) || !inferred(name)) return;
    const to = registered.get(columnKey(name, table));
    if (to === undefined || !LEARNABLE.get(from)!.includes(to)) return;
    const column =
      from === TSDataType.TIMESTAMP ? daysOf(tablet, k) : holdsAll(to, tablet, k) ? tablet.columns[k] : null;
    if (column === null) return;
    (types ??= [...tablet.types])[k] = to;
    if (column !== tablet.columns[k]) (columns ??= [...tablet.columns])[k] = column;
  });
  return types === undefined ? undefined : { ...tablet, types, columns: columns ?? tablet.columns };
}

/**
 * Whether every value of column k is one of type `to`: FLOAT any number (rounded as the series rounds); INT32 an
 * integer in its range; INT64 or TIMESTAMP a safe integer (a time in the server's precision); DATE a `YYYY-MM-DD`
 * string of a real day; TEXT or STRING any bytes (a BLOB column's). A number or a safe bigint is staged as a number
 * (StridedColumn), a wider bigint is in a BigInt64Array (INT32 takes none of those), a string in an array of cells.
 */
function holdsAll(to: TSDataType, tablet: PreparedTablet, k: number): boolean {
  if (to === TSDataType.FLOAT || to === TSDataType.TEXT || to === TSDataType.STRING) return true;
  const fits = FITS.get(to);
  const values = tablet.columns[k];
  if (fits === undefined || values instanceof BigInt64Array) return false;
  let all = true;
  forEachValue(tablet, k, (v) => (all = fits(v)));
  return all;
}

/**
 * A TIMESTAMP column the writer inferred (from Dates, each put as a time in the server's unit) as a DATE column: each
 * time's UTC day as yyyymmdd (as a Date written to DATE anywhere in the client), null rows kept by the tablet's
 * mask; null when a day falls outside DATE's years (1000-9999).
 */
function daysOf(tablet: PreparedTablet, k: number): Int32Array | null {
  const days = new Int32Array(tablet.rows);
  let all = true;
  forEachValue(tablet, k, (v, row) => {
    days[row] = dateIntOf(timeToDate(v as number | bigint, tablet.precision));
    return (all = days[row] >= 0);
  });
  return all ? days : null;
}

/** Calls `f` with each non-null value of column k and its row, until it returns false. */
function forEachValue(tablet: PreparedTablet, k: number, f: (v: unknown, row: number) => boolean): void {
  const nulls = tablet.nullMasks?.[k] ?? null;
  const cells = tablet.columns[k] as StridedColumn | ArrayLike<unknown>;
  for (let row = 0; row < tablet.rows; row++) {
    if (nulls !== null && nulls[row] === 1) continue;
    const v = cells instanceof StridedColumn ? cells.at(row) : cells[row];
    if (v !== null && !f(v, row)) return;
  }
}

const FITS: ReadonlyMap<TSDataType, (v: unknown) => boolean> = new Map([
  [TSDataType.INT32, (v: unknown) => typeof v === 'number' && (v | 0) === v], // as Column.put checks INT32
  [TSDataType.INT64, (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v)],
  [TSDataType.TIMESTAMP, (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v)],
  [TSDataType.DATE, isDate], // a TEXT column's cells are strings or bytes
]);

/** A schema statement's answer: its columns, their type names, and its rows (each its columns by name). */
export interface SchemaAnswer {
  readonly columns: readonly string[];
  readonly types: readonly string[];
  readonly rows: readonly Record<string, unknown>[];
}

/** Runs a schema statement (the writer's sink: on its session, or a pooled one). */
export type SchemaQuery = (sql: string) => Promise<SchemaAnswer>;

/**
 * Column types by buffer key (a device, a table), then by column name (a tree's without backquotes, a table's
 * lower-cased).
 */
export type RegisteredTypes = Map<string, Map<string, TSDataType>>;

/** Devices a lookup statement names at most. */
const DEVICES_A_LOOKUP = 100;

/**
 * The series types of `devices`: the columns of `SELECT *` from up to 100 of them at a time, before any time (no row
 * read): one statement for the devices of a refused request (SHOW TIMESERIES takes one path pattern). A series is
 * matched to its device node by node without backquotes: the server spells `` root.sg.`d1` `` root.sg.d1.
 */
export async function treeTypes(devices: readonly string[], query: SchemaQuery): Promise<RegisteredTypes> {
  const found: RegisteredTypes = new Map();
  for (let i = 0; i < devices.length; i += DEVICES_A_LOOKUP) {
    const chunk = devices.slice(i, i + DEVICES_A_LOOKUP);
    const byPath = new Map<string, string[]>(); // two spellings of one device are two buffers
    for (const device of chunk) {
      const key = pathKey(pathNodes(device));
      const spellings = byPath.get(key);
      if (spellings === undefined) byPath.set(key, [device]);
      else spellings.push(device);
    }
    const { columns, types } = await query(`SELECT * FROM ${chunk.join(', ')} WHERE time < -9223372036854775807`);
    columns.forEach((column, c) => {
      const nodes = pathNodes(column);
      const type = dataTypeFromName(types[c]);
      if (type === undefined) return;
      for (const device of byPath.get(pathKey(nodes.slice(0, -1))) ?? []) {
        if (!found.has(device)) found.set(device, new Map());
        found.get(device)!.set(nodes[nodes.length - 1], type);
      }
    });
  }
  return found;
}

/** A path's nodes as one key: equal for two spellings of one path. */
function pathKey(nodes: readonly string[]): string {
  return JSON.stringify(nodes);
}

/** A table's column types (`DESC`, the table in double quotes), by lower-cased name: IoTDB folds them. */
export async function tableTypes(table: string, query: SchemaQuery): Promise<RegisteredTypes> {
  const { rows } = await query(`DESC ${escapeTableIdentifier(table)}`);
  const types = new Map<string, TSDataType>();
  for (const row of rows) {
    const type = dataTypeFromName(String(row.DataType));
    if (type !== undefined) types.set(String(row.ColumnName).toLowerCase(), type);
  }
  return new Map([[table, types]]);
}

/** A column's name as a lookup's types are keyed: a table's lower-cased, a measurement's without its backquotes. */
function columnKey(name: string, table: boolean): string {
  if (table) return name.toLowerCase();
  if (!name.includes('`')) return name; // the usual name: nothing to take off (this runs at every take of its device)
  const nodes = pathNodes(name); // `x-y` is x-y
  return nodes.length === 1 ? nodes[0] : name;
}
