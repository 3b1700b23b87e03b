import { prepareTableTablet, type TableTablet } from '@iotdb/fast-serializer';
import { BaseSession } from './base-session.js';
import type { TableSessionOptions } from './options.js';

/**
 * A table-model session (`sql_dialect=table`): databases hold tables whose TAG columns identify
 * devices. `database` picks the database the session starts in; `USE db` changes it.
 */
export class TableSession extends BaseSession {
  readonly database: string | undefined;

  constructor(options: TableSessionOptions = {}) {
    super(options, 'table', options.database);
    this.database = options.database;
  }

  /** Writes a tablet: rows of one table. The table is created, or extended, by the server as needed. */
  async insert(tablet: TableTablet): Promise<void> {
    this.state();
    await this.writeTablet(prepareTableTablet(tablet));
  }
}
