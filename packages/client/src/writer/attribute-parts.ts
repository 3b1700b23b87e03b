import { ColumnCategory, type CellValue, type PreparedTablet } from '@iotdb/fast-serializer';

/**
 * A table's flushed tablet as the inserts that keep each device's attributes as the application last wrote them.
 *
 * IoTDB (2.0.1-beta) takes a device's attributes from its last row (by time) in a tablet, and a null there is not
 * always "no change": once a device's attributes were updated after it was made, a null clears the attribute (measured:
 * `p` set to a, then b, by two inserts, a third insert's row with `p` null left it null, where after the first insert
 * alone it stayed a; a row setting another attribute clears one it sends as null at once). Leaving the column out
 * changes nothing. So each device's rows carry the last value written for it in the flush (the application may give an
 * attribute on any one row), and the devices that wrote different attributes go in inserts of their own, each with only
 * the attribute columns its devices wrote: a device whose rows wrote none is sent without attribute columns, as if each
 * row had been a request of its own. `devices`: each row's device (rows 0..rows-1 of the whole tablet).
 */
export function attributeParts(tablet: PreparedTablet, devices: readonly string[]): PreparedTablet[] {
  const categories = tablet.columnCategories;
  if (categories === null) return [tablet];
  const attributes = categories.flatMap((c, k) => (c === ColumnCategory.ATTRIBUTE ? [k] : []));
  if (attributes.length === 0) return [tablet];
  for (const k of attributes) spread(tablet.columns[k] as CellValue[], devices);
  const groups = [...rowsByAttributesWritten(tablet, attributes, devices).values()];
  if (groups.length === 1 && groups[0].written.length === attributes.length) return [tablet];
  return groups.map((g) => part(tablet, g, attributes));
}

/** Every row of a device gets the last value written for it in the flush (rows in the order written). */
function spread(cells: CellValue[], devices: readonly string[]): void {
  const last = new Map<string, CellValue>();
  for (let r = 0; r < devices.length; r++) if (cells[r] != null) last.set(devices[r], cells[r]);
  for (let r = 0; r < devices.length; r++) cells[r] = last.get(devices[r]) ?? null;
}

/** Rows (source rows, in time order) whose devices wrote the same attribute columns. */
interface Group {
  readonly written: readonly number[];
  readonly rows: number[];
}

/**
 * The rows in time order, grouped by the attribute columns their device wrote (in order of their first row): every
 * row of a device holds the same attributes once spread, so a device's group is found once.
 */
function rowsByAttributesWritten(
  tablet: PreparedTablet,
  attributes: readonly number[],
  devices: readonly string[],
): Map<string, Group> {
  const groups = new Map<string, Group>();
  const groupOf = new Map<string, Group>();
  for (let i = 0; i < tablet.rows; i++) {
    const r = tablet.order === null ? i : tablet.order[i];
    let g = groupOf.get(devices[r]);
    if (g === undefined) {
      const written = attributes.filter((k) => (tablet.columns[k] as CellValue[])[r] != null);
      const key = written.join(',');
      g = groups.get(key) ?? groups.set(key, { written, rows: [] }).get(key)!;
      groupOf.set(devices[r], g);
    }
    g.rows.push(r);
  }
  return groups;
}

/** The rows of `g` with the columns that are not attributes and the attributes its devices wrote. */
function part(tablet: PreparedTablet, g: Group, attributes: readonly number[]): PreparedTablet {
  const keep = tablet.measurements.flatMap((_, k) => (!attributes.includes(k) || g.written.includes(k) ? [k] : []));
  const pick = <T>(a: readonly T[]): T[] => keep.map((k) => a[k]);
  return {
    ...tablet,
    measurements: pick(tablet.measurements),
    types: pick(tablet.types),
    columns: pick(tablet.columns),
    columnCategories: pick(tablet.columnCategories!),
    nullMasks: tablet.nullMasks && pick(tablet.nullMasks),
    rows: g.rows.length,
    order: Uint32Array.from(g.rows),
  };
}
