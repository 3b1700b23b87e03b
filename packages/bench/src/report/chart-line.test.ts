import { describe, expect, it } from 'vitest';
import { lineChart } from './chart-line.js';

const chart = (series: { name: string; points: [number, number][] }[]) =>
  lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series });

describe('lineChart', () => {
  it('names the line when the page has several runs, also when only one of them was sampled', () => {
    const svg = chart([
      {
        name: 'ours',
        points: [
          [1, 10],
          [2, 20],
        ],
      },
      { name: 'java', points: [] },
    ]);
    expect(svg).toContain('>ours</text>');
    expect(svg).not.toContain('>java</text>');
  });

  it('puts the legend under a title too long to share its row, and the plot below both', () => {
    const title = 'latency over the run, every operation that succeeded, per 1.0 s (ms, log scale)';
    const series = ['p50', 'p99', 'max'].map((name, i) => ({ name, points: [[1, i + 1] as [number, number]] }));
    const svg = lineChart({ title, xLabel: 'x', yLabel: 'ms', series, logY: true });
    const yOf = (label: string) => Number(new RegExp(`<text x="[^"]*" y="([^"]*)"[^>]*>${label}</text>`).exec(svg)![1]);
    expect(yOf('p50')).toBeGreaterThan(yOf(title.replace(/[()]/g, '\\$&')) + 10);
    // the highest point's dot sits below the legend's row
    const dots = [...svg.matchAll(/<circle cx="[^"]*" cy="([^"]*)"/g)].map((m) => Number(m[1]));
    expect(Math.min(...dots)).toBeGreaterThan(yOf('p50'));
    // a short title keeps the legend beside it
    const short = lineChart({ title: 'latency', xLabel: 'x', yLabel: 'ms', series });
    const shortY = (label: string) =>
      Number(new RegExp(`<text x="[^"]*" y="([^"]*)"[^>]*>${label}</text>`).exec(short)![1]);
    expect(shortY('p50')).toBe(shortY('latency'));
  });

  it("draws the first series on top where lines meet: p99 over an equal max, ours over the Java client's", () => {
    const same: [number, number][] = [
      [1, 5],
      [2, 5],
    ];
    const svg = chart(['p50', 'p99', 'max'].map((name) => ({ name, points: same })));
    const strokes = [...svg.matchAll(/<polyline [^>]*stroke="([^"]*)"/g)].map((m) => m[1]);
    const colour = (name: string) =>
      new RegExp(`<rect [^>]*fill="([^"]*)"[^>]*/><text [^>]*>${name}</text>`).exec(svg)![1];
    expect(strokes).toEqual([colour('max'), colour('p99'), colour('p50')]); // drawn last, seen
  });

  it('draws one run without a legend', () => {
    expect(
      chart([
        {
          name: 'only',
          points: [
            [1, 10],
            [2, 20],
          ],
        },
      ]),
    ).not.toContain('>only</text>');
  });

  it('spaces a log axis by decades: 1, 10 and 100 ms evenly, a spell of seconds not flattening the rest', () => {
    const points: [number, number][] = [
      [1, 1],
      [2, 10],
      [3, 100],
    ];
    const svg = lineChart({ title: 't', xLabel: 'x', yLabel: 'ms', series: [{ name: 'p99', points }], logY: true });
    const ys = /<polyline points="([^"]*)"/
      .exec(svg)![1]
      .split(' ')
      .map((xy) => Number(xy.split(',')[1]));
    expect(ys[0] - ys[1]).toBeCloseTo(ys[1] - ys[2], 0);
    expect(svg).toContain('>10</text>'); // a tick at each decade
  });

  it('keeps a linear axis for a log one when no value is above 0 (nothing to put decades around)', () => {
    const points: [number, number][] = [
      [1, 0],
      [2, 0],
    ];
    const svg = lineChart({ title: 't', xLabel: 'x', yLabel: 'ms', series: [{ name: 'p99', points }], logY: true });
    expect(svg).not.toContain('NaN');
  });
});
