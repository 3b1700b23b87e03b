import { describe, expect, it } from 'vitest';
import { placeholders, plannedReads, sessionShares, statementsOver } from './for-each.js';

const devices = {
  columns: ['Device', 'IsAligned', 'Template', 'TTL(ms)'],
  rows: [
    ['root.bench.d0', 'false', null, 'INF'],
    ['root.bench.d1', 'true', null, 'INF'],
  ],
};

describe('forEach statements', () => {
  it('finds the placeholders of a statement, each once', () => {
    expect(placeholders("SELECT * FROM t WHERE region = '{region}' AND id = '{id}' OR id = '{id}'")).toEqual([
      'region',
      'id',
    ]);
    expect(placeholders('SELECT {1} FROM x')).toEqual([]);
  });

  it("gives the statement once per row, each placeholder the row's value of the column named (in any case)", () => {
    const over = statementsOver('SELECT LAST s0 FROM {device} -- aligned: {IsAligned}', devices);
    expect(over).toEqual({
      statements: [
        'SELECT LAST s0 FROM root.bench.d0 -- aligned: false',
        'SELECT LAST s0 FROM root.bench.d1 -- aligned: true',
      ],
      skipped: 0,
    });
  });

  it('leaves out a row with a null where a placeholder reads, and names the columns of an unknown placeholder', () => {
    expect(statementsOver('SELECT {Template} FROM x', devices)).toEqual({ statements: [], skipped: 2 });
    expect(() => statementsOver('SELECT LAST s0 FROM {Path}', devices)).toThrow(
      "{Path} names no column of forEach's answer (its columns: Device, IsAligned, Template, TTL(ms))",
    );
  });

  it("deals forEach's statements to the sessions in turn, no more sessions than statements", () => {
    expect(sessionShares(['a', 'b', 'c', 'd', 'e'], 2, true)).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
    expect(sessionShares(['a', 'b'], 4, true)).toEqual([['a'], ['b']]);
    // without forEach every session reads the one statement
    const every = sessionShares(['q'], 3, false);
    expect(every).toEqual([['q'], ['q'], ['q']]);
    expect(plannedReads(every, 5)).toBe(15);
    expect(plannedReads(sessionShares(['a', 'b', 'c', 'd', 'e'], 2, true), 5)).toBe(25);
  });
});
