/**
 * The device that measurement paths all belong to (`root.sg.d1` for `root.sg.d1.s1` and `root.sg.d1.s2`), as a
 * write names it; undefined for paths of several devices or with a wildcard. A backquoted node stays whole
 * (`` root.sg.`d.1`.s `` is of `` root.sg.`d.1` ``).
 */
export function deviceOfPaths(paths: readonly string[]): string | undefined {
  let device: string | undefined;
  for (const path of paths) {
    if (path.includes('*')) return undefined;
    const end = lastSeparator(path);
    if (end <= 0) return undefined;
    if (device === undefined) device = path.slice(0, end);
    else if (device.length !== end || !path.startsWith(device)) return undefined;
  }
  return device;
}

/** The index of the last dot of `path` outside backquotes (a doubled backquote inside them toggles twice). */
function lastSeparator(path: string): number {
  let last = -1;
  let quoted = false;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x60) quoted = !quoted;
    else if (c === 0x2e && !quoted) last = i;
  }
  return last;
}

/**
 * The nodes of `path`, each as IoTDB names it: without its backquotes (`` root.sg.`d.1`.`a``b` `` is root, sg, d.1,
 * a`b), so that two spellings of one path compare equal.
 */
export function pathNodes(path: string): string[] {
  const nodes: string[] = [];
  let node = '';
  let quoted = false;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '`') {
      if (quoted && path[i + 1] === '`')
        node += path[++i]; // a doubled backquote inside: one of the name's
      else quoted = !quoted;
    } else if (c === '.' && !quoted) {
      nodes.push(node);
      node = '';
    } else node += c;
  }
  nodes.push(node);
  return nodes;
}
