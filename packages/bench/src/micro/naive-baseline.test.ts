import { describe, expect, it } from 'vitest';
import { ByteWriter, prepareTablet, writeInsertTabletReq } from '@iotdb/fast-serializer';
import { AnchorTabletBuilder } from '../workload/anchor.js';
import { encodeNaive } from './naive-baseline.js';

describe('naive thrift baseline', () => {
  it('writes the same request struct as the fast encoder (the benchmark compares equal work)', () => {
    const t = new AnchorTabletBuilder({ sensors: 50, rows: 500 }).fill(3, 1);
    const w = new ByteWriter(1024);
    writeInsertTabletReq(w, 7n, prepareTablet(t));
    const naive = encodeNaive(t, 7);
    expect(naive.readInt32BE(0)).toBe(naive.length - 4); // framed
    expect(naive.subarray(4).equals(w.view())).toBe(true);
  });
});
