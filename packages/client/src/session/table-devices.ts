import {
  ColumnCategory,
  columnCells,
  type CellValue,
  type PreparedTablet,
  type TableTablet,
} from '@iotdb/fast-serializer';
import { tableSelectOf } from '../sql/table-select.js';

/**
 * Table sessions' device keys: a device is its database, its table and its TAG values, the key its writes' redirects
 * are learnt under and its one-device queries are routed by. The TAGs are taken in the order of their names, so that
 * tablets naming them in any order, and a WHERE, key a device alike (the server takes them in the table's order: the
 * same device whatever the tablet's). Knows the TAGs of the tables written, to tell a query of one device.
 */
export class TableDevices {
  /** `database.table` -> the names of the TAG columns of its last tablet, in the order of the names */
  readonly #tags = new Map<string, readonly string[]>();

  /**
   * The key of each row of `p`, written in `database` (the TAGs of its table noted); computed once a row, and shared
   * by a row whose TAG values are the previous row's (a device's rows mostly follow one another).
   */
  rowKeys(p: PreparedTablet, database: string | undefined): (row: number) => string {
    const table = tableOf(database, p.prefixPath.toLowerCase());
    const tags = p
      .columnCategories!.flatMap((c, i) =>
        c === ColumnCategory.TAG ? [{ name: p.measurements[i].toLowerCase(), cells: columnCells(p.columns[i]) }] : [],
      )
      .sort(byName);
    this.#tags.set(
      table,
      tags.map((t) => t.name),
    );
    const keys = new Array<string | undefined>(p.rows);
    const values = new Array<string>(tags.length); // the TAG values of the row keyed last
    let last = -1;
    const keyOf = (row: number): string => {
      let same = last >= 0;
      for (let k = 0; k < tags.length; k++) {
        const value = String(tags[k].cells[row] ?? '');
        same &&= value === values[k];
        values[k] = value;
      }
      const key = same ? keys[last]! : deviceKey(table, values);
      last = row;
      return key;
    };
    return (row) => (keys[row] ??= keyOf(row));
  }

  /** The key of `table`'s device in `database` whose TAG values are `tags` (each TAG's name -> its value, null for a null one). */
  keyOf(database: string | undefined, table: string, tags: Readonly<Record<string, string | null>>): string {
    const byTag = Object.entries(tags).map(([name, value]) => ({ name: name.toLowerCase(), value: value ?? '' }));
    return keyOfTags(tableOf(database, table.toLowerCase()), byTag);
  }

  /** The key of the device a table-model SELECT reads, when it reads one of a table written (in `database`, the session's). */
  ofSelect(sql: string, database: string | undefined): string | undefined {
    const q = tableSelectOf(sql);
    if (q === undefined || (q.database !== undefined && q.database !== database?.toLowerCase())) return undefined;
    const table = tableOf(database, q.table);
    const tags = this.#tags.get(table);
    if (tags === undefined) return undefined;
    const values: string[] = [];
    for (const tag of tags) {
      const value = q.equal.get(tag);
      if (value === undefined) return undefined; // not one device
      values.push(value);
    }
    return deviceKey(table, values);
  }
}

/**
 * The device of a table tablet's first row as a table's devices are keyed but for the database (a pool binds a
 * table's writes to its sessions by it); undefined when the tablet cannot be read so (its write names why).
 */
export function firstDeviceOf(t: TableTablet): string | undefined {
  try {
    const tags: { name: string; value: string }[] = [];
    t.columnCategories.forEach((c, i) => {
      if (c !== ColumnCategory.TAG && c !== 'TAG') return;
      const cell: CellValue = t.values !== undefined ? t.values[0]?.[i] : t.columns?.[i]?.[0];
      tags.push({ name: String(t.columnNames[i]).toLowerCase(), value: String(cell ?? '') });
    });
    return keyOfTags(String(t.tableName).toLowerCase(), tags);
  } catch {
    return undefined;
  }
}

/** A device's key from its TAGs' names and values in any order: `table`, then the values in the order of the names. */
function keyOfTags(table: string, tags: { name: string; value: string }[]): string {
  return deviceKey(
    table,
    tags.sort(byName).map((t) => t.value),
  );
}

/** TAG columns in the order of their names. */
function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A table's name in `database` (`db.t`), the key of its TAGs and the start of its devices' keys. */
function tableOf(database: string | undefined, table: string): string {
  return `${database?.toLowerCase()}.${table}`;
}

/** A device's key: its table (`db.t`), then its TAG values in the order of their names. */
function deviceKey(table: string, tagValues: readonly string[]): string {
  return tagValues.length === 0 ? table : `${table}\u0000${tagValues.join('\u0000')}`;
}
