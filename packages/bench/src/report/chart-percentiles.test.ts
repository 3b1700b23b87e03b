import { describe, expect, it } from 'vitest';
import type { LatencySummary } from '../types.js';
import { percentileChart } from './chart-percentiles.js';

/** a summary whose percentiles are `p50Ms` times 1, 2, 3, 4, 5 */
function latency(p50Ms: number): LatencySummary {
  const [p50, p90, p95, p99, p999] = [1, 2, 3, 4, 5].map((k) => k * p50Ms);
  return { count: 10, min: p50Ms / 2, avg: p50Ms, p10: p50, p25: p50, p50, p75: p50, p90, p95, p99, p999, max: p999 };
}

/** The chart of operations whose p50s are these ms (latency's spread above each). */
const chart = (p50s: Record<string, number>) =>
  percentileChart({ title: 't', rows: Object.entries(p50s).map(([op, ms]) => [op, latency(ms)]) });

const labels = (svg: string) => [...svg.matchAll(/<text [^>]*text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]);

describe('percentileChart', () => {
  it('draws one row per operation, in the order given, with a dot per percentile carrying its value', () => {
    const svg = chart({ insertTablet: 2, 'uncorrected insertTablet': 1, GROUP_BY: 150 });
    expect(labels(svg)).toEqual(['insertTablet', 'uncorrected insertTablet', 'GROUP_BY']);
    expect(svg.match(/<circle /g)).toHaveLength(15);
    expect(svg).toContain('<title>GROUP_BY p999 750.0 ms</title>');
    expect(svg).toContain('<title>uncorrected insertTablet p50 1.000 ms</title>');
  });

  it('puts each percentile where its value is on one log axis: a tenfold latency is one decade further right', () => {
    const svg = chart({ a: 1, b: 10, c: 100 });
    const p50s = [...svg.matchAll(/<circle cx="([\d.]+)"[^>]*><title>\w p50 /g)].map((m) => Number(m[1]));
    expect(p50s).toHaveLength(3);
    expect(p50s[1] - p50s[0]).toBeCloseTo(p50s[2] - p50s[1], 0);
    expect(p50s[1]).toBeGreaterThan(p50s[0]);
    for (const tick of ['1ms', '10ms', '100ms']) expect(svg).toContain(`>${tick}</text>`);
  });

  it('ends the axis on ticks around the values, so that the fastest and slowest dots can be read', () => {
    const svg = chart({ q: 3 }); // 3 to 15 ms
    const ticks = [...svg.matchAll(/text-anchor="middle">([\d.]+(?:µs|ms|s))<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(['2ms', '5ms', '10ms', '20ms']);
  });

  it('spans a decade at least, so that one fast operation still gets ticks to read it by', () => {
    const svg = chart({ only: 0.2 });
    expect(svg.match(/text-anchor="middle">[\d.]+(µs|ms)<\/text>/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('leaves out operations with no latency, and says so when none has any', () => {
    const none = { ...latency(1), p50: 0, p90: 0, p95: 0, p99: 0, p999: 0 };
    expect(
      labels(
        percentileChart({
          title: 't',
          rows: [
            ['kept', latency(1)],
            ['none', none],
          ],
        }),
      ),
    ).toEqual(['kept']);
    expect(percentileChart({ title: 'empty', rows: [['none', none]] })).toContain('empty: no data');
  });
});
