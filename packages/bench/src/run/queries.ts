import { Session, TableSession, type BaseSession } from '@iotdb/client';
import { LatencyHistogram } from '../report/histogram.js';
import type { BenchConfig, QueryKind, RunResult } from '../types.js';
import { FIRST_ROW } from '../workload/generator.js';
import { DEVICE_TAG, TABLE_NAME, deviceName } from '../workload/schema.js';

const T0_MS = 1_700_000_000_000;
const FACTOR = { ms: 1, us: 1_000, ns: 1_000_000 } as const;

/**
 * The query workload after the writes: `queryLoops` runs of each kind, over this machine's devices in
 * turn. Raw range (one batch of rows), aggregation with GROUP BY time, last value, latest 10 rows.
 */
export async function runQueries(
  c: BenchConfig,
  host: string,
  port: number,
): Promise<NonNullable<RunResult['queries']>> {
  const session: BaseSession =
    c.model === 'table'
      ? new TableSession({ host, port, nodeUrls: c.nodeUrls, database: c.database })
      : new Session({ host, port, nodeUrls: c.nodeUrls });
  await session.open();
  const out: NonNullable<RunResult['queries']> = {};
  try {
    for (const kind of c.queries) {
      const h = new LatencyHistogram();
      let rows = 0;
      const t0 = performance.now();
      for (let i = 0; i < c.queryLoops; i++) {
        const d = c.deviceOffset + (i % c.deviceCount);
        const a = process.hrtime.bigint();
        const ds = await session.executeQueryStatement(sql(c, kind, d, i));
        for await (const _row of ds) rows++;
        h.record(Number(process.hrtime.bigint() - a));
      }
      const secs = (performance.now() - t0) / 1000;
      out[kind] = { ops: c.queryLoops, rows, rowsPerS: rows / secs, latency: h.summaryMs() };
    }
  } finally {
    await session.close();
  }
  return out;
}

export function sql(c: BenchConfig, kind: QueryKind, d: number, i: number): string {
  const f = FACTOR[c.precision];
  const rounds = Math.max(1, c.warmupRounds + c.loop);
  const start = (T0_MS + (FIRST_ROW + (i % rounds) * c.batchSize) * c.timeStep) * f;
  const end = start + c.batchSize * c.timeStep * f;
  const bucket = `${Math.max(1, Math.floor((c.batchSize * c.timeStep) / 10))}${c.precision}`;
  if (c.model === 'table') {
    const dev = `${DEVICE_TAG} = '${deviceName(c, d)}'`;
    switch (kind) {
      case 'raw':
        return `SELECT * FROM ${TABLE_NAME} WHERE ${dev} AND time >= ${start} AND time < ${end}`;
      case 'aggregation':
        return `SELECT date_bin(${bucket}, time) AS w, count(s0) FROM ${TABLE_NAME} WHERE ${dev} AND time >= ${start} AND time < ${end} GROUP BY 1`;
      case 'last':
        return `SELECT last(time), last_by(s0, time) FROM ${TABLE_NAME} WHERE ${dev}`;
      case 'latest':
        return `SELECT * FROM ${TABLE_NAME} WHERE ${dev} ORDER BY time DESC LIMIT 10`;
    }
  }
  const dev = deviceName(c, d);
  switch (kind) {
    case 'raw':
      return `SELECT * FROM ${dev} WHERE time >= ${start} AND time < ${end}`;
    case 'aggregation':
      return `SELECT count(s0) FROM ${dev} GROUP BY ([${start}, ${end}), ${bucket})`;
    case 'last':
      return `SELECT last * FROM ${dev}`;
    case 'latest':
      return `SELECT * FROM ${dev} ORDER BY time DESC LIMIT 10`;
  }
}
