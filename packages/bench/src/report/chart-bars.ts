/** Horizontal bars: the runs' throughput side by side. */
import { compact } from './numbers.js';
import { color, emptyChart, labelMargin, line, linear, rect, shortLabel, svgOpen, text } from './svg.js';

interface HBar {
  label: string;
  value: number;
  /** text after the bar; defaults to the value */
  note?: string;
}

/** one horizontal bar per entry, all on one scale starting at 0 */
export function hBarChart(opts: { title: string; bars: HBar[] }): string {
  const W = 760;
  const rowH = 26;
  const m = { l: labelMargin(opts.bars.map((b) => b.label)), r: 190, t: 34, b: 12 };
  const H = m.t + m.b + Math.max(1, opts.bars.length) * rowH;
  if (opts.bars.length === 0) return emptyChart(W, H, opts.title);
  const max = Math.max(...opts.bars.map((b) => b.value));
  const x = linear(0, max > 0 ? max : 1, m.l, W - m.r);
  const parts = [svgOpen(W, H, opts.title), text(10, 18, opts.title, 'class="title"')];
  opts.bars.forEach((b, i) => {
    const top = m.t + i * rowH;
    const w = Math.max(0, x(b.value) - m.l);
    parts.push(
      text(m.l - 8, top + rowH / 2 + 4, shortLabel(b.label), 'text-anchor="end"'),
      rect(m.l, top + 3, w, rowH - 6, color(i), b.label),
      text(m.l + w + 6, top + rowH / 2 + 4, b.note ?? compact(b.value)),
    );
  });
  parts.push(line(m.l, m.t, m.l, H - m.b, 'class="axis"'), '</svg>');
  return parts.join('');
}
