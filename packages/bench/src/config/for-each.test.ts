import { describe, expect, it } from 'vitest';
import { dealStatements, everySession, placeholders, plannedReads, statementsOver } from './for-each.js';

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

  it('takes a column named in any script, or as the server names it with parentheses and dots', () => {
    expect(placeholders(`SELECT count(*) FROM "表" WHERE "设备" = '{设备}'`)).toEqual(['设备']);
    expect(placeholders('SELECT s0 FROM root.bench.d0 -- {TTL(ms)} {count(root.bench.d0.s0)} {Überhang}')).toEqual([
      'TTL(ms)',
      'count(root.bench.d0.s0)',
      'Überhang',
    ]);
    // a regular expression's repetition, text in braces with blanks: not placeholders
    expect(placeholders(`SELECT s0 FROM t WHERE s1 REGEXP '[0-9]{3}' AND s2 = '{ not one }'`)).toEqual([]);
    const cjk = { columns: ['设备'], rows: [['一号'], ["二'号"]] };
    expect(statementsOver(`SELECT count(*) FROM "表" WHERE "设备" = '{设备}'`, cjk).statements).toEqual([
      `SELECT count(*) FROM "表" WHERE "设备" = '一号'`,
      `SELECT count(*) FROM "表" WHERE "设备" = '二''号'`,
    ]);
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

  it("keeps a value with quotes one literal: its quotes doubled inside the statement's quotes, as given outside", () => {
    const tags = { columns: ['device_id', 'path'], rows: [["d'1", 'root.sg.`a``b`']] };
    expect(statementsOver("SELECT s0 FROM t WHERE device_id = '{device_id}'", tags).statements).toEqual([
      "SELECT s0 FROM t WHERE device_id = 'd''1'",
    ]);
    expect(
      statementsOver("SELECT \"{device_id}\" FROM `x{device_id}` WHERE a = 'it''s {device_id}'", tags).statements,
    ).toEqual(["SELECT \"d'1\" FROM `xd'1` WHERE a = 'it''s d''1'"]);
    // a path the server gave, its own backquotes in it, goes in as given where the statement has no quotes
    expect(statementsOver('SELECT LAST s0 FROM {path}', tags).statements).toEqual([
      'SELECT LAST s0 FROM root.sg.`a``b`',
    ]);
    expect(statementsOver('SELECT s0 FROM `{path}`', tags).statements).toEqual(['SELECT s0 FROM `root.sg.``a````b```']);
  });

  it('leaves out a row with a null where a placeholder reads, and names the columns of an unknown placeholder', () => {
    expect(statementsOver('SELECT {Template} FROM x', devices)).toEqual({ statements: [], skipped: 2 });
    expect(() => statementsOver('SELECT LAST s0 FROM {Path}', devices)).toThrow(
      "{Path} names no column of forEach's answer (its columns: Device, IsAligned, Template, TTL(ms))",
    );
  });

  it("deals forEach's statements to the sessions in turn, no more sessions than statements", () => {
    expect(dealStatements(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([
      ['a', 'c', 'e'],
      ['b', 'd'],
    ]);
    expect(dealStatements(['a', 'b'], 4)).toEqual([['a'], ['b']]);
    // without forEach every session reads the one statement
    const every = everySession('q', 3);
    expect(every).toEqual([['q'], ['q'], ['q']]);
    expect(plannedReads(every, 5)).toBe(15);
    expect(plannedReads(dealStatements(['a', 'b', 'c', 'd', 'e'], 2), 5)).toBe(25);
  });
});
