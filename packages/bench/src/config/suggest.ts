import leven from 'leven';

/** "did you mean" for unknown flags and config-file keys. */

const normal = (s: string): string => s.replace(/^-+/, '').replace(/[-_]/g, '').toLowerCase();

/**
 * The candidate nearest `name` as ` (did you mean X?)`: the same but for case, dashes or underscores, or else
 * within two edits of it (`--devcies`, `--warmpu-seconds`); '' when none is that near.
 */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const wanted = normal(name);
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = leven(normal(c), wanted, { maxDistance: bestDistance });
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best === undefined ? '' : ` (did you mean ${best}?)`;
}
