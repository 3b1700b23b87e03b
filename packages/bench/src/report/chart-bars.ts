/** Bar charts: grouped vertical bars (latency percentiles per op kind) and horizontal bars (runs compared). */
import { compact } from './numbers.js';
import { c, color, emptyChart, legend, line, linear, niceTicks, rect, svgOpen, text, yGrid } from './svg.js';

export interface BarGroup {
  label: string;
  /** one value per opts.series entry */
  values: number[];
}

/** groups side by side, in each group one bar per series (same colour across groups) */
export function groupedBarChart(opts: {
  title: string;
  yLabel: string;
  series: string[];
  groups: BarGroup[];
  /** the text above a bar; default compact() */
  valueLabel?: (v: number) => string;
}): string {
  const label = opts.valueLabel ?? compact;
  const W = 760;
  const H = 300;
  const m = { l: 64, r: 20, t: 34, b: 40 };
  if (opts.groups.length === 0 || opts.series.length === 0) return emptyChart(W, H, opts.title);
  const yTicks = niceTicks(Math.max(...opts.groups.flatMap((g) => g.values)));
  const y = linear(0, yTicks[yTicks.length - 1], H - m.b, m.t);
  const groupW = (W - m.l - m.r) / opts.groups.length;
  const barW = Math.min(48, (groupW * 0.8) / opts.series.length);
  const parts = [
    svgOpen(W, H, opts.title),
    text(m.l, 18, opts.title, 'class="title"'),
    yGrid(yTicks, y, m.l, W - m.r, compact),
    text(
      14,
      (m.t + H - m.b) / 2,
      opts.yLabel,
      `text-anchor="middle" class="muted" transform="rotate(-90 14 ${c((m.t + H - m.b) / 2)})"`,
    ),
  ];
  opts.groups.forEach((g, gi) => {
    const mid = m.l + groupW * (gi + 0.5);
    const x0 = mid - (barW * opts.series.length) / 2;
    g.values.forEach((v, si) => {
      const top = y(Math.max(0, v));
      parts.push(
        rect(x0 + si * barW, top, barW - 2, H - m.b - top, color(si), `${opts.series[si]} ${label(v)}`),
        text(x0 + (si + 0.5) * barW - 1, top - 3, label(v), 'text-anchor="middle" class="small"'),
      );
    });
    parts.push(text(mid, H - m.b + 16, g.label, 'text-anchor="middle"'));
  });
  parts.push(
    line(m.l, H - m.b, W - m.r, H - m.b, 'class="axis"'),
    legend(
      opts.series.map((name, i) => ({ name, fill: color(i) })),
      W - m.r,
      18,
    ),
    '</svg>',
  );
  return parts.join('');
}

export interface HBar {
  label: string;
  value: number;
  /** text after the bar; defaults to the value */
  note?: string;
}

/** one horizontal bar per entry, all on one scale starting at 0 */
export function hBarChart(opts: { title: string; bars: HBar[] }): string {
  const W = 760;
  const rowH = 26;
  const m = { l: 150, r: 190, t: 34, b: 12 };
  const H = m.t + m.b + Math.max(1, opts.bars.length) * rowH;
  if (opts.bars.length === 0) return emptyChart(W, H, opts.title);
  const max = Math.max(...opts.bars.map((b) => b.value));
  const x = linear(0, max > 0 ? max : 1, m.l, W - m.r);
  const parts = [svgOpen(W, H, opts.title), text(10, 18, opts.title, 'class="title"')];
  opts.bars.forEach((b, i) => {
    const top = m.t + i * rowH;
    const w = Math.max(0, x(b.value) - m.l);
    parts.push(
      text(
        m.l - 8,
        top + rowH / 2 + 4,
        b.label.length > 22 ? `${b.label.slice(0, 21)}…` : b.label,
        'text-anchor="end"',
      ),
      rect(m.l, top + 3, w, rowH - 6, color(i), b.label),
      text(m.l + w + 6, top + rowH / 2 + 4, b.note ?? compact(b.value)),
    );
  });
  parts.push(line(m.l, m.t, m.l, H - m.b, 'class="axis"'), '</svg>');
  return parts.join('');
}
