import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { CompressionType, TSEncoding, schemaSql } from './schema-statements.js';

describe('schema statements', () => {
  it('create a time series with every clause', () => {
    expect(
      schemaSql.createTimeseries({
        path: 'root.sg.d1.s1',
        dataType: 'FLOAT',
        encoding: 'GORILLA',
        compressor: CompressionType.LZ4,
        props: { MAX_POINT_NUMBER: '3' },
        tags: { unit: "°C 'x'" },
        attributes: { owner: 'a' },
        alias: 'temp',
      }),
    ).toBe(
      "CREATE TIMESERIES root.sg.d1.s1(temp) WITH DATATYPE=FLOAT, ENCODING=GORILLA, COMPRESSOR=LZ4, 'MAX_POINT_NUMBER'='3' TAGS('unit'='°C ''x''') ATTRIBUTES('owner'='a')",
    );
  });

  it('aligned series and templates list their measurements', () => {
    expect(
      schemaSql.createAlignedTimeseries({
        deviceId: 'root.sg.d2',
        measurements: ['a', 'b'],
        dataTypes: ['INT32', 'TEXT'],
        encodings: [TSEncoding.RLE, 'PLAIN'],
        aliases: ['x', null],
      }),
    ).toBe('CREATE ALIGNED TIMESERIES root.sg.d2(a(x) INT32 ENCODING=RLE, b TEXT ENCODING=PLAIN)');
    expect(
      schemaSql.createSchemaTemplate({ name: 't1', measurements: ['s'], dataTypes: ['DOUBLE'], aligned: true }),
    ).toBe('CREATE SCHEMA TEMPLATE t1 ALIGNED (s DOUBLE)');
  });

  it('databases deleted in one statement, as Java deleteStorageGroups sends them in one request', () => {
    expect(schemaSql.deleteDatabases(['root.a', 'root.b.c'])).toBe('DELETE DATABASE root.a, root.b.c');
    expect(() => schemaSql.deleteDatabases([])).toThrow(/names: needs at least one database/);
  });

  it('a schema template activated by one statement per device: the statement takes one path', () => {
    expect(schemaSql.createTimeseriesUsingSchemaTemplate(['root.sg.d1', 'root.sg.d2'])).toEqual([
      'CREATE TIMESERIES USING SCHEMA TEMPLATE ON root.sg.d1',
      'CREATE TIMESERIES USING SCHEMA TEMPLATE ON root.sg.d2',
    ]);
    expect(() => schemaSql.createTimeseriesUsingSchemaTemplate(['root.sg.d1', 'root.sg.*'])).toThrow(
      /devicePaths\[1\]/,
    );
  });

  it("a template's introspection by SQL, its name checked as a node", () => {
    expect(schemaSql.showSchemaTemplates()).toBe('SHOW SCHEMA TEMPLATES');
    expect(schemaSql.showTemplateNodes('t1')).toBe('SHOW NODES IN SCHEMA TEMPLATE t1');
    expect(schemaSql.showPathsSetTemplate('`a b`')).toBe('SHOW PATHS SET SCHEMA TEMPLATE `a b`');
    expect(schemaSql.showPathsUsingTemplate('t1')).toBe('SHOW PATHS USING SCHEMA TEMPLATE t1');
    expect(() => schemaSql.showTemplateNodes('t1; DROP SCHEMA TEMPLATE t2')).toThrow(/^name: /);
  });

  it('delete data: both ends inclusive, or everything up to endTime', () => {
    expect(schemaSql.deleteData(['root.sg.d1.s1', 'root.sg.d1.s2'], { startTime: 10, endTime: 20n })).toBe(
      'DELETE FROM root.sg.d1.s1, root.sg.d1.s2 WHERE time >= 10 AND time <= 20',
    );
    expect(schemaSql.deleteData('root.sg.d1.*', { endTime: 5 })).toBe('DELETE FROM root.sg.d1.* WHERE time <= 5');
    // the whole int64 range, its ends exact
    expect(schemaSql.deleteData('root.sg.d1.s1', { startTime: -(2n ** 63n), endTime: 2n ** 63n - 1n })).toBe(
      'DELETE FROM root.sg.d1.s1 WHERE time >= -9223372036854775808 AND time <= 9223372036854775807',
    );
  });

  it.each([
    ['a path that breaks out', () => schemaSql.createDatabase('root.sg; DELETE DATABASE root.**')],
    ['a path not under root', () => schemaSql.createDatabase('sg')],
    ['a wildcard where none may be', () => schemaSql.createDatabase('root.*')],
    [
      'an unknown encoding',
      () => schemaSql.createTimeseries({ path: 'root.a.b', dataType: 'INT32', encoding: 'ZIP' as never }),
    ],
    [
      'an unknown compressor code',
      () => schemaSql.createTimeseries({ path: 'root.a.b', dataType: 'INT32', compressor: 5 }),
    ],
    ['a fractional time', () => schemaSql.deleteData('root.a.b', { endTime: 1.5 })],
    ['a time beyond int64', () => schemaSql.deleteData('root.a.b', { startTime: 0n, endTime: 2n ** 63n })],
    ['a time below int64', () => schemaSql.deleteData('root.a.b', { startTime: -(2n ** 63n) - 1n, endTime: 0 })],
    [
      'a tag that is not a string',
      () => schemaSql.createTimeseries({ path: 'root.a.b', dataType: 'INT32', tags: { a: 1 as never } }),
    ],
    [
      'mismatched lengths',
      () => schemaSql.createAlignedTimeseries({ deviceId: 'root.a.d', measurements: ['x', 'y'], dataTypes: ['INT32'] }),
    ],
  ])('refuse %s before anything is sent', (_what, f) => {
    expect(f).toThrow(IoTDBValidationError);
  });

  it('refuses a deleteData range whose start is after its end, naming both (the server answered [305])', () => {
    const backwards = () => schemaSql.deleteData('root.a.b', { startTime: 10, endTime: 1n });
    expect(backwards).toThrow(IoTDBValidationError);
    expect(backwards).toThrow(/^range: startTime 10 is after endTime 1/);
    expect(schemaSql.deleteData('root.a.b', { startTime: 5n, endTime: 5 })).toBe(
      'DELETE FROM root.a.b WHERE time >= 5 AND time <= 5',
    );
  });

  it("refuses deleteData's times given as Java gives them (a number, not a range), naming the range", () => {
    const javaLike = () => schemaSql.deleteData('root.a.b', 15 as never);
    expect(javaLike).toThrow(IoTDBValidationError);
    expect(javaLike).toThrow(/^range: needs \{ startTime\?, endTime \}.*got number 15$/);
  });

  it('refuse a key a spec or a range does not have, naming the nearest: it would be dropped unsaid', () => {
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as IoTDBValidationError;
      }
      throw new Error('not refused');
    };
    const cases: [() => unknown, string, RegExp][] = [
      // the server would make the series LZ4 (its default), not SNAPPY
      [
        () => schemaSql.createTimeseries({ path: 'root.sg.d.s', dataType: 'INT32', compression: 'SNAPPY' } as never),
        'spec.compression',
        /did you mean compressor\?/,
      ],
      [
        () => schemaSql.createTimeseries({ path: 'root.sg.d.s', dataType: 'INT32', tag: {} } as never, 'specs[2]'),
        'specs[2].tag',
        /did you mean tags\?/,
      ],
      [
        () =>
          schemaSql.createAlignedTimeseries({
            deviceId: 'root.sg.d',
            measurements: ['a'],
            dataTypes: ['INT32'],
            encoding: ['RLE'],
          } as never),
        'encoding',
        /did you mean encodings\?/,
      ],
      [
        () =>
          schemaSql.createSchemaTemplate({
            name: 't',
            measurements: ['a'],
            dataTypes: ['INT32'],
            isAligned: true,
          } as never),
        'isAligned',
        /did you mean aligned\?/,
      ],
      // without startTime everything up to endTime is deleted: `start` must not read as no start
      [() => schemaSql.deleteData('root.sg.d.s', { start: 4, endTime: 5 } as never), 'range.start', /unknown key/],
    ];
    for (const [f, field, message] of cases) {
      const e = refusal(f);
      expect(e.field).toBe(field);
      expect(e.message).toMatch(message);
    }
  });

  it('take backquoted nodes, with backquotes doubled inside', () => {
    expect(schemaSql.createDatabase('root.`my db`')).toBe('CREATE DATABASE root.`my db`');
    expect(schemaSql.deleteTimeseries(['root.sg.`d.1`.`a``b`'])).toBe('DELETE TIMESERIES root.sg.`d.1`.`a``b`');
  });
});
