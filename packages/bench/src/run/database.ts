import { IoTDBServerError, Session, TableSession } from '@iotdb/client';
import type { BenchConfig } from '../types.js';
import { RunError } from './run-error.js';
import { connectOptions } from './session-options.js';
import { readsOnly } from '../workload/operations.js';
import { DEVICE_TAG, TABLE_NAME, sensorTypes } from '../workload/schema.js';
import { dataTypeName } from '@iotdb/fast-serializer';

/**
 * The benchmark's database: created before a run, and dropped first when this machine writes every
 * device (`deviceOffset` 0, `deviceCount` = devices); with a slice of a shared cluster it is only created
 * if missing, and a run of queries only keeps it (it reads what an earlier run wrote). Nothing outside it is
 * created.
 */
export async function prepareDatabase(c: BenchConfig, host: string, port: number): Promise<void> {
  const whole = c.deviceOffset === 0 && c.deviceCount === c.devices && !readsOnly(c.operationProportion);
  if (c.model === 'table') {
    const s = new TableSession(connectOptions(c, { host, port }));
    await s.open();
    try {
      checkPrecision(c, s.timestampPrecision);
      if (whole) await s.executeNonQueryStatement(`DROP DATABASE IF EXISTS ${c.database}`);
      await s.executeNonQueryStatement(`CREATE DATABASE IF NOT EXISTS ${c.database}`);
      const fields = sensorTypes(c).map((t, i) => `s${i} ${dataTypeName(t)} FIELD`);
      await s.executeNonQueryStatement(
        `CREATE TABLE IF NOT EXISTS ${c.database}.${TABLE_NAME} (${DEVICE_TAG} STRING TAG, ${fields.join(', ')})`,
      );
    } finally {
      await s.close();
    }
    return;
  }
  const s = new Session(connectOptions(c, { host, port }));
  await s.open();
  try {
    checkPrecision(c, s.timestampPrecision);
    if (whole) await ignoreCode(s.executeNonQueryStatement(`DELETE DATABASE root.${c.database}`), 508); // 508: no such path
    await ignoreCode(s.executeNonQueryStatement(`CREATE DATABASE root.${c.database}`), 501); // 501: exists already
  } finally {
    await s.close();
  }
}

async function ignoreCode(p: Promise<void>, code: number): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof IoTDBServerError && e.statusCode === code)) throw e;
  }
}

/** Timestamps are written in `--precision` units: they must be the server's, or times land elsewhere. */
function checkPrecision(c: BenchConfig, server: string): void {
  if (c.precision !== server) {
    throw new RunError(`--precision ${c.precision} does not match the server's timestamp_precision ${server}`);
  }
}
