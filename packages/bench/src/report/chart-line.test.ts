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
