import { ColumnCategory, deviceName, type CellValue, type PreparedTablet } from '@iotdb/fast-serializer';
import { attributeParts } from './attribute-parts.js';

/** A flushed tablet (a table's: one of its attributeParts) and the devices it holds rows of (the writer orders by them). */
export interface TabletPart {
  readonly tablet: PreparedTablet;
  readonly devices: readonly string[];
}

/**
 * A flushed tablet as the parts the writer sends, each with its devices: a tree tablet is one device, named as the
 * server names it (deviceName: `` root.sg.`d1` `` is root.sg.d1);
 * a table tablet's devices are the table with each row's TAG values (tagColumns), made once a row and shared by its
 * parts.
 */
export function tabletParts(tablet: PreparedTablet, table: boolean): TabletPart[] {
  if (!table) return [{ tablet, devices: [deviceName(tablet.prefixPath)] }];
  const tableKey = tablet.prefixPath.toLowerCase(); // as IoTDB names it: `Sensors` and `sensors` are one table
  const tags = tagColumns(tablet);
  const rowDevices = Array.from({ length: tablet.rows }, (_, r) => {
    let key = tableKey;
    for (const { name, cells } of tags) {
      const v = cells[r];
      if (v != null) key += `\u0000${name}\u0001${String(v)}`;
    }
    return key;
  });
  return attributeParts(tablet, rowDevices).map((part) => ({ tablet: part, devices: devicesOf(part, rowDevices) }));
}

/**
 * A table tablet's TAG columns by name, in lower case as IoTDB folds them: a device's key is the same whatever order
 * its tags came in (another buffer's columns) and whether a null tag was given or left out (a missing tag is null to
 * the server; an empty one is another device, as the server keeps it).
 */
function tagColumns(tablet: PreparedTablet): { name: string; cells: readonly CellValue[] }[] {
  const tags = (tablet.columnCategories ?? []).flatMap((c, k) =>
    c === ColumnCategory.TAG
      ? [{ name: tablet.measurements[k].toLowerCase(), cells: tablet.columns[k] as CellValue[] }]
      : [],
  );
  return tags.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The devices of a part's rows (its source rows in time order). */
function devicesOf(part: PreparedTablet, rowDevices: readonly string[]): string[] {
  const devices = new Set<string>();
  for (let i = 0; i < part.rows; i++) devices.add(rowDevices[part.order === null ? i : part.order[i]]);
  return [...devices];
}
