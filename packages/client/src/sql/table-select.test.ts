import { describe, expect, it } from 'vitest';
import { tableSelectOf } from './table-select.js';

const equal = (sql: string) => {
  const s = tableSelectOf(sql);
  return s === undefined ? undefined : { ...s, equal: Object.fromEntries(s.equal) };
};

describe('tableSelectOf', () => {
  it("names a SELECT's table and the strings its WHERE sets columns equal to at its top level", () => {
    expect(equal("SELECT * FROM t WHERE device_id = 'd1'")).toEqual({
      database: undefined,
      table: 't',
      equal: { device_id: 'd1' },
    });
    expect(
      equal(
        "select s0, s1 from Factory.Sensors where Region='north' and time >= 10 AND (s0 > 1 OR s1 < 2) and DEVICE_ID = 'd''1' order by time desc limit 10;",
      ),
    ).toEqual({ database: 'factory', table: 'sensors', equal: { region: 'north', device_id: "d'1" } });
    expect(
      equal(
        "SELECT date_bin(1h, time) AS w, avg(s0) FROM t WHERE device_id = 'd1' AND time BETWEEN 1 AND 9 GROUP BY 1",
      ),
    ).toEqual({ database: undefined, table: 't', equal: { device_id: 'd1' } });
    expect(equal('SELECT "s 0" FROM "my table" WHERE "Device" = \'a or b\' AND s0 = 1')).toEqual({
      database: undefined,
      table: 'my table',
      equal: { device: 'a or b' },
    });
    expect(equal("SELECT last(s0) FROM t WHERE device_id = 'd1' AND region = ''\n")).toEqual({
      database: undefined,
      table: 't',
      equal: { device_id: 'd1', region: '' },
    });
    expect(equal("SELECT * FROM t WHERE device_id != 'd1' AND s0 > 1")?.equal).toEqual({});
  });

  it('is undefined for whatever may read more than one table, or not as written, or is not a plain SELECT', () => {
    for (const sql of [
      "SELECT * FROM t WHERE device_id = 'd1' OR device_id = 'd2'",
      "SELECT * FROM t WHERE device_id = 'd1' AND device_id = 'd2'",
      "SELECT * FROM t WHERE device_id = 'd1' AND s0 > (SELECT avg(s0) FROM t)",
      "SELECT * FROM t WHERE device_id IN (SELECT device_id FROM u) AND device_id = 'd1'",
      "SELECT * FROM t JOIN u ON t.time = u.time WHERE device_id = 'd1'",
      "SELECT * FROM t, u WHERE device_id = 'd1'",
      "SELECT * FROM t AS x WHERE device_id = 'd1'",
      "SELECT * FROM t WHERE device_id = 'd1' UNION SELECT * FROM u WHERE device_id = 'd1'",
      "SELECT * FROM t WHERE device_id = 'd1' -- AND region = 'r'",
      "SELECT * FROM t WHERE device_id = 'd1' /* x */",
      "SELECT * FROM t WHERE device_id = 'd1",
      "SELECT * FROM t WHERE (device_id = 'd1'",
      "SELECT * FROM t WHERE device_id = 'd1'; SELECT * FROM u WHERE device_id = 'd1'",
      'SELECT * FROM t',
      "SELECT * FROM root.sg.d1 WHERE device_id = 'd1'",
      "SHOW DEVICES FROM t WHERE device_id = 'd1'",
      "INSERT INTO t(time, device_id, s0) VALUES (1, 'd1', 1)",
      `SELECT * FROM t WHERE device_id = 'd1' ${'AND s0 > 0 '.repeat(100)}`, // not looked at: too long
    ])
      expect(tableSelectOf(sql), sql).toBeUndefined();
  });
});
