import {
  IoTDBValidationError,
  dataTypeName,
  describeValue as describe,
  type DataTypeInput,
  type TSDataTypeName,
} from '@iotdb/fast-serializer';
import { KnownKeys, checkTimestamp, dataTypeCode, keyInAnyCase } from '@iotdb/fast-serializer';
import { checkPath, checkPathList, escapeString } from './escape.js';

/** TSEncoding, with IoTDB's codes (tsfile 2.0.1). */
export const TSEncoding = {
  PLAIN: 0,
  DICTIONARY: 1,
  RLE: 2,
  DIFF: 3,
  TS_2DIFF: 4,
  BITMAP: 5,
  GORILLA_V1: 6,
  REGULAR: 7,
  GORILLA: 8,
  ZIGZAG: 9,
  FREQ: 10,
  CHIMP: 11,
  SPRINTZ: 12,
  RLBE: 13,
} as const;
export type TSEncodingName = keyof typeof TSEncoding;

/** CompressionType, with IoTDB's codes (tsfile 2.0.1). */
export const CompressionType = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2, LZ4: 7, ZSTD: 8, LZMA2: 9 } as const;
export type CompressionTypeName = keyof typeof CompressionType;

/** The times deleteData deletes between, both ends inclusive, in the server's unit. */
export interface DeleteRange {
  startTime?: number | bigint;
  endTime: number | bigint;
}

/** A time series to create (createTimeseries / createMultiTimeseries). */
export interface TimeseriesSpec {
  /** full path: `root.sg.d1.s1` */
  path: string;
  dataType: DataTypeInput;
  /** @default the server's default for the type */
  encoding?: TSEncodingName | number;
  /** @default the server's default */
  compressor?: CompressionTypeName | number;
  /** extra properties (`'MAX_POINT_NUMBER': '3'`) */
  props?: Readonly<Record<string, string>>;
  tags?: Readonly<Record<string, string>>;
  attributes?: Readonly<Record<string, string>>;
  alias?: string;
}

/** An aligned device's series to create. */
export interface AlignedTimeseriesSpec {
  deviceId: string;
  measurements: readonly string[];
  dataTypes: readonly DataTypeInput[];
  encodings?: readonly (TSEncodingName | number)[];
  compressors?: readonly (CompressionTypeName | number)[];
  aliases?: readonly (string | null | undefined)[];
}

/** A schema template (tree model). */
export interface SchemaTemplateSpec {
  name: string;
  measurements: readonly string[];
  dataTypes: readonly DataTypeInput[];
  encodings?: readonly (TSEncodingName | number)[];
  compressors?: readonly (CompressionTypeName | number)[];
  /** an aligned template. @default false */
  aligned?: boolean;
}

// The keys of each spec: a misspelt optional one would be dropped unsaid (a series made LZ4 for `compression`, a
// deleteData of everything up to endTime for `start`).
const TIMESERIES_KEYS: KnownKeys = KnownKeys.of<TimeseriesSpec>('spec')(
  'path',
  'dataType',
  'encoding',
  'compressor',
  'props',
  'tags',
  'attributes',
  'alias',
);
const ALIGNED_KEYS: KnownKeys = KnownKeys.of<AlignedTimeseriesSpec>('spec')(
  'deviceId',
  'measurements',
  'dataTypes',
  'encodings',
  'compressors',
  'aliases',
);
const TEMPLATE_KEYS: KnownKeys = KnownKeys.of<SchemaTemplateSpec>('template')(
  'name',
  'measurements',
  'dataTypes',
  'encodings',
  'compressors',
  'aligned',
);
const RANGE_KEYS: KnownKeys = KnownKeys.of<DeleteRange>('range')('startTime', 'endTime');

/** One node (a measurement or template name): a plain word or a backquoted identifier. */
const NODE = /^(`(?:[^`]|``)+`|[^\s.`'"();,=]+)$/;

function checkNode(name: unknown, field: string): string {
  if (typeof name !== 'string' || !NODE.test(name))
    throw new IoTDBValidationError(
      field,
      `needs a name (quote special ones with backquotes), got ${JSON.stringify(name)}`,
    );
  return name;
}

function paths(pathOrPaths: string | readonly string[], field: string, wildcard: boolean): string[] {
  return typeof pathOrPaths === 'string'
    ? [checkPath(pathOrPaths, field, wildcard)]
    : checkPathList(pathOrPaths, field, wildcard);
}

function typeName(t: DataTypeInput, field: string): TSDataTypeName {
  return dataTypeName(dataTypeCode(t, field));
}

function enumName<T extends Record<string, number>>(
  table: T,
  v: keyof T | number | undefined,
  field: string,
): string | undefined {
  if (v === undefined) return undefined;
  const name =
    typeof v === 'number'
      ? Object.keys(table).find((k) => table[k] === v)
      : typeof v === 'string'
        ? (keyInAnyCase(table, v) as string | undefined)
        : undefined;
  if (name === undefined)
    throw new IoTDBValidationError(field, `unknown: ${String(v)} (one of ${Object.keys(table).join(', ')})`);
  return name;
}

function keyValues(kv: Readonly<Record<string, string>> | undefined, field: string): string {
  if (kv === undefined) return '';
  if (kv === null || typeof kv !== 'object') throw new IoTDBValidationError(field, 'needs an object of strings');
  return Object.entries(kv)
    .map(([k, v]) => {
      if (typeof v !== 'string') throw new IoTDBValidationError(`${field}.${k}`, 'needs a string');
      return `${escapeString(k)}=${escapeString(v)}`;
    })
    .join(', ');
}

/** `DATATYPE=..., ENCODING=..., COMPRESSOR=...` clauses of one series. */
function typeClauses(
  dataType: DataTypeInput,
  encoding: TSEncodingName | number | undefined,
  compressor: CompressionTypeName | number | undefined,
  field: string,
): string[] {
  const out = [`DATATYPE=${typeName(dataType, `${field}.dataType`)}`];
  const e = enumName(TSEncoding, encoding, `${field}.encoding`);
  const c = enumName(CompressionType, compressor, `${field}.compressor`);
  if (e) out.push(`ENCODING=${e}`);
  if (c) out.push(`COMPRESSOR=${c}`);
  return out;
}

/** A deleteData range is an object; a Date is an object too, but one time (Java's deleteData(paths, endTime)). */
export function isRange(range: unknown): range is object {
  return range !== null && typeof range === 'object' && !(range instanceof Date);
}

export const schemaSql = {
  createDatabase: (name: string) => `CREATE DATABASE ${checkPath(name, 'name')}`,
  deleteDatabase: (name: string) => `DELETE DATABASE ${checkPath(name, 'name', true)}`,
  /** IoTDB deletes those of the list that exist, and fails only when none does. */
  deleteDatabases: (names: readonly string[]) =>
    `DELETE DATABASE ${checkPathList(names, 'names', true, 'database').join(', ')}`,

  createTimeseries(s: TimeseriesSpec, field = 'spec'): string {
    TIMESERIES_KEYS.check(s, field);
    const alias = s.alias === undefined ? '' : `(${checkNode(s.alias, `${field}.alias`)})`;
    const props = keyValues(s.props, `${field}.props`);
    const clauses = [...typeClauses(s.dataType, s.encoding, s.compressor, field), ...(props ? [props] : [])];
    const tags = keyValues(s.tags, `${field}.tags`);
    const attributes = keyValues(s.attributes, `${field}.attributes`);
    return (
      `CREATE TIMESERIES ${checkPath(s.path, `${field}.path`)}${alias} WITH ${clauses.join(', ')}` +
      (tags ? ` TAGS(${tags})` : '') +
      (attributes ? ` ATTRIBUTES(${attributes})` : '')
    );
  },

  createAlignedTimeseries(s: AlignedTimeseriesSpec): string {
    ALIGNED_KEYS.check(s, '');
    return `CREATE ALIGNED TIMESERIES ${checkPath(s.deviceId, 'deviceId')}(${measurementList(s, 'aliases').join(', ')})`;
  },

  deleteTimeseries: (pathOrPaths: string | readonly string[]) =>
    `DELETE TIMESERIES ${paths(pathOrPaths, 'paths', true).join(', ')}`,

  showTimeseries: (path: string) => `SHOW TIMESERIES ${checkPath(path, 'path', true)}`,

  /** Both ends inclusive, as Java's deleteData; no startTime: everything up to endTime. */
  deleteData(pathOrPaths: string | readonly string[], range: DeleteRange): string {
    if (!isRange(range)) {
      throw new IoTDBValidationError(
        'range',
        `needs { startTime?, endTime } (Java's deleteData(paths, startTime, endTime) is deleteData(paths, { startTime, endTime })), got ${describe(range)}`,
      );
    }
    RANGE_KEYS.check(range, 'range');
    const end = timeLiteral(range.endTime, 'endTime');
    let where = `time <= ${end}`;
    if (range.startTime !== undefined) {
      const start = timeLiteral(range.startTime, 'startTime');
      // IoTDB refuses it as an internal error ([305] "min:10 should not be larger than max: 1")
      if (BigInt(start) > BigInt(end)) {
        throw new IoTDBValidationError('range', `startTime ${start} is after endTime ${end}: both ends are inclusive`);
      }
      where = `time >= ${start} AND ${where}`;
    }
    return `DELETE FROM ${paths(pathOrPaths, 'paths', true).join(', ')} WHERE ${where}`;
  },

  createSchemaTemplate(t: SchemaTemplateSpec): string {
    TEMPLATE_KEYS.check(t, '');
    const name = checkNode(t.name, 'name');
    return `CREATE SCHEMA TEMPLATE ${name}${t.aligned ? ' ALIGNED' : ''} (${measurementList(t, null).join(', ')})`;
  },
  setSchemaTemplate: (name: string, prefixPath: string) =>
    `SET SCHEMA TEMPLATE ${checkNode(name, 'name')} TO ${checkPath(prefixPath, 'prefixPath')}`,
  /** One statement per device: IoTDB's takes one path. */
  createTimeseriesUsingSchemaTemplate: (devicePaths: readonly string[]) =>
    paths(devicePaths, 'devicePaths', false).map((p) => `CREATE TIMESERIES USING SCHEMA TEMPLATE ON ${p}`),
  unsetSchemaTemplate: (prefixPath: string, name: string) =>
    `UNSET SCHEMA TEMPLATE ${checkNode(name, 'name')} FROM ${checkPath(prefixPath, 'prefixPath')}`,
  dropSchemaTemplate: (name: string) => `DROP SCHEMA TEMPLATE ${checkNode(name, 'name')}`,
  showSchemaTemplates: () => 'SHOW SCHEMA TEMPLATES',
  showTemplateNodes: (name: string) => `SHOW NODES IN SCHEMA TEMPLATE ${checkNode(name, 'name')}`,
  showPathsSetTemplate: (name: string) => `SHOW PATHS SET SCHEMA TEMPLATE ${checkNode(name, 'name')}`,
  showPathsUsingTemplate: (name: string) => `SHOW PATHS USING SCHEMA TEMPLATE ${checkNode(name, 'name')}`,
};

/** `s1 FLOAT ENCODING=GORILLA COMPRESSOR=SNAPPY, s2(alias) INT32` for aligned series and templates. */
function measurementList(s: AlignedTimeseriesSpec | SchemaTemplateSpec, aliasesField: 'aliases' | null): string[] {
  const n = Array.isArray(s?.measurements) ? s.measurements.length : 0;
  if (n === 0) throw new IoTDBValidationError('measurements', 'needs at least one name');
  if (!Array.isArray(s.dataTypes) || s.dataTypes.length !== n)
    throw new IoTDBValidationError('dataTypes', `needs one type per measurement (${n})`);
  for (const k of ['encodings', 'compressors', ...(aliasesField ? [aliasesField] : [])] as const) {
    const v = (s as unknown as Record<string, unknown>)[k];
    if (v !== undefined && (!Array.isArray(v) || v.length !== n))
      throw new IoTDBValidationError(k, `needs one entry per measurement (${n})`);
  }
  const aliases = aliasesField ? (s as AlignedTimeseriesSpec).aliases : undefined;
  return s.measurements.map((m, i) => {
    const alias = aliases?.[i] == null ? '' : `(${checkNode(aliases[i], `aliases[${i}]`)})`;
    const [dt, ...rest] = typeClauses(s.dataTypes[i], s.encodings?.[i], s.compressors?.[i], `measurements[${i}]`);
    return `${checkNode(m, `measurements[${i}]`)}${alias} ${dt.slice('DATATYPE='.length)}${rest.map((c) => ` ${c}`).join('')}`;
  });
}

/** A time as a literal of the statement: an int64 (the server's precision), checked as every other time argument. */
function timeLiteral(t: unknown, field: string): string {
  checkTimestamp(field, t);
  return String(t);
}
