/** The cells of the CSV files (results.csv, latency.csv, latency-over-time.csv), one rule for all three. */

/**
 * RFC 4180 quoting, only where needed (labels may hold commas). A text a spreadsheet would run as a formula (a
 * query file's label starting =, +, -, @, tab or CR) gets a leading apostrophe, OWASP's advice for CSV injection:
 * Excel and LibreOffice show it as text. Numbers, negative ones too, stay numbers.
 */
export function csvCell(v: string): string {
  const text = FORMULA_START.test(v) && !NUMBER_OR_NONE.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const FORMULA_START = /^[=+\-@\t\r]/;
// "-" is a figure not recorded
const NUMBER_OR_NONE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$|^-$/i;

/** Rows of cells as a CSV file's text, a line each, the last ended too. */
export function csvText(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
