/**
 * The SQL of iot-benchmark's query types for this benchmark's data, tree and table model. A query reads
 * `queryDeviceNum` consecutive devices and the first `querySensorNum` numeric sensors; range queries cover
 * `queryInterval` ms of data that has been written.
 */
import { TSDataType } from '@iotdb/client';
import { INT64_MAX, INT64_MIN } from '@iotdb/fast-serializer';
import type { BenchConfig } from '../types.js';
import { FIRST_ROW, PRECISION_FACTOR, rowTime } from './generator.js';
import type { QueryKind } from './operations.js';
import { DEVICE_TAG, TABLE_NAME, deviceName, sensorTypes } from './schema.js';

const NUMERIC: ReadonlySet<TSDataType> = new Set([
  TSDataType.INT32,
  TSDataType.INT64,
  TSDataType.FLOAT,
  TSDataType.DOUBLE,
]);

/** A sensor a query reads, and its type (what its value filter's literal must be). */
export interface QuerySensor {
  name: string;
  type: TSDataType;
}

/** What one query reads: its devices, and the first row of its time range (the point of PRECISE_POINT). */
interface QueryTarget {
  devices: number[];
  startRow: number;
}

/** The sensors queries read: the first querySensorNum numeric ones (fewer when the schema has fewer). */
export function querySensors(c: BenchConfig): QuerySensor[] {
  const out: QuerySensor[] = [];
  sensorTypes(c).forEach((type, s) => {
    if (NUMERIC.has(type) && out.length < c.querySensorNum) out.push({ name: `s${s}`, type });
  });
  return out;
}

/**
 * A target drawn with `u1`, `u2` in [0, 1): devices from a random one of this machine's share, a start
 * row among the `writtenRows` rows each device has so far (so that a range ends within them when it can).
 */
export function drawTarget(c: BenchConfig, u1: number, u2: number, writtenRows: number): QueryTarget {
  const first = Math.floor(u1 * c.deviceCount);
  const devices = Array.from(
    { length: Math.min(c.queryDeviceNum, c.deviceCount) },
    (_, k) => c.deviceOffset + ((first + k) % c.deviceCount),
  );
  const rangeRows = Math.ceil(c.queryInterval / c.timeStep);
  const starts = Math.max(1, writtenRows - rangeRows + 1);
  return { devices, startRow: FIRST_ROW + Math.floor(u2 * starts) };
}

export function querySql(c: BenchConfig, kind: QueryKind, target: QueryTarget, read = querySensors(c)): string {
  const factor = BigInt(PRECISION_FACTOR[c.precision]);
  const start = rowTime(c, target.startRow);
  const sensors = read.map((s) => s.name);
  const q: Parts = {
    start: String(start),
    end: String(start + BigInt(c.queryInterval) * factor),
    unit: `${BigInt(c.groupByTimeUnit) * factor}${c.precision}`,
    sensors,
    agg: sensors.map((s) => `${c.queryAggregateFun}(${s})`).join(', '),
    above: read.map((s) => above(s, c.queryLowerValue)).join(' AND '),
  };
  return c.model === 'table'
    ? tableSql(
        kind,
        q,
        target.devices.map((d) => deviceName(c, d)),
      )
    : treeSql(
        kind,
        q,
        target.devices.map((d) => deviceName(c, d)),
      );
}

/** Each integer type's range, where a value filter's literal must fall. */
const INTEGER_RANGE: ReadonlyMap<TSDataType, readonly [bigint, bigint]> = new Map([
  [TSDataType.INT32, [-(2n ** 31n), 2n ** 31n - 1n]],
  [TSDataType.INT64, [INT64_MIN, INT64_MAX]],
]);

/**
 * `sensor > x` in a literal the sensor's type takes. IoTDB refuses a fractional literal against an integer sensor
 * (tree: "cannot be cast to [INT64]"; table: a ClassCastException, [301]) and, in the tree model, one beyond
 * INT32's range against an INT32 sensor, which the table model wraps instead (s > 3000000000 kept s = 1). For an
 * integer s, s > x is s > floor(x); below the type's range every value is above x, above it none.
 */
function above(sensor: QuerySensor, x: number): string {
  const range = INTEGER_RANGE.get(sensor.type);
  if (range === undefined) return `${sensor.name} > ${x}`;
  const [min, max] = range;
  const floor = BigInt(Math.floor(x));
  if (floor < min) return `${sensor.name} >= ${min}`;
  return `${sensor.name} > ${floor > max ? max : floor}`;
}

interface Parts {
  start: string;
  end: string;
  /** GROUP_BY's interval as a duration literal */
  unit: string;
  sensors: string[];
  /** the aggregate of every sensor */
  agg: string;
  /** every sensor's value filter */
  above: string;
}

function treeSql(kind: QueryKind, q: Parts, devices: string[]): string {
  const from = `FROM ${devices.join(', ')}`;
  const raw = `SELECT ${q.sensors.join(', ')} ${from}`;
  const range = `time >= ${q.start} AND time < ${q.end}`;
  switch (kind) {
    case 'PRECISE_POINT':
      return `${raw} WHERE time = ${q.start}`;
    case 'TIME_RANGE':
      return `${raw} WHERE ${range}`;
    case 'VALUE_RANGE':
      return `${raw} WHERE ${range} AND ${q.above}`;
    case 'AGG_RANGE':
      return `SELECT ${q.agg} ${from} WHERE ${range}`;
    case 'AGG_VALUE':
      return `SELECT ${q.agg} ${from} WHERE ${q.above}`;
    case 'AGG_RANGE_VALUE':
      return `SELECT ${q.agg} ${from} WHERE ${range} AND ${q.above}`;
    case 'GROUP_BY':
      return `SELECT ${q.agg} ${from} GROUP BY ([${q.start}, ${q.end}), ${q.unit})`;
    case 'LATEST_POINT':
      return `SELECT LAST ${q.sensors.join(', ')} ${from}`;
    case 'RANGE_QUERY_DESC':
      return `${raw} WHERE ${range} ORDER BY time DESC`;
    case 'VALUE_RANGE_QUERY_DESC':
      return `${raw} WHERE ${range} AND ${q.above} ORDER BY time DESC`;
  }
}

function tableSql(kind: QueryKind, q: Parts, devices: string[]): string {
  const which =
    devices.length === 1
      ? `${DEVICE_TAG} = '${devices[0]}'`
      : `${DEVICE_TAG} IN (${devices.map((d) => `'${d}'`).join(', ')})`;
  const raw = `SELECT time, ${DEVICE_TAG}, ${q.sensors.join(', ')} FROM ${TABLE_NAME} WHERE ${which}`;
  const agg = `SELECT ${DEVICE_TAG}, ${q.agg} FROM ${TABLE_NAME} WHERE ${which}`;
  const range = `time >= ${q.start} AND time < ${q.end}`;
  const perDevice = `GROUP BY ${DEVICE_TAG}`;
  switch (kind) {
    case 'PRECISE_POINT':
      return `${raw} AND time = ${q.start}`;
    case 'TIME_RANGE':
      return `${raw} AND ${range}`;
    case 'VALUE_RANGE':
      return `${raw} AND ${range} AND ${q.above}`;
    case 'AGG_RANGE':
      return `${agg} AND ${range} ${perDevice}`;
    case 'AGG_VALUE':
      return `${agg} AND ${q.above} ${perDevice}`;
    case 'AGG_RANGE_VALUE':
      return `${agg} AND ${range} AND ${q.above} ${perDevice}`;
    case 'GROUP_BY':
      return `SELECT ${DEVICE_TAG}, date_bin(${q.unit}, time, ${q.start}) AS window_start, ${q.agg} FROM ${TABLE_NAME} WHERE ${which} AND ${range} GROUP BY 1, 2`;
    case 'LATEST_POINT':
      return `SELECT ${DEVICE_TAG}, last(time), ${q.sensors.map((s) => `last_by(${s}, time)`).join(', ')} FROM ${TABLE_NAME} WHERE ${which} ${perDevice}`;
    case 'RANGE_QUERY_DESC':
      return `${raw} AND ${range} ORDER BY time DESC`;
    case 'VALUE_RANGE_QUERY_DESC':
      return `${raw} AND ${range} AND ${q.above} ORDER BY time DESC`;
  }
}

/**
 * The columns of a query type's result rows that hold no sensor value, all of them never null: the table model's
 * time and device_id (GROUP_BY's window_start in time's place, LATEST_POINT's last(time)), the aggregates' device_id;
 * the tree model's LAST rows' Timeseries and DataType (Value is the point). The tree model's time is no value.
 */
function keyColumns(model: BenchConfig['model'], kind: QueryKind): number {
  if (model !== 'table') return kind === 'LATEST_POINT' ? 2 : 0;
  return kind === 'AGG_RANGE' || kind === 'AGG_VALUE' || kind === 'AGG_RANGE_VALUE' ? 1 : 2;
}

/** The sensor values among a read of `kind`'s rows whose values not null were `read.points`: the points it read. */
export function sensorValuesRead(
  model: BenchConfig['model'],
  kind: QueryKind,
  read: { rows: number; points: number },
): number {
  return read.points - read.rows * keyColumns(model, kind);
}
