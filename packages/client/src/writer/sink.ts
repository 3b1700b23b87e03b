import type { PreparedTablet } from '@iotdb/fast-serializer';
import { Writer, type WriterSink } from './writer.js';
import { resolveWriterOptions, type WriterOptions } from './writer-options.js';
import { tableModel, treeModel, type TableRow, type TreeRow } from './rows.js';
import type { TimestampPrecision } from '../session/base-session.js';
import type { SessionDataSet } from '../session/session-data-set.js';
import type { OpenWriters } from './open-writers.js';

/** The method a session sends a writer's request with (not part of its public API). */
export const sendForWriter = Symbol('sendForWriter');

/** What a writer needs of a session. */
export interface WriterSession {
  readonly timestampPrecision: TimestampPrecision;
  [sendForWriter](tablets: readonly PreparedTablet[]): Promise<void>;
  executeQueryStatement(sql: string): Promise<SessionDataSet>;
}

/** Tree-model writer options: those of every writer, and whether the devices are aligned. */
export interface TreeWriterOptions extends WriterOptions<TreeRow> {
  /** Write to aligned devices. @default false */
  aligned?: boolean;
}

export type TableWriterOptions = WriterOptions<TableRow>;

/** `run(fn)`: fn on a session that is open (the session itself, or a pooled one). */
type Run<S> = <T>(fn: (s: S) => Promise<T>) => Promise<T>;

function sinkOf<S extends WriterSession>(run: Run<S>): WriterSink {
  return {
    ready: async () => run((s) => Promise.resolve(s.timestampPrecision)),
    send: async (tablets) => run((s) => s[sendForWriter](tablets)),
    schema: async (sql) =>
      run(async (s) => {
        const ds = await s.executeQueryStatement(sql);
        const rows: Record<string, unknown>[] = [];
        for await (const row of ds) rows.push(row.toObject());
        return { columns: ds.columnNames, types: ds.columnTypes, rows };
      }),
  };
}

export function treeWriter<S extends WriterSession>(
  run: Run<S>,
  options: TreeWriterOptions,
  inFlight: number,
  owned: OpenWriters,
): Writer<TreeRow> {
  const resolved = resolveWriterOptions(options, inFlight, true);
  return owned.track(
    (closing) => new Writer(treeModel, { ...sinkOf(run), closing }, resolved, options?.aligned === true),
  );
}

export function tableWriter<S extends WriterSession>(
  run: Run<S>,
  options: TableWriterOptions,
  inFlight: number,
  owned: OpenWriters,
): Writer<TableRow> {
  const resolved = resolveWriterOptions(options, inFlight, false);
  return owned.track((closing) => new Writer(tableModel, { ...sinkOf(run), closing }, resolved));
}
