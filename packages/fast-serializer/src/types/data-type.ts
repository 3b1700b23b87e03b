import { IoTDBValidationError } from '../errors.js';
/**
 * IoTDB data types as they travel in requests: the ordinal of tsfile's `TSDataType` enum.
 * The server decodes them with `TSDataType.values()[code]`, so the gaps (6 VECTOR, 7 UNKNOWN) matter.
 */
export const TSDataType = {
  BOOLEAN: 0,
  INT32: 1,
  INT64: 2,
  FLOAT: 3,
  DOUBLE: 4,
  TEXT: 5,
  TIMESTAMP: 8,
  DATE: 9,
  BLOB: 10,
  STRING: 11,
} as const;
export type TSDataType = (typeof TSDataType)[keyof typeof TSDataType];
export type TSDataTypeName = keyof typeof TSDataType;

/** Table-model column roles; requests carry the ordinal (`Tablet.ColumnCategory`). */
export const ColumnCategory = { TAG: 0, FIELD: 1, ATTRIBUTE: 2 } as const;
export type ColumnCategory = (typeof ColumnCategory)[keyof typeof ColumnCategory];
export type ColumnCategoryName = keyof typeof ColumnCategory;

const NAME_BY_CODE: ReadonlyMap<number, TSDataTypeName> = new Map(
  (Object.entries(TSDataType) as [TSDataTypeName, TSDataType][]).map(([name, code]) => [code, name]),
);

export function isTSDataType(code: unknown): code is TSDataType {
  return typeof code === 'number' && NAME_BY_CODE.has(code);
}

export function dataTypeName(code: TSDataType): TSDataTypeName {
  const name = NAME_BY_CODE.get(code);
  if (name === undefined) throw new IoTDBValidationError('dataType', `unknown TSDataType code ${String(code)}`);
  return name;
}

/** Query responses name their column types (`dataTypeList`); undefined for a name we do not know. */
export function dataTypeFromName(name: string): TSDataType | undefined {
  return Object.prototype.hasOwnProperty.call(TSDataType, name) ? TSDataType[name as TSDataTypeName] : undefined;
}

export function isColumnCategory(code: unknown): code is ColumnCategory {
  return code === 0 || code === 1 || code === 2;
}
