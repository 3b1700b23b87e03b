import { Session, TableSession } from '@iotdb/client';
import type { BenchConfig, Verify } from '../types.js';
import { describeError } from './run-error.js';
import { connectOptions, queryOptions } from './session-options.js';
import { DEVICE_TAG, TABLE_NAME, deviceName, sensorTypes } from '../workload/schema.js';

/**
 * --verify: the points stored for this machine's devices against the `expected` ones (every acknowledged point).
 * The count is a query like the run's (--query-timeout-ms holds it, as the Java client's count). A count that cannot
 * be read (the server not back yet after a fault, the count timed out) is said with its reason: the run keeps its
 * figures, and fails.
 */
export async function verifyPoints(c: BenchConfig, host: string, port: number, expected: number): Promise<Verify> {
  try {
    const actual = await countPoints(c, host, port);
    return { expected, actual, ok: actual === expected };
  } catch (e) {
    return { expected, ok: false, error: describeError(e) };
  }
}

/** Points stored for this machine's devices (count of non-null values). */
async function countPoints(c: BenchConfig, host: string, port: number): Promise<number> {
  const devices = Array.from({ length: c.deviceCount }, (_, i) => c.deviceOffset + i);
  const whole = c.deviceCount === c.devices;
  if (c.model === 'table') {
    const s = new TableSession({ ...connectOptions(c, { host, port }), database: c.database });
    await s.open();
    try {
      const counts = sensorTypes(c)
        .map((_, i) => `count(s${i})`)
        .join(', ');
      const where = whole ? '' : ` WHERE ${DEVICE_TAG} IN (${devices.map((d) => `'${deviceName(c, d)}'`).join(', ')})`;
      const sql = `SELECT ${counts} FROM ${TABLE_NAME}${where}`;
      return await sumFirstRow(await s.executeQueryStatement(sql, queryOptions(c)));
    } finally {
      await s.close();
    }
  }
  const s = new Session(connectOptions(c, { host, port }));
  await s.open();
  try {
    const from = whole ? `root.${c.database}.**` : devices.map((d) => deviceName(c, d)).join(', ');
    return await sumFirstRow(await s.executeQueryStatement(`SELECT count(*) FROM ${from}`, queryOptions(c)));
  } finally {
    await s.close();
  }
}

async function sumFirstRow(ds: AsyncIterable<{ values: readonly unknown[] }>): Promise<number> {
  let sum = 0;
  for await (const row of ds) for (const v of row.values) sum += Number(v ?? 0);
  return sum;
}
