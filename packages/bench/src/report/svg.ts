/**
 * Small helpers for the inline SVG charts of report.html. The SVG has no xmlns attribute: inside HTML
 * it is not needed, and leaving it out keeps the page free of any http:// text.
 */
import { characters, columns } from './text-columns.js';

const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

export function color(i: number): string {
  return PALETTE[i % PALETTE.length];
}

/**
 * Escapes text for HTML and SVG. "://" becomes ":&#47;&#47;" as well: it reads the same, and the page
 * then holds no http(s):// string at all (error messages may quote URLs), which is easy to check.
 */
export function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/:\/\//g, ':&#47;&#47;');
}

/** a coordinate, rounded to keep the markup short */
export function c(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** maps [d0, d1] onto [r0, r1] */
export function linear(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** ticks 0, step, 2·step, ... up to the first multiple of step >= max, with step 1, 2 or 5 · 10^k */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step * 1e-9 || ticks.length < 2; i++) ticks.push(i * step);
  if (ticks[ticks.length - 1] < max) ticks.push(ticks.length * step);
  return ticks;
}

export function svgOpen(width: number, height: number, title: string): string {
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>`;
}

export function text(x: number, y: number, s: string, attrs = ''): string {
  return `<text x="${c(x)}" y="${c(y)}"${attrs === '' ? '' : ` ${attrs}`}>${esc(s)}</text>`;
}

/** a filled rectangle with a hover tooltip */
export function rect(x: number, y: number, w: number, h: number, fill: string, tip: string): string {
  return `<rect x="${c(x)}" y="${c(y)}" width="${c(w)}" height="${c(h)}" fill="${fill}"><title>${esc(tip)}</title></rect>`;
}

/** a filled circle with a hover tooltip */
export function dot(x: number, y: number, r: number, fill: string, tip: string): string {
  return `<circle cx="${c(x)}" cy="${c(y)}" r="${r}" fill="${fill}"><title>${esc(tip)}</title></circle>`;
}

/**
 * About how wide `s` is at the charts' 12 px font: capitals and `_` ~8 px, the rest ~6.6, a character two columns
 * wide on a terminal (CJK) 12, a combining mark nothing (an estimate for the margin a column of labels needs; a query
 * type's name is all capitals).
 */
function textWidth(s: string): number {
  let w = 0;
  for (const ch of characters(s)) w += ch.columns * (ch.columns > 1 ? 6 : /[A-Z_#%@]/.test(ch.text) ? 8.2 : 6.6);
  return w;
}

/** The most columns of a chart's row label (`uncorrected VALUE_RANGE_QUERY_DESC` is 34; a CJK character takes two). */
const LONGEST_LABEL = 36;

/** The left margin a column of row labels (shortLabel's) needs, right-aligned 8 px before the plot. */
export function labelMargin(labels: readonly string[]): number {
  return 14 + Math.max(0, ...labels.map((l) => textWidth(shortLabel(l))));
}

/**
 * A label cut to `max` columns in the middle, between whole characters, so that labels told apart by their end stay
 * apart (`tree-insertTablet-mixed#1` and `#2`, `uncorrected VALUE_RANGE_QUERY_DESC`).
 */
export function shortLabel(s: string, max = LONGEST_LABEL): string {
  if (columns(s) <= max) return s;
  const chars = characters(s);
  const tail = Math.floor((max - 1) / 2);
  const end = fitting([...chars].reverse(), tail).reverse();
  return `${fitting(chars, max - 1 - tail).join('')}…${end.join('')}`;
}

/** As many of `chars`, from the first, as fit in `width` columns. */
function fitting(chars: readonly { text: string; columns: number }[], width: number): string[] {
  const kept: string[] = [];
  for (const ch of chars) {
    width -= ch.columns;
    if (width < 0) break;
    kept.push(ch.text);
  }
  return kept;
}

export function line(x1: number, y1: number, x2: number, y2: number, attrs: string): string {
  return `<line x1="${c(x1)}" y1="${c(y1)}" x2="${c(x2)}" y2="${c(y2)}" ${attrs}/>`;
}

/** horizontal grid lines with labels at the y ticks, and the two axes */
export function yGrid(
  ticks: number[],
  y: (v: number) => number,
  left: number,
  right: number,
  label: (v: number) => string,
): string {
  const parts = ticks.map(
    (t) => line(left, y(t), right, y(t), 'class="grid"') + text(left - 6, y(t) + 4, label(t), 'text-anchor="end"'),
  );
  return parts.join('');
}

/** a chart with nothing to draw still gets its frame, so the page layout does not jump */
export function emptyChart(width: number, height: number, title: string): string {
  return `${svgOpen(width, height, title)}${text(width / 2, height / 2, `${title}: no data`, 'text-anchor="middle" class="muted"')}</svg>`;
}

/** The row under a chart's title where its legend goes when the two do not fit on one row. */
const SECOND_ROW = 36;

/**
 * A chart's title at (`left`, 18) and, when there are entries, its legend at the top right: on the title's row
 * when both fit there, else on a row of its own under it. `drop`: how much lower that puts the header's bottom (0 or
 * the second row's height), for the chart to move its plot down by.
 */
export function titleAndLegend(
  title: string,
  left: number,
  entries: { name: string; fill: string }[],
  right: number,
): { svg: string; drop: number } {
  const head = text(left, 18, title, 'class="title"');
  if (entries.length === 0) return { svg: head, drop: 0 };
  // the title's 14 px bold runs about 1.2x the 12 px estimate; 16 px between the two
  const fits = left + textWidth(title) * 1.2 + 16 <= right - legendWidth(entries);
  const top = fits ? 18 : SECOND_ROW;
  return { svg: head + legend(entries, right, top), drop: top - 18 };
}

/** How wide legend() draws `entries`. */
function legendWidth(entries: { name: string }[]): number {
  return entries.reduce((w, e) => w + legendEntryWidth(e.name), 0);
}

/** One legend entry's width: its swatch and gap, and ~7 px per column at the 12 px font (a CJK character two). */
function legendEntryWidth(name: string): number {
  return 18 + columns(name) * 7;
}

/** a legend row of colour swatches, top right */
export function legend(entries: { name: string; fill: string }[], right: number, top: number): string {
  let x = right;
  const items: string[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    x -= legendEntryWidth(entries[i].name);
    items.push(
      `<rect x="${c(x)}" y="${c(top - 9)}" width="10" height="10" fill="${entries[i].fill}"/>` +
        text(x + 14, top, entries[i].name),
    );
  }
  return items.join('');
}
