/**
 * Latency percentiles per operation as a dot plot: one row per operation, a dot per percentile on one logarithmic
 * time axis. A mixed run has 11 operations and as many 'uncorrected' rows; grouped vertical bars for 22 of them
 * left each group 30 px, their labels and values written over each other, and a linear axis squeezed every fast
 * query against the floor under the one slow row. Rows grow with the operations, and a decade is as wide at 1 ms
 * as at 100 ms.
 */
import type { LatencySummary } from '../types.js';
import { axisRange, logTicks, nsLabel } from './log-axis.js';
import { millis } from './numbers.js';
import { color, dot, emptyChart, labelMargin, line, linear, shortLabel, svgOpen, text, titleAndLegend } from './svg.js';

const PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'p999'] as const;
const W = 760;
const ROW = 20;
const M = { t: 40, b: 36, r: 20 };

/** The rows in the order given (the latency table's), each operation's percentiles in ms. */
export function percentileChart(opts: { title: string; rows: [string, LatencySummary][] }): string {
  const rows = opts.rows.filter(([, l]) => PERCENTILES.some((p) => l[p] > 0));
  if (rows.length === 0) return emptyChart(W, M.t + M.b + ROW, opts.title);
  const head = titleAndLegend(
    opts.title,
    10,
    PERCENTILES.map((name, i) => ({ name, fill: color(i) })),
    W - M.r,
  );
  const top = M.t + head.drop;
  const H = top + M.b + rows.length * ROW;
  const left = labelMargin(rows.map(([op]) => op));
  const { lo, hi } = axisRange(rows.flatMap(([, l]) => PERCENTILES.map((p) => l[p] * 1e6)));
  const lx = linear(Math.log10(lo), Math.log10(hi), left, W - M.r);
  const x = (ns: number) => lx(Math.log10(Math.min(hi, Math.max(lo, ns))));
  const parts = [
    svgOpen(W, H, opts.title),
    head.svg,
    ...logTicks(lo, hi).map(
      (t) =>
        line(x(t), top - 6, x(t), H - M.b, 'class="grid"') +
        text(x(t), H - M.b + 16, nsLabel(t), 'text-anchor="middle"'),
    ),
    ...rows.map(([op, l], i) => row(op, l, top + (i + 0.5) * ROW, left, x)),
    line(left, H - M.b, W - M.r, H - M.b, 'class="axis"'),
    text((left + W - M.r) / 2, H - 4, 'latency (log scale)', 'text-anchor="middle" class="muted"'),
    '</svg>',
  ];
  return parts.join('');
}

/** One operation: its name, a grey span from p50 to p999 and the percentiles' dots (hover: the value). */
function row(op: string, l: LatencySummary, y: number, left: number, x: (ns: number) => number): string {
  const at = (p: (typeof PERCENTILES)[number]) => x(l[p] * 1e6);
  return [
    text(left - 8, y + 4, shortLabel(op), 'text-anchor="end"'),
    line(at('p50'), y, at('p999'), y, 'class="axis"'),
    ...PERCENTILES.map((p, i) => dot(at(p), y, 4, color(i), `${op} ${p} ${millis(l[p])} ms`)),
  ].join('');
}
