/**
 * Latency histogram chart on a logarithmic time axis. The 64 sub-buckets per octave are merged 8 at a
 * time, which is fine enough to see the shape and keeps the SVG small. Those bins are equally wide in
 * ns within an octave, so on the log axis the first of an octave is wider than the last: bar heights are
 * operations per 1/8 octave, not per bin, or every octave would start with a spurious step.
 */
import type { HistogramData } from '../types.js';
import { bucketBoundsNs, LatencyHistogram } from './histogram.js';
import { atLeastADecade, logTicks, nsLabel } from './log-axis.js';
import { compact, millis } from './numbers.js';
import { color, emptyChart, line, linear, niceTicks, rect, svgOpen, text, yGrid } from './svg.js';

const MERGE = 8;

interface Bin {
  loNs: number;
  hiNs: number;
  count: number;
}

/** non-empty range of merged bins, leading and trailing empty bins dropped */
function histogramBins(data: HistogramData): Bin[] {
  const bins: Bin[] = [];
  for (let i = 0; i < data.counts.length; i++) {
    const key = i === 0 ? 0 : 1 + Math.floor((i - 1) / MERGE);
    const [lo, hi] = bucketBoundsNs(i);
    const bin = bins[key];
    if (bin === undefined) bins[key] = { loNs: lo, hiNs: hi, count: data.counts[i] };
    else {
      bin.hiNs = hi;
      bin.count += data.counts[i];
    }
  }
  const first = bins.findIndex((b) => b.count > 0);
  if (first < 0) return [];
  let last = bins.length - 1;
  while (bins[last].count === 0) last--;
  return bins.slice(first, last + 1);
}

const W = 760;
const H = 260;
const M = { l: 64, r: 20, t: 34, b: 40 };

/** The log time axis (ns to x) and the bars' heights (y); lo and hi are the axis's ends. */
interface Frame {
  lo: number;
  hi: number;
  x: (ns: number) => number;
  y: (density: number) => number;
  yTicks: number[];
}

// the underflow bin starts at 0, which has no place on a log axis: draw it one octave wide
const start = (b: Bin): number => Math.max(b.loNs, b.hiNs / 2);
const density = (b: Bin): number => b.count / (MERGE * Math.log2(b.hiNs / start(b)));

export function histogramChart(opts: { title: string; data: HistogramData; colorIndex?: number }): string {
  const bins = histogramBins(opts.data);
  if (bins.length === 0) return emptyChart(W, H, opts.title);
  const f = frame(bins);
  const h = LatencyHistogram.from(opts.data);
  const parts = [
    svgOpen(W, H, opts.title),
    text(M.l, 18, opts.title, 'class="title"'),
    yGrid(f.yTicks, f.y, M.l, W - M.r, compact),
    ...bars(f, bins, color(opts.colorIndex ?? 0)),
    ...logTicks(f.lo, f.hi).map(
      (t) =>
        line(f.x(t), H - M.b, f.x(t), H - M.b + 4, 'class="axis"') +
        text(f.x(t), H - M.b + 16, nsLabel(t), 'text-anchor="middle"'),
    ),
    percentileMark(f, 'p50', h.percentile(50), 0),
    percentileMark(f, 'p99', h.percentile(99), 1),
    line(M.l, H - M.b, W - M.r, H - M.b, 'class="axis"'),
    text(
      (M.l + W - M.r) / 2,
      H - 6,
      'latency (log scale); bar height: operations per 1/8 octave',
      'text-anchor="middle" class="muted"',
    ),
    '</svg>',
  ];
  return parts.join('');
}

function frame(bins: Bin[]): Frame {
  const [lo, hi] = atLeastADecade(start(bins[0]), bins[bins.length - 1].hiNs);
  const lx = linear(Math.log10(lo), Math.log10(hi), M.l, W - M.r);
  const yTicks = niceTicks(Math.max(...bins.map(density)), 4);
  return {
    lo,
    hi,
    x: (ns) => lx(Math.log10(Math.max(ns, lo))),
    y: linear(0, yTicks[yTicks.length - 1], H - M.b, M.t),
    yTicks,
  };
}

function bars(f: Frame, bins: Bin[], fill: string): string[] {
  return bins
    .filter((b) => b.count > 0)
    .map((b) => {
      const top = f.y(density(b));
      const x0 = f.x(start(b));
      const tip = `${nsLabel(b.loNs)}–${nsLabel(b.hiNs)}: ${b.count}`;
      return rect(x0, top, Math.max(1, f.x(b.hiNs) - x0 - 0.5), H - M.b - top, fill, tip);
    });
}

/** A percentile's line and label; labels one row apart so that close marks do not overwrite each other. */
function percentileMark(f: Frame, name: string, ns: number, row: number): string {
  // left of the line near the right edge
  const right = f.x(ns) > W - M.r - 100;
  const anchor = right ? ' text-anchor="end"' : '';
  const at = f.x(ns) + (right ? -3 : 3);
  const label = text(at, M.t + 10 + 12 * row, `${name} ${millis(ns / 1e6)} ms`, `class="small"${anchor}`);
  return line(f.x(ns), M.t, f.x(ns), H - M.b, 'class="mark"') + label;
}
