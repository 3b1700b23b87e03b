/** Line chart (one line per series) for throughput over time. */
import { compact } from './numbers.js';
import { c, color, emptyChart, legend, line, linear, niceTicks, svgOpen, text, yGrid } from './svg.js';

export interface Series {
  name: string;
  points: [number, number][];
}

export function lineChart(opts: { title: string; xLabel: string; yLabel: string; series: Series[] }): string {
  const W = 760;
  const H = 320;
  const m = { l: 64, r: 20, t: 34, b: 44 };
  // colours follow the position in opts.series, so a run keeps its colour when another has no samples
  const series = opts.series.map((s, i) => ({ ...s, fill: color(i) })).filter((s) => s.points.length > 0);
  if (series.length === 0) return emptyChart(W, H, opts.title);
  const all = series.flatMap((s) => s.points);
  const xTicks = niceTicks(Math.max(...all.map(([x]) => x)), 8);
  const yTicks = niceTicks(Math.max(...all.map(([, y]) => y)));
  const x = linear(0, xTicks[xTicks.length - 1], m.l, W - m.r);
  const y = linear(0, yTicks[yTicks.length - 1], H - m.b, m.t);
  const parts = [
    svgOpen(W, H, opts.title),
    text(m.l, 18, opts.title, 'class="title"'),
    yGrid(yTicks, y, m.l, W - m.r, compact),
    ...xTicks.map(
      (t) =>
        line(x(t), H - m.b, x(t), H - m.b + 4, 'class="axis"') +
        text(x(t), H - m.b + 16, compact(t), 'text-anchor="middle"'),
    ),
    line(m.l, H - m.b, W - m.r, H - m.b, 'class="axis"'),
    line(m.l, m.t, m.l, H - m.b, 'class="axis"'),
    text((m.l + W - m.r) / 2, H - 8, opts.xLabel, 'text-anchor="middle" class="muted"'),
    text(
      14,
      (m.t + H - m.b) / 2,
      opts.yLabel,
      `text-anchor="middle" class="muted" transform="rotate(-90 14 ${c((m.t + H - m.b) / 2)})"`,
    ),
    ...series.map((s) => {
      const pts = s.points.map(([px, py]) => `${c(x(px))},${c(y(py))}`).join(' ');
      // a single sample would be an invisible polyline; draw it as a dot
      return s.points.length === 1
        ? `<circle cx="${c(x(s.points[0][0]))}" cy="${c(y(s.points[0][1]))}" r="3" fill="${s.fill}"/>`
        : `<polyline points="${pts}" fill="none" stroke="${s.fill}" stroke-width="1.8"/>`;
    }),
    // named whenever the page has several runs, also when only one of them was sampled (the Java client's is not)
    opts.series.length > 1 ? legend(series, W - m.r, 18) : '',
    '</svg>',
  ];
  return parts.join('');
}
