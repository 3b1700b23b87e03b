import { nearestName } from '@iotdb/fast-serializer';

/** "did you mean" for unknown flags and config-file keys. */

const normal = (s: string): string => s.replace(/^-+/, '').replace(/[-_]/g, '').toLowerCase();

/**
 * The candidate nearest `name` as ` (did you mean X?)`: the same but for case, dashes or underscores, or else
 * within two edits of it (`--devcies`, `--warmpu-rounds`); '' when none is that near. The client's option checks
 * suggest with the same nearestName.
 */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const normals = candidates.map(normal);
  const near = nearestName(normal(name), normals);
  return near === undefined ? '' : ` (did you mean ${candidates[normals.indexOf(near)]}?)`;
}
