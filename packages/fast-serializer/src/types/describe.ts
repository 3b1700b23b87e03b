/** A cell value for an error message: its type and a short form, never a whole long string or a buffer's bytes. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v)}`;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  if (v instanceof Uint8Array) return `${v.constructor.name}(${v.length})`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'an invalid Date' : `Date ${v.toISOString()}`;
  return typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v;
}
