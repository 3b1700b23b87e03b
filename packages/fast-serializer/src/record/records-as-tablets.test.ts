import { describe, expect, it } from 'vitest';
import { prepareTablet } from '../tablet/prepare-tablet.js';
import type { RecordInput } from './encode-record.js';
import { recordsAsTablets, repeatsTime } from './records-as-tablets.js';

const NAMES = ['a', 'b'];
const TYPES = ['INT64', 'TEXT'] as const;

/** `n` records a device, devices interleaved, times going down. */
function records(devices: string[], n: number): RecordInput[] {
  return Array.from({ length: n * devices.length }, (_, i) => ({
    deviceId: devices[i % devices.length],
    timestamp: 10_000 - i,
    measurements: NAMES,
    dataTypes: TYPES,
    values: [BigInt(i), `v${i}`],
  }));
}

describe('recordsAsTablets: records of a few devices as their tablets, as the Java Session sends them', () => {
  it("gives each device, in order of first appearance, its rows in the records' order and their indexes", () => {
    const rs = records(['root.sg.x', 'root.sg.y'], 25);
    const t = recordsAsTablets(rs)!;
    expect(t.tablets.map((x) => x.deviceId)).toEqual(['root.sg.x', 'root.sg.y']);
    const xs = rs.flatMap((r, i) => (r.deviceId === 'root.sg.x' ? [i] : []));
    expect(t.recordsOf[0]).toEqual(xs);
    expect(t.tablets[0]).toEqual({
      deviceId: 'root.sg.x',
      measurements: NAMES,
      dataTypes: TYPES,
      timestamps: xs.map((i) => rs[i].timestamp),
      values: xs.map((i) => rs[i].values),
    });
    expect(t.empty).toEqual([]);
  });

  it("gives a device spelt two ways (backquotes) one tablet, its rows in the records' order, named as first spelt", () => {
    const rs = records(['root.sg.x', 'root.sg.`x`', 'root.sg.y'], 20);
    const t = recordsAsTablets(rs)!;
    expect(t.tablets.map((x) => x.deviceId)).toEqual(['root.sg.x', 'root.sg.y']);
    expect(t.recordsOf[0]).toEqual(rs.flatMap((r, i) => (r.deviceId === 'root.sg.y' ? [] : [i])));
  });

  it('leaves out the records whose values are all null, and takes equal lists that are not the same array', () => {
    const rs = records(['root.sg.x'], 45).map((r, i) =>
      i === 3
        ? { ...r, values: [null, undefined] }
        : i % 2
          ? { ...r, measurements: [...NAMES], dataTypes: [...TYPES] }
          : r,
    );
    const t = recordsAsTablets(rs)!;
    expect(t.empty).toEqual([3]);
    expect(t.recordsOf).toEqual([rs.map((_, i) => i).filter((i) => i !== 3)]);
  });

  it('keeps records that do not make tablets as records', () => {
    const ok = records(['root.sg.x', 'root.sg.y'], 20);
    expect(recordsAsTablets(ok)).not.toBeNull();
    expect(recordsAsTablets(ok.slice(0, 39))).toBeNull(); // fewer than Java's 40
    const spread = (devices: number) => ok.map((r, i) => ({ ...r, deviceId: `root.sg.d${i % devices}` }));
    expect(recordsAsTablets(spread(20))).not.toBeNull(); // one device for every two records
    expect(recordsAsTablets(spread(21))).toBeNull();
    const changed = (i: number, over: Partial<RecordInput>) => ok.map((r, k) => (k === i ? { ...r, ...over } : r));
    expect(recordsAsTablets(changed(5, { dataTypes: ['INT64', 'STRING'] }))).toBeNull(); // b with two types
    expect(recordsAsTablets(changed(5, { measurements: ['a', 'a'] }))).toBeNull(); // a name twice
    // records with fewer than half of their device's measurements: the others name 2 of the 5 record 5 names
    const wide = {
      measurements: ['a', 'b', 'c', 'd', 'e'],
      dataTypes: ['INT64', 'TEXT', 'INT32', 'INT32', 'INT32'] as RecordInput['dataTypes'],
    };
    expect(recordsAsTablets(changed(5, { ...wide, values: [1n, 'w', 1, 2, 3] }))).toBeNull();
    expect(recordsAsTablets(changed(5, { isAligned: true }))).toBeNull();
    expect(recordsAsTablets(ok.map((r, k) => (k === 7 ? (null as unknown as RecordInput) : r)))).toBeNull();
    const odd = { length: 2 } as unknown as string[]; // not an array: left to the records' checks, no TypeError here
    expect(recordsAsTablets(ok.map((r, k) => (k === 0 ? { ...r, measurements: odd } : r)))).toBeNull();
    expect(recordsAsTablets(ok.map((r) => ({ ...r, values: [null, null] })))).toBeNull(); // nothing to write
    // a key a record does not have: left to the records' checks, which name it (not written without it)
    expect(recordsAsTablets(changed(9, { aligned: true } as Partial<RecordInput>))).toBeNull();
  });

  it("makes a device's tablet of the measurements its records name in all, a record's missing ones null", () => {
    const rs = records(['root.sg.x'], 40).map((r, i) =>
      i % 3 === 1
        ? { ...r, measurements: ['c', 'a'], dataTypes: ['DOUBLE', 'INT64'] as const, values: [i / 2, BigInt(i)] }
        : r,
    );
    const t = recordsAsTablets(rs)!;
    expect(t.tablets[0].measurements).toEqual(['a', 'b', 'c']);
    expect(t.tablets[0].dataTypes).toEqual(['INT64', 'TEXT', 'DOUBLE']);
    expect(t.tablets[0].values?.slice(0, 3)).toEqual([
      [0n, 'v0', null],
      [1n, null, 0.5],
      [2n, 'v2', null],
    ]);
  });

  it('makes aligned tablets of aligned records', () => {
    const t = recordsAsTablets(records(['root.sg.x'], 40).map((r) => ({ ...r, isAligned: true })))!;
    expect(t.tablets[0].isAligned).toBe(true);
  });
});

describe('repeatsTime', () => {
  const tablet = (timestamps: (number | bigint)[]) =>
    prepareTablet({
      deviceId: 'root.sg.x',
      measurements: ['a'],
      dataTypes: ['INT32'],
      timestamps,
      values: timestamps.map(() => [1]),
    });

  it('finds a time given twice, in or out of order, as a number and as a bigint', () => {
    expect(repeatsTime(tablet([1, 2, 3]))).toBe(false);
    expect(repeatsTime(tablet([3, 1, 2]))).toBe(false);
    expect(repeatsTime(tablet([1, 2, 2]))).toBe(true);
    expect(repeatsTime(tablet([2, 1, 3, 2n]))).toBe(true);
  });
});
