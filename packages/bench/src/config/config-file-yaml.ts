/**
 * A YAML config file (the `yaml` package, YAML 1.2): a map of knobs at the top, anything YAML can say below it
 * (comments, quotes, block and flow lists and maps, multi-line strings, anchors, aliases and `<<` merge keys).
 * Scalars stay text, as flags and environment variables are, and the knobs parse them (`workers: 4` is "4",
 * `typeProportions: 1:1:1:1:1:1` is not read as a number); a plain `null`, `~` or nothing is "not set".
 * Errors name the line.
 */
import { isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { ConfigError } from './errors.js';
import type { RawValue } from './parsers.js';

export interface ConfigEntry {
  key: string;
  value: RawValue;
  /** the key's line (for a key brought in by `<<: *anchor`, the line of the `<<`); none in JSON */
  line: number | undefined;
}

const MERGE = '<<';

export function yamlEntries(text: string, path: string): ConfigEntry[] {
  const lines = new LineCounter();
  // failsafe: every scalar a string, plus the null tag; keys must be unique
  const doc = parseDocument(text, {
    schema: 'failsafe',
    customTags: ['null'],
    merge: true,
    uniqueKeys: true,
    lineCounter: lines,
  });
  const fail = (line: number | undefined, why: string, knob = 'config'): never => {
    throw new ConfigError(knob, `${path}${line === undefined ? '' : `:${line}`}: ${why}`);
  };
  const lineAt = (offset: number) => lines.linePos(offset).line;

  const problem = [...doc.errors, ...doc.warnings][0];
  if (problem !== undefined) fail(lineAt(problem.pos[0]), `invalid YAML: ${problem.message.split(' at line ')[0]}`);
  // toJS() would reject an alias without its anchor by name only
  visit(doc, {
    Alias(_, node) {
      if (node.resolve(doc) === undefined)
        fail(lineAt(node.range![0]), `alias *${node.source} has no anchor before it`);
    },
  });
  if (doc.contents === null) return [];
  if (!isMap(doc.contents)) return fail(lineAt(doc.contents.range[0]), 'needs a map of knobs ("key: value" lines)');

  const keyLines = new Map<string, number>();
  for (const { key } of doc.contents.items) {
    if (!isScalar(key)) return fail(lineAt(doc.contents.range[0]), 'keys must be knob names');
    // a merge key's value is a symbol
    keyLines.set(typeof key.value === 'symbol' ? MERGE : String(key.value), lineAt(key.range[0]));
  }
  const data = doc.toJS() as Record<string, unknown>;
  return Object.entries(data).map(([key, value]) => {
    const line = keyLines.get(key) ?? keyLines.get(MERGE);
    const raw = rawValue(value);
    if (raw === undefined) return fail(line, `${key}: a YAML value the knobs do not take (a tagged value?)`, key);
    return { key, value: raw, line };
  });
}

/** The value as the knob parsers take it; undefined for anything else (`!!binary` makes a Buffer). */
function rawValue(v: unknown): RawValue | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) {
    const items = v.map(rawValue);
    return items.includes(undefined) ? undefined : (items as RawValue[]);
  }
  if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return undefined;
  const entries = Object.entries(v).map(([k, item]) => [k, rawValue(item)] as const);
  return entries.some(([, item]) => item === undefined) ? undefined : (Object.fromEntries(entries) as RawValue);
}
