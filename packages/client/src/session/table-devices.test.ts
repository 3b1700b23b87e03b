import { prepareTableTablet, type TableTablet } from '@iotdb/fast-serializer';
import { describe, expect, it } from 'vitest';
import { TableDevices, firstDeviceOf } from './table-devices.js';

const tablet = (columnNames: string[], values: unknown[][]): TableTablet => ({
  tableName: 'Sensors',
  columnNames,
  dataTypes: columnNames.map((c) => (c === 's0' ? 'DOUBLE' : 'STRING')),
  columnCategories: columnNames.map((c) => (c === 's0' ? 'FIELD' : c === 'model' ? 'ATTRIBUTE' : 'TAG')),
  timestamps: values.map((_, i) => i + 1),
  values: values as TableTablet['values'],
});

describe('TableDevices', () => {
  it("keys a row by its database, table and TAG values in the order of the TAGs' names, whatever the tablet's", () => {
    const devices = new TableDevices();
    const a = devices.rowKeys(prepareTableTablet(tablet(['region', 'device_id', 's0'], [['north', 'd1', 1]])), 'DB');
    const b = devices.rowKeys(
      prepareTableTablet(tablet(['model', 'Device_ID', 's0', 'REGION'], [['m', 'd1', 1, 'north']])),
      'db',
    );
    expect(a(0)).toBe('db.sensors\u0000d1\u0000north');
    expect(b(0)).toBe(a(0));
    expect(devices.rowKeys(prepareTableTablet(tablet(['region', 'device_id', 's0'], [[null, 'd1', 1]])), 'db')(0)).toBe(
      'db.sensors\u0000d1\u0000',
    );
  });

  it('keys a SELECT of one device of a table written as its rows, and nothing else', () => {
    const devices = new TableDevices();
    const row = devices.rowKeys(
      prepareTableTablet(tablet(['region', 'device_id', 's0'], [['north', 'd1', 1]])),
      'db',
    )(0);
    expect(devices.ofSelect("SELECT * FROM sensors WHERE device_id = 'd1' AND region = 'north'", 'db')).toBe(row);
    expect(
      devices.ofSelect("SELECT * FROM DB.Sensors WHERE REGION = 'north' AND s0 > 1 AND device_id = 'd1'", 'Db'),
    ).toBe(row);
    for (const [sql, database] of [
      ["SELECT * FROM sensors WHERE device_id = 'd1'", 'db'], // a TAG missing: every region's d1
      ["SELECT * FROM sensors WHERE device_id = 'd1' AND region = 'north'", 'other'], // that table not written there
      ["SELECT * FROM db.sensors WHERE device_id = 'd1' AND region = 'north'", 'other'], // another database's
      ["SELECT * FROM readings WHERE device_id = 'd1' AND region = 'north'", 'db'], // a table not written
    ])
      expect(devices.ofSelect(sql, database), sql).toBeUndefined();
  });

  it("names a tablet's first device as its rows are keyed, but for the database; undefined when it cannot", () => {
    const t = tablet(
      ['model', 'Device_ID', 's0', 'REGION'],
      [
        ['m', 'd1', 1, 'north'],
        ['m', 'd2', 2, 'south'],
      ],
    );
    expect(firstDeviceOf(t)).toBe('sensors\u0000d1\u0000north');
    const columns = { ...t, values: undefined, columns: [['m'], ['d1'], new Float64Array([1]), ['north']] };
    expect(firstDeviceOf(columns)).toBe('sensors\u0000d1\u0000north');
    expect(firstDeviceOf({ ...t, columnCategories: null } as unknown as TableTablet)).toBeUndefined();
  });
});
