/**
 * typeProportions: iot-benchmark's INSERT_DATATYPE_PROPORTION, weights in TSDataType order
 * BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT, optionally followed by TIMESTAMP:DATE:BLOB:STRING (0 when left out).
 */
import type { TSDataTypeName } from '@iotdb/client';
import type { Parser } from './parsers.js';
import { weightsParser } from './weights.js';

type Proportions = Record<TSDataTypeName, number>;

/** The ten types in TSDataType order, the order of INSERT_DATATYPE_PROPORTION. */
export const TYPE_ORDER = [
  'BOOLEAN',
  'INT32',
  'INT64',
  'FLOAT',
  'DOUBLE',
  'TEXT',
  'TIMESTAMP',
  'DATE',
  'BLOB',
  'STRING',
] as const;

// compile-time check: TYPE_ORDER lists every TSDataTypeName (a missing one makes this object lack a key)
const everyTypeListed: Record<Exclude<TSDataTypeName, (typeof TYPE_ORDER)[number]>, never> = {};
void everyTypeListed;

const NEEDS =
  'needs 6 or 10 weights >= 0, at least one > 0, as BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT[:TIMESTAMP:DATE:BLOB:STRING]';

/** Every type at weight 0 except those given. */
export function proportions(weights: Partial<Proportions>): Proportions {
  const out = {} as Proportions;
  for (const t of TYPE_ORDER) out[t] = weights[t] ?? 0;
  return out;
}

/** `1:1:1:1:1:1`, a list of 6 or 10 weights, or (JSON) an object {FLOAT: 3, ...} with the others 0. */
export const parseTypeProportions: Parser<Proportions> = weightsParser(TYPE_ORDER, [6, 10], NEEDS);

/** The colon form, 6 weights when the last four are 0, else 10. */
export function formatProportions(p: Proportions): string {
  const weights = TYPE_ORDER.map((t) => p[t]);
  return (weights.slice(6).every((w) => w === 0) ? weights.slice(0, 6) : weights).join(':');
}

/** Same shares of each type (weights may differ by a common factor: 1:1 is 2:2). */
export function sameProportions(a: Proportions, b: Proportions): boolean {
  const sa = TYPE_ORDER.reduce((n, t) => n + a[t], 0);
  const sb = TYPE_ORDER.reduce((n, t) => n + b[t], 0);
  return TYPE_ORDER.every((t) => Math.abs(a[t] * sb - b[t] * sa) <= 1e-9 * sa * sb);
}
