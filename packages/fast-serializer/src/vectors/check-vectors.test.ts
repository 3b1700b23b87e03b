import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkInsertTabletCase, checkTsBlockCase, checkVectorFile } from './check-vectors.js';
import { parseVectorFile, type InsertTabletCase, type TsBlockCase, type VectorFile } from './vector-file.js';

const insertText = readFileSync(new URL('../../fixtures/vectors/insert-tablet.json', import.meta.url), 'utf8');
const tsblockText = readFileSync(new URL('../../fixtures/vectors/tsblock.json', import.meta.url), 'utf8');

function insertFile(): Extract<VectorFile, { kind: 'insert-tablet' }> {
  const f = parseVectorFile(insertText);
  if (f.kind !== 'insert-tablet') throw new Error(`expected an insert-tablet file, got ${f.kind}`);
  return f;
}

function tsblockFile(): Extract<VectorFile, { kind: 'tsblock' }> {
  const f = parseVectorFile(tsblockText);
  if (f.kind !== 'tsblock') throw new Error(`expected a tsblock file, got ${f.kind}`);
  return f;
}

/** Flips every bit of the byte at `index` of a hex string. */
function flipByte(hex: string, index: number): string {
  const b = Buffer.from(hex, 'hex');
  b[index] ^= 0xff;
  return b.toString('hex');
}

const insertCases = insertFile().cases;
const tsblockCases = tsblockFile().cases;

describe('insert-tablet.json vectors', () => {
  it('contains the cases the README describes', () => {
    const names = insertCases.map((c) => c.name);
    expect(names).toContain('unsorted_rows_are_sorted');
    expect(names).toContain('table_model_tags_fields');
    expect(insertCases.length).toBeGreaterThanOrEqual(7);
    expect(insertFile().sessionId).toBe(42n);
  });

  it.each(insertCases.map((c) => [c.name, c] as const))(
    'encodes case %s byte-exactly like the Java client',
    (_name, c) => {
      const result = checkInsertTabletCase(c, insertFile().sessionId);
      expect(result.name).toBe(c.name);
      expect(result.problem).toBeUndefined();
    },
  );
});

describe('tsblock.json vectors', () => {
  it('contains the RLE and empty-block cases', () => {
    const names = tsblockCases.map((c) => c.name);
    expect(names).toContain('rle_constant_columns');
    expect(names).toContain('empty_block');
  });

  it.each(tsblockCases.map((c) => [c.name, c] as const))('decodes case %s to the expected values', (_name, c) => {
    const result = checkTsBlockCase(c);
    expect(result.name).toBe(c.name);
    expect(result.problem).toBeUndefined();
  });
});

describe('the vector check can fail', () => {
  it('reports a difference in values when one byte of the expected values hex is corrupted', () => {
    const c = insertCases[0];
    const bad: InsertTabletCase = { ...c, expected: { ...c.expected, valuesHex: flipByte(c.expected.valuesHex, 3) } };
    const result = checkInsertTabletCase(bad, 42n);
    expect(result.problem).toMatch(/^values differs at byte 3 /);
  });

  it('reports a difference in timestamps when the expected timestamps hex is corrupted', () => {
    const c = insertCases[0];
    const bad: InsertTabletCase = {
      ...c,
      expected: { ...c.expected, timestampsHex: flipByte(c.expected.timestampsHex, 0) },
    };
    expect(checkInsertTabletCase(bad, 42n).problem).toMatch(/^timestamps differs at byte 0 /);
  });

  it('reports a difference in the request struct when the expected struct hex is one byte short', () => {
    const c = insertCases[0];
    const bad: InsertTabletCase = {
      ...c,
      expected: { ...c.expected, requestStructHex: c.expected.requestStructHex.slice(0, -2) },
    };
    expect(checkInsertTabletCase(bad, 42n).problem).toMatch(/^request struct differs/);
  });

  it('reports a difference when the session id differs from the one the vectors were made with', () => {
    expect(checkInsertTabletCase(insertCases[0], 43n).problem).toMatch(/^request struct differs/);
  });

  it('reports a wrong expected value in a TsBlock case', () => {
    const c = tsblockCases.find((x) => x.name === 'rle_constant_columns')!;
    const columns = c.columns.map((col) => [...col]);
    columns[1][4] = -2.25;
    const bad: TsBlockCase = { ...c, columns };
    expect(checkTsBlockCase(bad).problem).toBe('column 1 row 4: expected -2.25, got -2.5');
  });

  it('reports a wrong expected time in a TsBlock case', () => {
    const c = tsblockCases[0];
    const bad: TsBlockCase = { ...c, times: c.times.map((t, i) => (i === 2 ? t + 1n : t)) };
    expect(checkTsBlockCase(bad).problem).toMatch(/^time\[2\]: expected/);
  });

  it('reports a TsBlock whose bytes are cut short as a thrown error, not a pass', () => {
    const c = tsblockCases[0];
    const bad: TsBlockCase = { ...c, tsBlockHex: c.tsBlockHex.slice(0, c.tsBlockHex.length / 2) };
    expect(checkTsBlockCase(bad).problem).toMatch(/^threw /);
  });

  it('checkVectorFile returns one result per case and flags only the corrupted one', () => {
    const f = insertFile();
    const cases = f.cases.map((c, i) =>
      i === 1 ? { ...c, expected: { ...c.expected, valuesHex: flipByte(c.expected.valuesHex, 0) } } : c,
    );
    const results = checkVectorFile({ ...f, cases });
    expect(results).toHaveLength(f.cases.length);
    expect(results.filter((r) => r.problem !== undefined).map((r) => r.name)).toEqual([f.cases[1].name]);
  });
});

describe('parseVectorFile', () => {
  it('tells the two kinds apart by content', () => {
    expect(parseVectorFile(insertText).kind).toBe('insert-tablet');
    expect(parseVectorFile(tsblockText).kind).toBe('tsblock');
  });

  it('rejects a document without a cases array', () => {
    expect(() => parseVectorFile('{"generator":"x"}')).toThrow(/no "cases" array/);
    expect(() => parseVectorFile('{"cases":{}}')).toThrow(/no "cases" array/);
  });

  it('rejects cases of an unknown kind', () => {
    expect(() => parseVectorFile('{"cases":[{"name":"x","foo":1}]}')).toThrow(/known kind/);
    expect(() => parseVectorFile('{"cases":[]}')).toThrow(/known kind/);
    expect(() => parseVectorFile('{"cases":[{"expected":{"valuesHex":"00"}}]}')).toThrow(/known kind/);
  });

  it('rejects text that is not JSON', () => {
    expect(() => parseVectorFile('not json')).toThrow(SyntaxError);
  });

  it('rejects an unknown type name inside a case', () => {
    const doc = { cases: [{ name: 'x', types: ['FOO'], times: [], columns: [[]], tsBlockHex: '' }] };
    expect(() => parseVectorFile(JSON.stringify(doc))).toThrow(/unknown type name FOO/);
  });
});
