import { describe, expect, it } from 'vitest';
import { treeTypes, type SchemaAnswer } from './learned-types.js';

/** A lookup answering with these series (the columns of `SELECT *`) and their types. */
const answering = (series: Record<string, string>) => async (): Promise<SchemaAnswer> => ({
  columns: Object.keys(series),
  types: Object.values(series),
  rows: [],
});

describe('treeTypes', () => {
  it("gives each device's series by measurement, matched node by node without backquotes (the server's spelling or the writer's)", async () => {
    const found = await treeTypes(
      ['root.sg.`d1`', 'root.sg.`a.b`', 'root.sg.`a``b`', 'root.sg.d1'],
      answering({
        Time: 'INT64',
        'root.sg.d1.s': 'FLOAT',
        'root.sg.`a.b`.`x-y`': 'INT32',
        'root.sg.`a``b`.`c``d`': 'DATE',
      }),
    );
    expect(found).toEqual(
      new Map([
        ['root.sg.`d1`', new Map([['s', 3]])],
        ['root.sg.`a.b`', new Map([['x-y', 1]])],
        ['root.sg.`a``b`', new Map([['c`d', 9]])],
        ['root.sg.d1', new Map([['s', 3]])],
      ]),
    );
  });

  it("leaves another device's series: one whose name starts the same, one under a node of the device's path", async () => {
    const found = await treeTypes(
      ['root.sg.d1', 'root.sg.a'],
      answering({ 'root.sg.d10.s': 'FLOAT', 'root.sg.`a.b`.s': 'FLOAT', 'root.sg.d1.s.t': 'FLOAT' }),
    );
    expect(found).toEqual(new Map());
  });
});
