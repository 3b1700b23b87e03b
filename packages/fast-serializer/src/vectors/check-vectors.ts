import { ByteWriter } from '../io/byte-writer.js';
import { writeInsertTabletReq } from '../tablet/insert-tablet-request.js';
import { valuesUpperBound, writeTimestamps, writeValues } from '../tablet/encode-tablet.js';
import { encodeTabletPlain } from '../tablet/plain-tablet-encoder.js';
import { prepareTableTablet, prepareTablet, type PreparedTablet } from '../tablet/prepare-tablet.js';
import { decodeTsBlock } from '../tsblock/decode-tsblock.js';
import type { CellValue } from '../tablet/tablet-input.js';
import type { InsertTabletCase, TsBlockCase, VectorFile } from './vector-file.js';

/** One vector case's verdict: `problem` is undefined when it passed. */
export interface CaseResult {
  name: string;
  problem?: string;
}

export function checkVectorFile(file: VectorFile): CaseResult[] {
  if (file.kind === 'tsblock') return file.cases.map(checkTsBlockCase);
  return file.cases.map((c) => checkInsertTabletCase(c, file.sessionId));
}

/**
 * Encodes the case's tablet through the same code path as Session.insertTablet (and through the plain
 * encoder of enableFastSerialization: false) and compares bytes.
 */
export function checkInsertTabletCase(c: InsertTabletCase, sessionId: bigint): CaseResult {
  try {
    const p = prepared(c);
    const ts = Buffer.alloc(8 * p.rows);
    writeTimestamps(ts, 0, p);
    const values = Buffer.alloc(valuesUpperBound(p));
    const valuesEnd = writeValues(values, 0, p);
    const w = new ByteWriter(256);
    writeInsertTabletReq(w, sessionId, p);
    const plain = encodeTabletPlain(p);
    const problem =
      firstDifference('timestamps', ts, c.expected.timestampsHex) ??
      firstDifference('values', values.subarray(0, valuesEnd), c.expected.valuesHex) ??
      firstDifference('request struct', w.view(), c.expected.requestStructHex) ??
      firstDifference('plain encoder timestamps', plain.timestamps, c.expected.timestampsHex) ??
      firstDifference('plain encoder values', plain.values, c.expected.valuesHex);
    return { name: c.name, problem };
  } catch (e) {
    return { name: c.name, problem: `threw ${(e as Error).message}` };
  }
}

export function prepared(c: InsertTabletCase): PreparedTablet {
  return c.tablet.model === 'table' ? prepareTableTablet(c.tablet.input) : prepareTablet(c.tablet.input);
}

export function firstDifference(what: string, actual: Uint8Array, expectedHex: string): string | undefined {
  const expected = Buffer.from(expectedHex, 'hex');
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  if (a.equals(expected)) return undefined;
  let i = 0;
  while (i < a.length && i < expected.length && a[i] === expected[i]) i++;
  const around = (b: Buffer) => b.subarray(Math.max(0, i - 4), i + 8).toString('hex');
  return `${what} differs at byte ${i} of ${expected.length} (got ${a.length} bytes): expected …${around(expected)}…, got …${around(a)}…`;
}

export function checkTsBlockCase(c: TsBlockCase): CaseResult {
  try {
    const block = decodeTsBlock(Buffer.from(c.tsBlockHex, 'hex'), c.types);
    const rows = c.times.length;
    if (block.rows !== rows) return { name: c.name, problem: `rows: expected ${rows}, got ${block.rows}` };
    for (let i = 0; i < rows; i++) {
      if (block.times[i] !== c.times[i])
        return { name: c.name, problem: `time[${i}]: expected ${c.times[i]}, got ${block.times[i]}` };
    }
    for (let col = 0; col < c.columns.length; col++) {
      const dc = block.columns[col];
      for (let i = 0; i < rows; i++) {
        const expected = c.columns[col][i];
        const isNull = dc.nulls !== null && dc.nulls[i] === 1;
        const actual: unknown = isNull ? null : (dc.values as ArrayLike<unknown>)[i];
        if (!sameCell(expected, actual)) {
          return { name: c.name, problem: `column ${col} row ${i}: expected ${show(expected)}, got ${show(actual)}` };
        }
      }
    }
    return { name: c.name };
  } catch (e) {
    return { name: c.name, problem: `threw ${(e as Error).message}` };
  }
}

function sameCell(expected: CellValue, actual: unknown): boolean {
  if (expected === null || actual === null) return expected === actual;
  if (typeof expected === 'boolean') return (expected ? 1 : 0) === actual;
  if (expected instanceof Uint8Array) return actual instanceof Uint8Array && Buffer.compare(expected, actual) === 0;
  return Object.is(expected, actual);
}

function show(v: unknown): string {
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  return typeof v === 'bigint' ? `${v}n` : (JSON.stringify(v) ?? String(v));
}
