import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { checkPath, escapeIdentifier, escapeString, escapeTableIdentifier, sql } from './escape.js';

const HOSTILE = [
  "'",
  "''",
  "a' OR '1'='1",
  "x'); DELETE DATABASE root.**; --",
  '\\',
  "\\'",
  '`',
  'a`b',
  '"',
  '\n',
  '中文😀',
  '',
];

describe('escapeString', () => {
  it.each(HOSTILE)('keeps %j inside one literal: quotes doubled, nothing else changed', (v) => {
    const lit = escapeString(v);
    expect(lit.startsWith("'") && lit.endsWith("'")).toBe(true);
    const inner = lit.slice(1, -1);
    expect(inner.replaceAll("''", '')).not.toContain("'"); // every quote inside is doubled
    expect(inner.replaceAll("''", "'")).toBe(v);
  });

  it('refuses a string UTF-8 cannot carry (a lone surrogate): the statement would hold U+FFFD instead', () => {
    expect(() => escapeString('x\ud800')).toThrow(
      'value: is not well-formed Unicode: a lone surrogate (U+D800) at index 1, which UTF-8 cannot carry (it would be stored as U+FFFD)',
    );
    expect(() => sql`INSERT INTO root.sg.d(time, s) VALUES (1, ${'\udfff'})`).toThrow(/lone surrogate \(U\+DFFF\)/);
    expect(escapeString('😀')).toBe("'😀'");
  });
});

/** Each quoting of an identifier: the tree's (a path node, in backquotes), the table model's (in double quotes). */
const IDENTIFIERS = [
  { style: 'escapeIdentifier', escape: escapeIdentifier, quote: '`' },
  { style: 'escapeTableIdentifier', escape: escapeTableIdentifier, quote: '"' },
] as const;

describe.each(IDENTIFIERS)('$style', ({ escape, quote }) => {
  it.each(HOSTILE.filter((h) => h !== ''))(
    `keeps %j one identifier: in ${quote}, a ${quote} inside doubled`,
    (name) => {
      const id = escape(name);
      expect(id.startsWith(quote) && id.endsWith(quote)).toBe(true);
      expect(id.slice(1, -1).replaceAll(quote + quote, '')).not.toContain(quote);
      expect(id.slice(1, -1).replaceAll(quote + quote, quote)).toBe(name);
    },
  );

  it('refuses an empty name', () => {
    expect(() => escape('')).toThrow(IoTDBValidationError);
  });
});

describe('sql', () => {
  it('takes a table-model identifier as sql.tableId, in double quotes (the table dialect refuses backquotes)', () => {
    expect(sql`SELECT ${sql.tableId('my "col"')} FROM ${sql.tableId('t')}`).toBe('SELECT "my ""col""" FROM "t"');
  });

  it('escapes every value by its type', () => {
    expect(
      sql`INSERT INTO root.sg.${sql.id('d-1')}(time, s, n, b, x) VALUES (${1n}, ${"it's"}, ${1.5}, ${true}, ${null})`,
    ).toBe("INSERT INTO root.sg.`d-1`(time, s, n, b, x) VALUES (1, 'it''s', 1.5, true, null)");
    expect(sql`SELECT * FROM t WHERE tag IN (${['a', "b'"]})`).toBe("SELECT * FROM t WHERE tag IN ('a', 'b''')");
  });

  it("writes a number as the literal IoTDB reads back as the same double, -0's sign included (String(-0) is '0')", () => {
    expect(sql`VALUES (${-0}, ${0}, ${1e21}, ${5e-324}, ${-1e-7}, ${0.1 + 0.2})`).toBe(
      'VALUES (-0, 0, 1e+21, 5e-324, -1e-7, 0.30000000000000004)',
    );
  });

  it('puts a checked path as it is, and refuses one that could break out', () => {
    expect(sql`DELETE FROM ${sql.path('root.sg.`d 1`.*')} WHERE time <= ${5}`).toBe(
      'DELETE FROM root.sg.`d 1`.* WHERE time <= 5',
    );
    expect(() => sql`${sql.path('root.sg; DROP')}`).toThrow(IoTDBValidationError);
    expect(() => sql`${sql.path("root.sg.d1' OR '1")}`).toThrow(IoTDBValidationError);
  });

  it('takes a * inside backquotes as the character it is where a path may not hold a wildcard', () => {
    // IoTDB writes and reads a device root.sg.`d*` as itself (a tablet to it is taken: checkDevicePath)
    for (const path of ['root.sg.`d*`', 'root.sg.`**`.s', 'root.`a*b`.`c``*`'])
      expect(checkPath(path, 'deviceId')).toBe(path);
    for (const path of ['root.sg.d*', 'root.sg.*', 'root.`d`.**', 'root.sg.`d`*'])
      expect(() => checkPath(path, 'deviceId')).toThrow(/^deviceId: needs a path like root\.sg\.d1/);
  });

  it('refuses what has no safe SQL form', () => {
    expect(() => sql`${NaN}`).toThrow(IoTDBValidationError);
    expect(() => sql`${{} as never}`).toThrow(IoTDBValidationError);
    expect(() => sql`${new Date() as never}`).toThrow(IoTDBValidationError);
  });

  it("refuses a Date saying how to give its time: the statement's unit is the server's, which the tag does not know", () => {
    expect(() => sql`SELECT * FROM root.sg.d WHERE time > ${new Date(0) as never}`).toThrow(
      /^values\[0\]: cannot go into SQL: a Date \(its time is in the server's unit, which the tag does not know: give a number or bigint in that unit, e\.g\. date\.getTime\(\) for milliseconds\)$/,
    );
  });
});
