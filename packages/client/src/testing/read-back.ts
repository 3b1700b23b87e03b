import type { CellValue, TSDataTypeName } from '@iotdb/fast-serializer';
import type { IoTDBValue } from '../session/cell-value.js';

/** What a written cell reads back as (int64As 'bigint'). */
export function expectedReadBack(type: TSDataTypeName, v: CellValue): IoTDBValue {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'INT64':
      return BigInt(v as number | bigint);
    case 'TIMESTAMP':
      return v instanceof Date ? BigInt(v.getTime()) : BigInt(v as number | bigint);
    case 'FLOAT':
      return Math.fround(v as number);
    case 'DATE': {
      if (v instanceof Date) return new Date(Date.UTC(v.getUTCFullYear(), v.getUTCMonth(), v.getUTCDate()));
      const [y, m, d] = (v as string).split('-').map(Number);
      return new Date(Date.UTC(y, m - 1, d));
    }
    case 'BLOB':
      return Buffer.from(v as Uint8Array);
    default:
      return v as IoTDBValue;
  }
}
