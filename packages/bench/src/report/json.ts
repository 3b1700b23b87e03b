/**
 * results.json formatting: indented like JSON.stringify(v, null, 2), but arrays of numbers on one line.
 * Otherwise every histogram bucket and throughput sample would take a line of its own.
 */
export function prettyJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  // only arrays that span lines are touched: a JSON string never holds a raw newline, so no string changes
  return text.replace(/\[\s*-?[\d.eE+-]+(?:\s*,\s*-?[\d.eE+-]+)*\s*\]/g, (arr) =>
    arr.includes('\n') ? arr.replace(/\s+/g, '') : arr,
  );
}
