import { TSDataType, dataTypeFromName } from '../types/data-type.js';
import type { CellValue, TableTablet, Tablet } from '../tablet/tablet-input.js';

/**
 * Reads the reference vector files produced by IoTDB's Java libraries (fixtures/vectors/README.md):
 * `insert-tablet` files (tablets and the request bytes Java writes) and `tsblock` files (serialized
 * query blocks and their values). The kind is told from the content, not the file name.
 */
export type VectorFile =
  { kind: 'insert-tablet'; sessionId: bigint; cases: InsertTabletCase[] } | { kind: 'tsblock'; cases: TsBlockCase[] };

export interface InsertTabletCase {
  name: string;
  tablet: { model: 'tree'; input: Tablet } | { model: 'table'; input: TableTablet };
  expected: { timestampsHex: string; valuesHex: string; requestStructHex: string };
}

export interface TsBlockCase {
  name: string;
  types: TSDataType[];
  times: bigint[];
  /** column-major expected values in the decoder's JS types (INT64 as bigint, DATE as yyyymmdd, BLOB as Buffer) */
  columns: CellValue[][];
  tsBlockHex: string;
}

type Json = Record<string, unknown>;

export function parseVectorFile(text: string): VectorFile {
  const doc = JSON.parse(text) as Json;
  const cases = doc.cases;
  if (!Array.isArray(cases)) throw new Error('not a vector file: no "cases" array');
  const first = (cases[0] ?? {}) as Json;
  if (typeof first.tsBlockHex === 'string') {
    return { kind: 'tsblock', cases: cases.map((c: Json) => tsBlockCase(c)) };
  }
  if (first.expected !== undefined && typeof (first.expected as Json).requestStructHex === 'string') {
    return {
      kind: 'insert-tablet',
      sessionId: BigInt(scalar(doc.sessionId ?? '0')),
      cases: cases.map((c: Json) => insertCase(c)),
    };
  }
  throw new Error('not a vector file of a known kind (insert-tablet or tsblock)');
}

/** A JSON string or number as text (an object or array here is a broken vector file). */
function scalar(v: unknown): string {
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  throw new Error(`expected a string or a number, got ${JSON.stringify(v)}`);
}

function typeOf(name: unknown): TSDataType {
  const t = dataTypeFromName(String(name));
  if (t === undefined) throw new Error(`unknown type name ${String(name)}`);
  return t;
}

function cell(type: TSDataType, v: unknown, dateAsInt: boolean): CellValue {
  if (v === null) return null;
  switch (type) {
    case TSDataType.INT64:
    case TSDataType.TIMESTAMP:
      return BigInt(scalar(v));
    case TSDataType.FLOAT:
    case TSDataType.DOUBLE:
      return typeof v === 'string' ? (v === '-0' ? -0 : Number(v)) : (v as number);
    case TSDataType.BLOB:
      return Buffer.from(scalar(v), 'hex');
    case TSDataType.DATE:
      return dateAsInt ? Number(scalar(v).replaceAll('-', '')) : scalar(v);
    default:
      return v as CellValue;
  }
}

function insertCase(c: Json): InsertTabletCase {
  const types = (c.types as unknown[]).map(typeOf);
  const columns = (c.columns as unknown[][]).map((col, i) => col.map((v) => cell(types[i], v, false)));
  const timestamps = (c.timestamps as string[]).map((t) => BigInt(t));
  const measurements = c.measurements as string[];
  const expected = c.expected as InsertTabletCase['expected'];
  const name = String(c.name);
  if (c.model === 'table') {
    const input: TableTablet = {
      tableName: String(c.device),
      columnNames: measurements,
      dataTypes: types,
      columnCategories: c.columnCategories as TableTablet['columnCategories'],
      timestamps,
      columns,
    };
    return { name, tablet: { model: 'table', input }, expected };
  }
  const input: Tablet = {
    deviceId: String(c.device),
    measurements,
    dataTypes: types,
    timestamps,
    columns,
    isAligned: c.aligned === true,
  };
  return { name, tablet: { model: 'tree', input }, expected };
}

function tsBlockCase(c: Json): TsBlockCase {
  const types = (c.types as unknown[]).map(typeOf);
  return {
    name: String(c.name),
    types,
    times: (c.times as string[]).map((t) => BigInt(t)),
    columns: (c.columns as unknown[][]).map((col, i) => col.map((v) => cell(types[i], v, true))),
    tsBlockHex: String(c.tsBlockHex),
  };
}
