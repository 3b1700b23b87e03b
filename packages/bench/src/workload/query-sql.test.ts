import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { FIRST_ROW } from './generator.js';
import { QUERY_KINDS } from './operations.js';
import { rowsAfterTheRun } from '../run/client-operations.js';
import { querySqls } from '../run/queries.js';
import { drawTarget, querySensors, querySql } from './query-sql.js';

// custom workload, 6 types in 50 sensors: s0..s8 BOOLEAN, s9.. INT32, ...
const tree = sampleConfig({ queryInterval: 100_000, groupByTimeUnit: 10_000, querySensorNum: 2, queryLowerValue: -5 });
const row = FIRST_ROW + 100; // at 1700000000000 + 101 x 1000 ms
const target = { devices: [3, 4], startRow: row };

describe('querySql', () => {
  it('reads the first numeric sensors', () => {
    expect(querySensors(tree).map((s) => s.name)).toEqual(['s9', 's10']);
    expect(querySensors(sampleConfig({ querySensorNum: 1 })).map((s) => s.name)).toEqual(['s9']);
  });

  it('writes every query type for the tree model', () => {
    const sql = Object.fromEntries(QUERY_KINDS.map((k) => [k, querySql(tree, k, target)]));
    const from = 'FROM root.bench.d003, root.bench.d004';
    const range = 'time >= 1700000101000 AND time < 1700000201000';
    expect(sql).toEqual({
      PRECISE_POINT: `SELECT s9, s10 ${from} WHERE time = 1700000101000`,
      TIME_RANGE: `SELECT s9, s10 ${from} WHERE ${range}`,
      VALUE_RANGE: `SELECT s9, s10 ${from} WHERE ${range} AND s9 > -5 AND s10 > -5`,
      AGG_RANGE: `SELECT count(s9), count(s10) ${from} WHERE ${range}`,
      AGG_VALUE: `SELECT count(s9), count(s10) ${from} WHERE s9 > -5 AND s10 > -5`,
      AGG_RANGE_VALUE: `SELECT count(s9), count(s10) ${from} WHERE ${range} AND s9 > -5 AND s10 > -5`,
      GROUP_BY: `SELECT count(s9), count(s10) ${from} GROUP BY ([1700000101000, 1700000201000), 10000ms)`,
      LATEST_POINT: `SELECT LAST s9, s10 ${from}`,
      RANGE_QUERY_DESC: `SELECT s9, s10 ${from} WHERE ${range} ORDER BY time DESC`,
      VALUE_RANGE_QUERY_DESC: `SELECT s9, s10 ${from} WHERE ${range} AND s9 > -5 AND s10 > -5 ORDER BY time DESC`,
    });
  });

  it('writes every query type for the table model, per device where it aggregates', () => {
    const table = { ...tree, model: 'table' as const, queryAggregateFun: 'avg' };
    const sql = Object.fromEntries(QUERY_KINDS.map((k) => [k, querySql(table, k, target)]));
    const raw = "SELECT time, device_id, s9, s10 FROM t WHERE device_id IN ('d003', 'd004')";
    const agg = "SELECT device_id, avg(s9), avg(s10) FROM t WHERE device_id IN ('d003', 'd004')";
    const range = 'time >= 1700000101000 AND time < 1700000201000';
    expect(sql).toEqual({
      PRECISE_POINT: `${raw} AND time = 1700000101000`,
      TIME_RANGE: `${raw} AND ${range}`,
      VALUE_RANGE: `${raw} AND ${range} AND s9 > -5 AND s10 > -5`,
      AGG_RANGE: `${agg} AND ${range} GROUP BY device_id`,
      AGG_VALUE: `${agg} AND s9 > -5 AND s10 > -5 GROUP BY device_id`,
      AGG_RANGE_VALUE: `${agg} AND ${range} AND s9 > -5 AND s10 > -5 GROUP BY device_id`,
      // windows from A, as the tree's GROUP BY ([A, B), U): the same windows in both models, not the epoch's
      GROUP_BY: `SELECT device_id, date_bin(10000ms, time, 1700000101000) AS window_start, avg(s9), avg(s10) FROM t WHERE device_id IN ('d003', 'd004') AND ${range} GROUP BY 1, 2`,
      LATEST_POINT:
        "SELECT device_id, last(time), last_by(s9, time), last_by(s10, time) FROM t WHERE device_id IN ('d003', 'd004') GROUP BY device_id",
      RANGE_QUERY_DESC: `${raw} AND ${range} ORDER BY time DESC`,
      VALUE_RANGE_QUERY_DESC: `${raw} AND ${range} AND s9 > -5 AND s10 > -5 ORDER BY time DESC`,
    });
    expect(querySql(table, 'TIME_RANGE', { devices: [7], startRow: row })).toContain("WHERE device_id = 'd007' AND");
  });

  // IoTDB refuses a fractional literal against an integer sensor (tree: "cannot be cast to [INT64]"; table: a
  // ClassCastException, [301]) and the table model wraps an INT32 one beyond INT32's range (s > 3000000000 kept 1)
  it("filters each sensor by a literal its type takes, keeping the filter's rows", () => {
    // 4 sensors, one of each numeric type: s0 INT32, s1 INT64, s2 FLOAT, s3 DOUBLE
    const types = {
      ...tree,
      sensors: 4,
      querySensorNum: 4,
      typeProportions: { ...tree.typeProportions, BOOLEAN: 0, TEXT: 0 },
    };
    const above = (v: number) =>
      /WHERE (.*)$/.exec(querySql({ ...types, queryLowerValue: v }, 'AGG_VALUE', target))![1];
    expect(above(0.5)).toBe('s0 > 0 AND s1 > 0 AND s2 > 0.5 AND s3 > 0.5'); // an integer above 0.5 is above 0
    expect(above(-0.5)).toBe('s0 > -1 AND s1 > -1 AND s2 > -0.5 AND s3 > -0.5');
    expect(above(-5)).toBe('s0 > -5 AND s1 > -5 AND s2 > -5 AND s3 > -5');
    // beyond INT32: every INT32 value is below 3e9 and above -3e9
    expect(above(3e9)).toBe('s0 > 2147483647 AND s1 > 3000000000 AND s2 > 3000000000 AND s3 > 3000000000');
    expect(above(-3e9)).toMatch(/^s0 >= -2147483648 AND s1 > -3000000000 AND /);
    // beyond INT64, and exact within it beyond 2^53
    expect(above(1e19)).toMatch(/^s0 > 2147483647 AND s1 > 9223372036854775807 AND s2 > 10000000000000000000 /);
    expect(above(-1e19)).toMatch(/^s0 >= -2147483648 AND s1 >= -9223372036854775808 AND /);
    expect(above(2 ** 60 + 0.5)).toMatch(/^s0 > 2147483647 AND s1 > 1152921504606846976 AND /);
    expect(above(1e21)).toMatch(/ AND s3 > 1e\+21$/); // a double's literal as IoTDB reads it
  });

  it('keeps nanosecond timestamps exact beyond 2^53', () => {
    const ns = { ...tree, precision: 'ns' as const };
    expect(querySql(ns, 'GROUP_BY', target)).toContain(
      'GROUP BY ([1700000101000000000, 1700000201000000000), 10000000000ns)',
    );
  });
});

describe('drawTarget', () => {
  it("takes consecutive devices of this machine's share, wrapping inside it", () => {
    const share = { ...tree, deviceOffset: 10, deviceCount: 5, queryDeviceNum: 3 };
    expect(drawTarget(share, 0, 0, 1000).devices).toEqual([10, 11, 12]);
    expect(drawTarget(share, 0.99, 0, 1000).devices).toEqual([14, 10, 11]);
  });

  it('starts a range where it ends within the rows written so far', () => {
    const c = { ...tree, queryInterval: 100_000, timeStep: 1000 }; // 100 rows
    expect(drawTarget(c, 0, 0, 500).startRow).toBe(FIRST_ROW);
    expect(drawTarget(c, 0, 0.999999, 500).startRow).toBe(FIRST_ROW + 400);
    expect(drawTarget(c, 0, 0.999999, 50).startRow).toBe(FIRST_ROW); // fewer rows than a range: from the first
  });
});

describe('querySqls (--queries, and the Java side of --vs-java)', () => {
  it('gives every reader the same statements, queryLoops of them', () => {
    const c = { ...tree, queryLoops: 5, devices: 10, deviceCount: 10 };
    const sqls = querySqls(c, 'TIME_RANGE', rowsAfterTheRun(c));
    expect(sqls).toHaveLength(5);
    expect(querySqls(c, 'TIME_RANGE', rowsAfterTheRun(c))).toEqual(sqls);
    expect(new Set(sqls).size).toBeGreaterThan(1); // drawn over the devices and rows
  });
});
