import stringWidth from 'string-width';

/**
 * The columns a text takes on a terminal, which its length is not: a CJK character takes two (a query file's label
 * may be Chinese), a combining mark none.
 */
export const columns = (text: string): number => stringWidth(text);

/** The text, then blanks to `width` columns. */
export const padEnd = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - columns(text)));

/** Blanks to `width` columns, then the text. */
export const padStart = (text: string, width: number): string => ' '.repeat(Math.max(0, width - columns(text))) + text;

const segmenter = new Intl.Segmenter();

/** The characters a reader sees (`e` and its combining accent are one), each with its columns. */
export function characters(text: string): { text: string; columns: number }[] {
  return Array.from(segmenter.segment(text), ({ segment }) => ({ text: segment, columns: columns(segment) }));
}
