/** "did you mean" for unknown flags and config-file keys. */

const normal = (s: string): string => s.replace(/^-+/, '').replace(/[-_]/g, '').toLowerCase();

/** The candidate that differs from `name` only in case, dashes or underscores, as ` (did you mean X?)`. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const hit = candidates.find((c) => normal(c) === normal(name));
  return hit === undefined ? '' : ` (did you mean ${hit}?)`;
}
