import { ColumnCategory, type CellValue, type PreparedTablet } from '@iotdb/fast-serializer';
import { pathNodes } from '../sql/device-path.js';
import { attributeParts } from './attribute-parts.js';

/** A flushed tablet (a table's: one of its attributeParts) and the devices it holds rows of (the writer orders by them). */
export interface TabletPart {
  readonly tablet: PreparedTablet;
  readonly devices: readonly string[];
}

/**
 * A flushed tablet as the parts the writer sends, each with its devices: a tree tablet is one device, named as the
 * server names it (`` root.sg.`d1` `` is root.sg.d1; a node holding a dot joins another's key, which only orders more);
 * a table tablet's devices are the table with each row's TAG values, made once a row and shared by its parts.
 */
export function tabletParts(tablet: PreparedTablet, table: boolean): TabletPart[] {
  if (!table) {
    const device = tablet.prefixPath.includes('`') ? pathNodes(tablet.prefixPath).join('.') : tablet.prefixPath;
    return [{ tablet, devices: [device] }];
  }
  const tags = (tablet.columnCategories ?? []).flatMap((c, k) =>
    c === ColumnCategory.TAG ? [tablet.columns[k] as CellValue[]] : [],
  );
  const rowDevices = Array.from({ length: tablet.rows }, (_, r) =>
    tags.reduce<string>((key, t) => `${key}\u0000${String(t[r] ?? '')}`, tablet.prefixPath),
  );
  return attributeParts(tablet, rowDevices).map((part) => ({ tablet: part, devices: devicesOf(part, rowDevices) }));
}

/** The devices of a part's rows (its source rows in time order). */
function devicesOf(part: PreparedTablet, rowDevices: readonly string[]): string[] {
  const devices = new Set<string>();
  for (let i = 0; i < part.rows; i++) devices.add(rowDevices[part.order === null ? i : part.order[i]]);
  return [...devices];
}
