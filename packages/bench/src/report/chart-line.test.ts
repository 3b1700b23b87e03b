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
});
