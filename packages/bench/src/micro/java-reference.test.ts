import { describe, expect, it } from 'vitest';
import { codecRates } from './java-reference.js';

const codec = [
  'CODEC encode_tablet_500x50 points_per_s=154321799 request_bytes=147165',
  'CODEC decode_tsblock_5000x50 points_per_s=83602122 block_bytes=1443285 (sink 5)',
];

describe("codecRates: the Java reference's CODEC lines", () => {
  it('reads the codec and row iterator rates', () => {
    const out = [
      ...codec,
      'CODEC rows_getters_5000x50 points_per_s=26660747 (sink 5)',
      'CODEC rows_records_5000x50 points_per_s=16139935 (sink 1)',
    ].join('\n');
    expect(codecRates(out)).toEqual({
      encodePointsPerS: 154321799,
      decodePointsPerS: 83602122,
      rowGettersPointsPerS: 26660747,
      rowRecordsPointsPerS: 16139935,
    });
  });

  it("keeps the codec's rates when the row iterator could not be measured, and says why", () => {
    const out = [...codec, 'CODEC rows_unavailable java.lang.NoSuchMethodError: SessionDataSet.<init>'].join('\n');
    expect(codecRates(out)).toEqual({
      encodePointsPerS: 154321799,
      decodePointsPerS: 83602122,
      rowGettersPointsPerS: null,
      rowRecordsPointsPerS: null,
      rowsUnavailable: 'java.lang.NoSuchMethodError: SessionDataSet.<init>',
    });
  });

  it('refuses output without the codec lines', () => {
    expect(() => codecRates(codec[1])).toThrow(/printed no encode_tablet_500x50 line/);
  });
});
