import { IoTDBServerError, Session, StatusCode, TableSession, type SessionDataSet } from '@iotdb/client';
import type { BenchConfig } from '../types.js';
import { RunError } from './run-error.js';
import { connectOptions } from './session-options.js';
import { ignoreCode, refusedWith } from './status-codes.js';
import { readsOnly, type QueryKind } from '../workload/operations.js';
import { DEVICE_TAG, TABLE_NAME, sensorTypes, shareDeviceNames, tableDatabaseSql } from '../workload/schema.js';
import { querySql } from '../workload/query-sql.js';
import { FIRST_ROW } from '../workload/generator.js';
import { dataTypeName, nearestName } from '@iotdb/fast-serializer';

/**
 * The benchmark's database: created before a run, and dropped first when this machine writes every
 * device (`deviceOffset` 0, `deviceCount` = devices); with a share of the devices it is only created if missing
 * and the share's own devices are deleted (what an earlier run left on them would be counted and read with this
 * run's; the other machines' devices are theirs). A run of queries only keeps it all (it reads what an earlier run
 * wrote). Nothing outside it is created.
 */
export async function prepareDatabase(c: BenchConfig, host: string, port: number): Promise<void> {
  const writes = !readsOnly(c.operationProportion);
  const whole = c.deviceOffset === 0 && c.deviceCount === c.devices && writes;
  const plan = { whole, share: writes && !whole };
  try {
    await (c.model === 'table' ? prepareTable(c, host, port, plan) : prepareTree(c, host, port, plan));
  } catch (e) {
    throw preparationError(e, c);
  }
}

/** What a run does to its database first: drop it (`whole`), or delete its share's devices (`share`). */
interface Preparation {
  whole: boolean;
  share: boolean;
}

async function prepareTable(c: BenchConfig, host: string, port: number, { whole, share }: Preparation) {
  const s = new TableSession(connectOptions(c, { host, port }));
  const database = tableDatabaseSql(c);
  await s.open();
  try {
    checkPrecision(c, s.timestampPrecision);
    await checkAggregate(c, (sql) => s.executeQueryStatement(sql));
    if (whole) await s.executeNonQueryStatement(`DROP DATABASE IF EXISTS ${database}`);
    await s.executeNonQueryStatement(`CREATE DATABASE IF NOT EXISTS ${database}`);
    const fields = sensorTypes(c).map((t, i) => `s${i} ${dataTypeName(t)} FIELD`);
    await s.executeNonQueryStatement(
      `CREATE TABLE IF NOT EXISTS ${database}.${TABLE_NAME} (${DEVICE_TAG} STRING TAG, ${fields.join(', ')})`,
    );
    await s.executeNonQueryStatement(`USE ${database}`);
    await tryAggregates(c, (sql) => s.executeQueryStatement(sql));
    if (share)
      for (const names of shareChunks(c))
        await s.executeNonQueryStatement(
          `DELETE FROM ${database}.${TABLE_NAME} WHERE ${names.map((d) => `${DEVICE_TAG} = '${d}'`).join(' OR ')}`,
        );
  } finally {
    await s.close();
  }
}

async function prepareTree(c: BenchConfig, host: string, port: number, { whole, share }: Preparation) {
  const s = new Session(connectOptions(c, { host, port }));
  await s.open();
  try {
    checkPrecision(c, s.timestampPrecision);
    await checkAggregate(c, (sql) => s.executeQueryStatement(sql));
    if (whole)
      await ignoreCode(s.executeNonQueryStatement(`DELETE DATABASE root.${c.database}`), StatusCode.PATH_NOT_EXIST);
    await ignoreCode(
      s.executeNonQueryStatement(`CREATE DATABASE root.${c.database}`),
      StatusCode.DATABASE_ALREADY_EXISTS,
    );
    await tryAggregates(c, (sql) => s.executeQueryStatement(sql));
    if (share)
      for (const names of shareChunks(c)) {
        const series = names.map((d) => `${d}.**`).join(', ');
        // none of them there: nothing to delete
        await ignoreCode(s.executeNonQueryStatement(`DELETE TIMESERIES ${series}`), StatusCode.PATH_NOT_EXIST);
      }
  } finally {
    await s.close();
  }
}

/**
 * A refusal of the database's preparation for want of a privilege, said with what the benchmark does to its database
 * and as whom (a deployment's own user, IOTDB_USER, is often not root); any other error as it was.
 */
export function preparationError(e: unknown, c: BenchConfig): unknown {
  if (!refusedWith(e, StatusCode.NO_PERMISSION)) return e;
  const database = c.model === 'table' ? tableDatabaseSql(c) : `root.${c.database}`;
  return new RunError(
    `preparing its database ${database}, as the user the run logs in as (IOTDB_USER): ${e.message}. A run that ` +
      "writes every device drops the database and makes it again; a share's run (--device-offset, --device-count) " +
      "deletes its own devices' data first; a run of queries only changes nothing: grant the user the privilege " +
      'named, or run as one that has it',
  );
}

/** The names of this machine's devices, in statements of at most 500 (IoTDB takes long statements, not endless ones). */
function shareChunks(c: BenchConfig): string[][] {
  const names = shareDeviceNames(c);
  return Array.from({ length: Math.ceil(names.length / 500) }, (_, i) => names.slice(i * 500, (i + 1) * 500));
}

/** Timestamps are written in `--precision` units: they must be the server's, or times land elsewhere. */
function checkPrecision(c: BenchConfig, server: string): void {
  if (c.precision !== server) {
    throw new RunError(`--precision ${c.precision} does not match the server's timestamp_precision ${server}`);
  }
}

const AGGREGATING: readonly QueryKind[] = ['AGG_RANGE', 'AGG_VALUE', 'AGG_RANGE_VALUE', 'GROUP_BY'];

/**
 * The aggregate of the AGG_* and GROUP_BY queries must be a function the server has (its built-ins, or a UDF
 * registered there): else every one of those operations fails with [701], a run's worth of failures to learn a typo.
 */
async function checkAggregate(c: BenchConfig, query: (sql: string) => Promise<SessionDataSet>): Promise<void> {
  if (!AGGREGATING.some((k) => c.operationProportion[k] > 0)) return;
  const types = new Map<string, string>(); // upper-case name -> its type
  try {
    for await (const row of await query('SHOW FUNCTIONS'))
      types.set(String(row.values[0]).toUpperCase(), String(row.values[1]));
  } catch (e) {
    if (e instanceof IoTDBServerError) return; // a server that will not list them: its answers to the queries will say
    throw e;
  }
  // tree 'native', table 'built-in aggregate function', a registered one 'external UDAF'
  const isAggregate = (type: string) => /native|aggregate|UDAF/i.test(type);
  const fun = c.queryAggregateFun;
  const type = types.get(fun.toUpperCase());
  if (type !== undefined && isAggregate(type)) return;
  const aggregates = [...types].filter(([, t]) => isAggregate(t)).map(([name]) => name.toLowerCase());
  const near = nearestName(fun, aggregates);
  throw new RunError(
    `--query-aggregate-fun ${fun}: ` +
      (type !== undefined ? `a ${type} function here, not an aggregate` : 'the server has no such function') +
      ` (SHOW FUNCTIONS)${near === undefined ? '' : `; did you mean ${near}?`}` +
      ` (the tree and table models name some differently: max_value / max)`,
  );
}

/**
 * Each aggregating query type of the run, tried once on the share's first device (over an empty database when the
 * run writes it): an aggregate the server has may take other arguments than one sensor (max_by, count_if), which
 * its analyzer refuses [701] whatever the data, as it would refuse every such operation of the run.
 */
export async function tryAggregates(c: BenchConfig, query: (sql: string) => Promise<SessionDataSet>): Promise<void> {
  for (const kind of AGGREGATING.filter((k) => c.operationProportion[k] > 0)) {
    const sql = querySql(c, kind, { devices: [c.deviceOffset], startRow: FIRST_ROW });
    try {
      await (await query(sql)).close();
    } catch (e) {
      if (!(e instanceof IoTDBServerError)) throw e;
      // its own message cuts the statement short: here it is whole, the part the server could not take with it
      const status = `"${sql}": [${e.statusCode}] ${e.serverMessage}`;
      throw new RunError(
        refusedWith(e, StatusCode.SEMANTIC_ERROR)
          ? `--query-aggregate-fun ${c.queryAggregateFun}: the server refused ${kind}'s query ${status}`
          : `the server could not run ${kind}'s query, tried once before the run (every such operation would fail): ${status}`,
      );
    }
  }
}
