import { ColumnCategory, prepareTableTablet, type PreparedTablet, type TableTablet } from '@iotdb/fast-serializer';
import { IoTDBBatchError } from '../errors.js';
import { BaseSession } from './base-session.js';
import { endpointKey, type Endpoint } from './endpoint.js';
import type { TableSessionOptions } from './options.js';

/**
 * A table-model session (`sql_dialect=table`): databases hold tables whose TAG columns identify
 * devices. `database` picks the database the session starts in; `USE db` changes it.
 */
export class TableSession extends BaseSession {
  constructor(options: TableSessionOptions = {}) {
    super(options, 'table', options.database);
  }

  /** The current database: the `database` option, or the last `USE`. */
  get database(): string | undefined {
    return this.currentDatabase;
  }

  /**
   * Writes a tablet: rows of one table. With redirection, rows of devices known to live on other
   * DataNodes are split off and sent there in parallel, as the Java client does; if only some parts
   * fail, an IoTDBBatchError lists the failed rows (as indexes into the tablet's rows).
   */
  async insert(tablet: TableTablet): Promise<void> {
    this.checkOpen();
    const p = prepareTableTablet(tablet);
    const deviceOfRow = deviceKeys(p);
    const parts = new Map<string, { target: Endpoint | undefined; rows: number[] }>();
    for (let r = 0; r < p.rows; r++) {
      const src = p.order === null ? r : p.order[r];
      const target = this.routeOf(deviceOfRow(src));
      const key = target === undefined ? '' : endpointKey(target);
      const part = parts.get(key) ?? { target, rows: [] };
      part.rows.push(src);
      parts.set(key, part);
    }
    const all = [...parts.values()];
    const outcomes = await Promise.allSettled(
      all.map(async ({ target, rows }) => {
        // one part: the tablet as it is; several: each part keeps its rows, still in time order
        const part: PreparedTablet = all.length === 1 ? p : { ...p, rows: rows.length, order: Uint32Array.from(rows) };
        const status = await this.write(target, (ns) => this.sendTablet(ns, part), `insert ${p.prefixPath}`);
        // the table write's sub-statuses are per row of what was sent
        this.learnRoutes(status, null, (i) => (i < part.rows ? deviceOfRow(part.order === null ? i : part.order[i]) : null));
      }),
    );
    const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [{ i, error: o.reason as Error }] : []));
    if (failed.length === 0) return;
    if (all.length === 1) throw failed[0].error;
    throw new IoTDBBatchError(
      `insert ${p.prefixPath}`,
      failed.flatMap(({ i, error }) => all[i].rows.map((index) => ({ index, error }))),
      outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? all[i].rows : [])),
    );
  }
}

/** The device of a source row: the table and its TAG values (the key of table-model redirects). */
function deviceKeys(p: PreparedTablet): (row: number) => string {
  const tags = p.columnCategories!.flatMap((c, i) => (c === ColumnCategory.TAG ? [p.columns[i] as ArrayLike<unknown>] : []));
  return (row) => [p.prefixPath, ...tags.map((col) => String(col[row] ?? ''))].join('\u0000');
}
