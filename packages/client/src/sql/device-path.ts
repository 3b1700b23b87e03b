import { pathLevels, pathSeparators } from '@iotdb/fast-serializer';
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

/**
 * A device as IoTDB names it, for telling two spellings of one apart: its nodes without their backquotes, joined by NUL
 * (`` root.sg.`d1` `` is root.sg.d1; `` root.sg.`a.b` `` is not root.sg.a.b).
 */
export function deviceName(path: string): string {
  return path.includes('`') ? pathNodes(path).join('\u0000') : path.replaceAll('.', '\u0000');
}

/**
 * The nodes of `path`, each as IoTDB names it: without its backquotes (`` root.sg.`d.1`.`a``b` `` is root, sg, d.1,
 * a`b), so that two spellings of one path compare equal.
 */
export function pathNodes(path: string): string[] {
  return pathLevels(path).map(unquoted);
}

/** A node as spelt, without its backquotes: `` `a``b` `` is a`b. */
function unquoted(node: string): string {
  if (!node.includes('`')) return node;
  let name = '';
  let quoted = false;
  for (let i = 0; i < node.length; i++) {
    if (node[i] !== '`') name += node[i];
    else if (quoted && node[i + 1] === '`') name += node[++i];
    else quoted = !quoted;
  }
  return name;
}
