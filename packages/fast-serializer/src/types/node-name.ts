/** Where a tree name stands: a measurement, or a level of a device's path (which takes a few more characters). */
export type NodeKind = 'measurement' | 'level';

/**
 * IoTDB's rule for a name in a tree path: a measurement or a level of a device's path (2.0.1-beta, probed by
 * insertTablet; node-names.integration.test.ts asks the server about generated names). Unquoted, a measurement
 * holds letters, digits, _ and the CJK characters U+2E80 to U+9FFF (a device's level also :, @, #, $, { and }), is
 * not a number (`123`, `1e5`; a measurement also `1d`, `2f`, `1L`: isMeasurementNumber) and is none of the words
 * the server keeps (`time`, `timestamp`, `root`, in any case). In backquotes it may hold anything, a backquote
 * written twice, but `time` and `timestamp` are still refused. The server refuses a request naming another ([509]
 * "a-b is not a legal path"), every other value of it with it (a batching writer's device): refused before sending,
 * the row alone.
 */
export function nodeNameProblem(name: string, kind: NodeKind = 'measurement'): string | undefined {
  if (kind === 'measurement' && GOOD.has(name)) return undefined;
  const problem = problemOf(name, kind);
  if (problem === undefined && kind === 'measurement') {
    if (GOOD.size >= GOOD_MAX) GOOD.clear();
    GOOD.add(name);
  }
  return problem;
}

/**
 * Measurements found good lately: a tablet's names are checked on every write, and the same few come again and
 * again (a set lookup: 0.85-0.9 against 3.5-4.2 us for a tablet of 50 names, measured). Emptied when full. (A
 * device's path is checked once as a whole: device-path.ts keeps its own.)
 */
const GOOD = new Set<string>();
const GOOD_MAX = 4096;

function problemOf(name: string, kind: NodeKind): string | undefined {
  if (name.length >= 2 && name[0] === '`' && name[name.length - 1] === '`') return backquotedProblem(name);
  if (!(kind === 'level' ? UNQUOTED_LEVEL : UNQUOTED).test(name)) {
    const doubled = name.includes('`') ? ', each backquote in it doubled' : '';
    const holds =
      kind === 'level'
        ? "a device's level holds letters, digits, _, :, @, #, $, {, }"
        : 'a measurement holds letters, digits, _';
    return `${illegal(name)}unquoted, ${holds} and CJK characters (U+2E80 to U+9FFF) only; put it in backquotes${doubled} (${quoted(name)})`;
  }
  if (kind === 'level' && name === '::')
    return `${illegal(name)}IoTDB's path parser reads :: as an operator; put it in backquotes (${quoted(name)})`;
  if (kind === 'level' ? isLevelNumber(name) : isMeasurementNumber(name))
    return `${illegal(name)}unquoted, a number; put it in backquotes (${quoted(name)})`;
  if (ROOT.test(name))
    return `${illegal(name)}unquoted, it names the root of the tree; put it in backquotes (${quoted(name)})`;
  return TIME_WORD.test(name) ? timeColumn(name) : undefined;
}

function backquotedProblem(name: string): string | undefined {
  const inner = name.slice(1, -1);
  if (inner.replaceAll('``', '').includes('`'))
    return `${illegal(name)}a backquote inside a backquoted name is written twice (${quoted(inner)})`;
  return TIME_WORD.test(inner) ? timeColumn(name) : undefined;
}

/** The words that name the time column, in any case, backquoted or not. */
const TIME_WORD = /^(?:time|timestamp)$/i;
/** The tree's root, in any case: a name only in backquotes. */
const ROOT = /^root$/i;

function timeColumn(name: string): string {
  return `${illegal(name)}time and timestamp (in any case, backquoted too) name the time column`;
}

const illegal = (name: string) => `${JSON.stringify(name)} is not a legal name in IoTDB: `;

/** The name in backquotes, each backquote in it doubled (a doubled one kept so). */
const quoted = (name: string) => `\`${name.replaceAll('``', '`').replaceAll('`', '``')}\``;

/** The characters IoTDB takes in an unquoted measurement. */
const UNQUOTED = /^[0-9A-Za-z_\u2E80-\u9FFF]+$/;
/** The characters IoTDB takes in an unquoted level of a device's path. */
const UNQUOTED_LEVEL = /^[0-9A-Za-z_:@#${}\u2E80-\u9FFF]+$/;
/** What IoTDB's path parser reads as a number in a device's level: digits, or digits e digits (`1e5`; not `1d`). */
export const isLevelNumber = (name: string): boolean => LEVEL_NUMBER.test(name);
const LEVEL_NUMBER = /^\d+(?:[eE]\d+)?$/;

/**
 * What IoTDB reads as a number in a measurement (its PathUtils.isRealNumber: commons-lang's NumberUtils.isCreatable
 * of the name past its leading zeros, one kept before an e): digits, an exponent, a d or f after them, or an l after
 * digits alone (`123`, `08`, `1e5`, `1d`, `2F`, `1L`, `0e1d` are numbers; `0d`, `0x1f`, `1e5l`, `1e` are names).
 */
function isMeasurementNumber(name: string): boolean {
  let digits = name.replace(LEADING_ZEROS, '');
  if (digits === '') return true; // zeros only
  if (digits.length < name.length && (digits[0] === 'e' || digits[0] === 'E')) digits = `0${digits}`; // 00e1: 0e1
  return MEASUREMENT_NUMBER.test(digits);
}

const LEADING_ZEROS = /^0+/;
const MEASUREMENT_NUMBER = /^\d+(?:(?:[eE]\d+)?[dDfF]?|[lL])$/;
