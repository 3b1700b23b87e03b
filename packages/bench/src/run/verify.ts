import { Session, TableSession } from '@iotdb/client';
import type { BenchConfig, Verify } from '../types.js';
import { describeError } from './run-error.js';
import { connectOptions, queryOptions } from './session-options.js';
import { DEVICE_TAG, TABLE_NAME, sensorTypes, shareDeviceNames } from '../workload/schema.js';

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
  const options = connectOptions(c, { host, port });
  const s = c.model === 'table' ? new TableSession({ ...options, database: c.database }) : new Session(options);
  await s.open();
  try {
    return await sumCounts(await s.executeQueryStatement(countStatement(c), queryOptions(c)));
  } finally {
    await s.close();
  }
}

/**
 * The count of this machine's devices' values: all of the database's when it has every device. Tree: a row a device
 * (ALIGN BY DEVICE), which the server counts a device at a time; one count(*) over a few thousand devices at once
 * is refused on a small server ([719] not enough memory for the fragment instance).
 */
function countStatement(c: BenchConfig): string {
  const devices = shareDeviceNames(c);
  const whole = c.deviceCount === c.devices;
  if (c.model !== 'table')
    return `SELECT count(*) FROM ${whole ? `root.${c.database}.**` : devices.join(', ')} ALIGN BY DEVICE`;
  const counts = sensorTypes(c).map((_, i) => `count(s${i})`);
  const where = whole ? '' : ` WHERE ${DEVICE_TAG} IN (${devices.map((d) => `'${d}'`).join(', ')})`;
  return `SELECT ${counts.join(', ')} FROM ${TABLE_NAME}${where}`;
}

/** The sum of every row's counts (a tree row's Device column left out). */
async function sumCounts(ds: AsyncIterable<{ values: readonly unknown[] }>): Promise<number> {
  let sum = 0;
  for await (const row of ds) for (const v of row.values) if (typeof v !== 'string') sum += Number(v ?? 0);
  return sum;
}
