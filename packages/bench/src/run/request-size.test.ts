import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { largeWriteNote, writeRequestBytes } from './request-size.js';

describe("the size of a run's writes", () => {
  const doubles = { ...sampleConfig(), typeProportions: { ...sampleConfig().typeProportions } };
  for (const t of Object.keys(doubles.typeProportions) as (keyof typeof doubles.typeProportions)[])
    doubles.typeProportions[t] = t === 'DOUBLE' ? 1 : 0;

  it("counts a time and every sensor's value a row, rows x devices a call", () => {
    const c = { ...doubles, sensors: 10, batchSize: 1000, method: 'insertTablet' as const };
    expect(writeRequestBytes(c)).toBe(1000 * (8 + 10 * 8));
    expect(writeRequestBytes({ ...c, method: 'insertTablets', tabletsPerRequest: 5 })).toBe(5 * 1000 * 88);
  });

  it('notes, before the run, writes large enough for IoTDB never to answer them; not the usual ones', () => {
    const big = { ...doubles, sensors: 10, batchSize: 600_000, method: 'insertTablet' as const }; // 53 MB
    expect(largeWriteNote(big)).toMatch(
      /^note: each write carries about 53 MB \(--batch-size x --sensors\): IoTDB 2\.0\.1-beta never answers a write whose log entry is over its write-ahead log queue's memory/,
    );
    expect(largeWriteNote({ ...big, batchSize: 500 })).toBeUndefined();
    expect(largeWriteNote({ ...big, method: 'writer' })).toBeUndefined(); // its requests stay within maxBytes
    expect(largeWriteNote({ ...big, serverNoop: true })).toBeUndefined(); // the server logs nothing of them
    expect(largeWriteNote({ ...big, dryRunSend: true })).toBeUndefined(); // nothing sent
    expect(largeWriteNote(sampleConfig())).toBeUndefined();
  });
});
