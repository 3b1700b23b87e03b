/** Line chart (one line per series) of figures over time: throughput, operations, latency (a log axis). */
import { axisRange, logTicks } from './log-axis.js';
import { compact } from './numbers.js';
import { c, color, emptyChart, line, linear, niceTicks, svgOpen, text, titleAndLegend, yGrid } from './svg.js';

interface Series {
  name: string;
  points: [number, number][];
}

/** A y axis: its ticks and where a value goes. */
interface YAxis {
  ticks: number[];
  y: (v: number) => number;
}

/** From 0 to a nice step above the largest value. */
function linearAxis(values: number[], bottom: number, top: number): YAxis {
  const ticks = niceTicks(Math.max(...values));
  return { ticks, y: linear(0, ticks[ticks.length - 1], bottom, top) };
}

/** Decades (1-2-5 ticks) around the values; a value at or below the lowest tick sits on it. */
function logAxis(values: number[], bottom: number, top: number): YAxis {
  const { lo, hi } = axisRange(values);
  const to = linear(Math.log10(lo), Math.log10(hi), bottom, top);
  return { ticks: logTicks(lo, hi), y: (v) => to(Math.log10(Math.max(v, lo))) };
}

/**
 * `logY`: a log axis (latency, where a spell of seconds would flatten a steady state of milliseconds on a linear
 * one); else from 0.
 */
export function lineChart(opts: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  logY?: boolean;
}): string {
  const W = 760;
  const PLOT_H = 320; // with the title and legend on one row; a legend on a row of its own adds to it
  // colours follow the position in opts.series, so a run keeps its colour when another has no samples
  const series = opts.series.map((s, i) => ({ ...s, fill: color(i) })).filter((s) => s.points.length > 0);
  if (series.length === 0) return emptyChart(W, PLOT_H, opts.title);
  const m = { l: 64, r: 20, t: 34, b: 44 };
  // named whenever the page has several runs, also when only one of them was sampled (the Java client's is not)
  const head = titleAndLegend(opts.title, m.l, opts.series.length > 1 ? series : [], W - m.r);
  m.t += head.drop;
  const H = PLOT_H + head.drop;
  const all = series.flatMap((s) => s.points);
  const xTicks = niceTicks(Math.max(...all.map(([x]) => x)), 8);
  const ys = all.map(([, v]) => v);
  // a log axis needs a value above 0 to have ends
  const logY = opts.logY === true && ys.some((v) => v > 0 && Number.isFinite(v));
  const { ticks: yTicks, y } = (logY ? logAxis : linearAxis)(ys, H - m.b, m.t);
  const x = linear(0, xTicks[xTicks.length - 1], m.l, W - m.r);
  const parts = [
    svgOpen(W, H, opts.title),
    head.svg,
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
    // the first series drawn last, on top where lines meet: p99 over an equal max, ours over the Java client's
    ...[...series].reverse().map((s) => {
      const pts = s.points.map(([px, py]) => `${c(x(px))},${c(y(py))}`).join(' ');
      // a single sample would be an invisible polyline; draw it as a dot
      return s.points.length === 1
        ? `<circle cx="${c(x(s.points[0][0]))}" cy="${c(y(s.points[0][1]))}" r="3" fill="${s.fill}"/>`
        : `<polyline points="${pts}" fill="none" stroke="${s.fill}" stroke-width="1.8"/>`;
    }),
    '</svg>',
  ];
  return parts.join('');
}
