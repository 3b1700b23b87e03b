import { pathSeparators } from '@iotdb/fast-serializer';
import { isPattern } from './escape.js';

/**
 * The device that measurement paths all belong to (`root.sg.d1` for `root.sg.d1.s1` and `root.sg.d1.s2`), as a
 * write names it; undefined for paths of several devices or with a wildcard. A backquoted node stays whole
 * (`` root.sg.`d.1`.s `` is of `` root.sg.`d.1` ``, `` root.sg.`d*`.s `` of `` root.sg.`d*` ``).
 */
export function deviceOfPaths(paths: readonly string[]): string | undefined {
  let device: string | undefined;
  for (const path of paths) {
    if (isPattern(path)) return undefined;
    const end = pathSeparators(path).at(-1) ?? -1;
    if (end <= 0) return undefined;
    if (device === undefined) device = path.slice(0, end);
    else if (device.length !== end || !path.startsWith(device)) return undefined;
  }
  return device;
}
