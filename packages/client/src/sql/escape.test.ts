import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import { escapeIdentifier, escapeString, escapeTableIdentifier, sql } from './escape.js';

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
});

describe('escapeTableIdentifier', () => {
  it.each(HOSTILE.filter((h) => h !== ''))(
    'keeps %j one table-model identifier: in double quotes (IoTDB refuses backquotes there), doubled',
    (name) => {
      const id = escapeTableIdentifier(name);
      expect(id.startsWith('"') && id.endsWith('"')).toBe(true);
      expect(id.slice(1, -1).replaceAll('""', '')).not.toContain('"');
      expect(id.slice(1, -1).replaceAll('""', '"')).toBe(name);
    },
  );

  it('refuses an empty name, and goes into a sql template as sql.tableId', () => {
    expect(() => escapeTableIdentifier('')).toThrow(IoTDBValidationError);
    expect(sql`SELECT ${sql.tableId('my "col"')} FROM ${sql.tableId('t')}`).toBe('SELECT "my ""col""" FROM "t"');
  });
});

describe('escapeIdentifier', () => {
  it.each(HOSTILE.filter((h) => h !== ''))('keeps %j one identifier: backquotes doubled', (name) => {
    const id = escapeIdentifier(name);
    expect(id.startsWith('`') && id.endsWith('`')).toBe(true);
    expect(id.slice(1, -1).replaceAll('``', '')).not.toContain('`');
    expect(id.slice(1, -1).replaceAll('``', '`')).toBe(name);
  });

  it('refuses an empty name', () => {
    expect(() => escapeIdentifier('')).toThrow(IoTDBValidationError);
  });
});

describe('sql', () => {
  it('escapes every value by its type', () => {
    expect(
      sql`INSERT INTO root.sg.${sql.id('d-1')}(time, s, n, b, x) VALUES (${1n}, ${"it's"}, ${1.5}, ${true}, ${null})`,
    ).toBe("INSERT INTO root.sg.`d-1`(time, s, n, b, x) VALUES (1, 'it''s', 1.5, true, null)");
    expect(sql`SELECT * FROM t WHERE tag IN (${['a', "b'"]})`).toBe("SELECT * FROM t WHERE tag IN ('a', 'b''')");
  });

  it('puts a checked path as it is, and refuses one that could break out', () => {
    expect(sql`DELETE FROM ${sql.path('root.sg.`d 1`.*')} WHERE time <= ${5}`).toBe(
      'DELETE FROM root.sg.`d 1`.* WHERE time <= 5',
    );
    expect(() => sql`${sql.path('root.sg; DROP')}`).toThrow(IoTDBValidationError);
    expect(() => sql`${sql.path("root.sg.d1' OR '1")}`).toThrow(IoTDBValidationError);
  });

  it('refuses what has no safe SQL form', () => {
    expect(() => sql`${NaN}`).toThrow(IoTDBValidationError);
    expect(() => sql`${{} as never}`).toThrow(IoTDBValidationError);
    expect(() => sql`${new Date() as never}`).toThrow(IoTDBValidationError);
  });
});
