import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Session } from '../session/session.js';
import { sentTablets } from '../testing/sent-tablets.js';
import { FakeTransport } from '../transport/fake-transport.js';
import type { TreeRow } from './rows.js';

/**
 * Whatever rows come, in whatever order, shape and mix of nulls and bad values: what the server receives
 * is exactly the rows write() accepted (sorted by time per device, null where a row had no value), and
 * every rejected row left nothing behind. Rows of a repeated shape take the compiled path, others the
 * general one; sequences switch between them, which is where a stale cell or null would show.
 */
const SEED = 20261123;
const NAMES = ['a', 'b', 'c', 'd', 'e'] as const;
const TYPES = { a: 'DOUBLE', b: 'INT32', c: 'TEXT', d: 'INT64', e: 'FLOAT' } as const;
const good = {
  a: fc.double({ noNaN: true, noDefaultInfinity: true }),
  b: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  c: fc.string({ maxLength: 8 }),
  d: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  e: fc.float({ noNaN: true, noDefaultInfinity: true }),
};
const wrong = {
  a: fc.constant('x'),
  b: fc.constant(1.5),
  c: fc.constant(7),
  d: fc.constant(0.5),
  e: fc.constant(1e39),
};

/** a row's cell: usually a good value, sometimes null or missing, rarely one its type refuses */
const cellOf = (n: (typeof NAMES)[number]) =>
  fc.oneof(
    { arbitrary: good[n], weight: 12 },
    { arbitrary: fc.constant(null), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: wrong[n], weight: 1 },
  );

const rowArb = fc.record({
  device: fc.integer({ min: 0, max: 2 }),
  // few distinct shapes (names in one order, some left out): the compiled path gets used
  shape: fc.constantFrom(NAMES, NAMES, ['a', 'b'], ['c', 'a', 'e', 'd'], ['d'], ['e']),
  cells: fc.record({ a: cellOf('a'), b: cellOf('b'), c: cellOf('c'), d: cellOf('d'), e: cellOf('e') }),
});

describe('the writer under any sequence of rows', () => {
  it('sends exactly the accepted rows, nothing of the rejected ones', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 60 }), async (specs) => {
        const fake = new FakeTransport();
        const s = new Session({ nodeUrls: ['10.0.0.1:6667'], transport: fake });
        await s.open();
        const w = s.writer({ types: TYPES, maxRows: 7, flushIntervalMs: 0 });
        const expected = new Map<string, { time: number; values: Record<string, unknown> }[]>();
        let t = 0;
        for (const spec of specs) {
          const values: Record<string, unknown> = {};
          const cells: Record<string, unknown> = spec.cells;
          for (const n of spec.shape) if (cells[n] !== undefined || n === 'a') values[n] = cells[n];
          const row: TreeRow = {
            deviceId: `root.sg.d${spec.device}`,
            timestamp: (t = (t * 7 + 3) % 101),
            values: values as TreeRow['values'],
          };
          const accepted = await w.write(row).then(
            () => true,
            () => false,
          );
          const bad = Object.entries(values).some(
            ([n, v]) => v !== null && v !== undefined && v === spec.cells[n as 'a'] && isWrong(n, v),
          );
          expect(accepted).toBe(!bad);
          if (!accepted) continue;
          const list = expected.get(row.deviceId) ?? [];
          list.push({
            time: row.timestamp as number,
            values: Object.fromEntries(Object.entries(values).filter(([, v]) => v != null)),
          });
          expected.set(row.deviceId, list);
        }
        await w.close();
        await s.close();
        const got = new Map<string, { time: number; values: Record<string, unknown> }[]>();
        for (const c of fake.callsOf('insertTablets'))
          for (const tab of sentTablets(c)) got.set(tab.device, [...(got.get(tab.device) ?? []), ...tab.rows]);
        const norm = (m: typeof got) =>
          [...m]
            .map(
              ([d, rows]) =>
                [
                  d,
                  rows.map((r) => ({
                    time: r.time,
                    values: Object.fromEntries(
                      Object.entries(r.values).map(([n, v]) => [n, n === 'b' ? Number(v) : v]),
                    ),
                  })),
                ] as const,
            )
            .sort();
        // sent per flush, each flush sorted by time: compare as multisets of rows per device
        const sortRows = (rows: { time: number; values: Record<string, unknown> }[]) =>
          [...rows].sort(
            (x, y) => x.time - y.time || JSON.stringify(x.values, big).localeCompare(JSON.stringify(y.values, big)),
          );
        expect(norm(got).map(([d, rows]) => [d, sortRows(rows)])).toEqual(
          norm(expected).map(([d, rows]) => [d, sortRows(rows)]),
        );
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

function isWrong(name: string, v: unknown): boolean {
  switch (name) {
    case 'a':
      return typeof v !== 'number';
    case 'b':
      return typeof v !== 'number' || !Number.isInteger(v);
    case 'c':
      return typeof v !== 'string';
    case 'e':
      return typeof v !== 'number' || Math.abs(v) > 3.4028234663852886e38;
    default:
      return typeof v !== 'bigint';
  }
}

const big = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v);
