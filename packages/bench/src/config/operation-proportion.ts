/**
 * operationProportion: iot-benchmark's OPERATION_PROPORTION, eleven weights for INGESTION and the ten query
 * types (workload/operations.ts) as `1:0:0:0:0:0:0:0:0:0:0`, or (config file) an object {INGESTION: 2,
 * TIME_RANGE: 1} with the others 0. queries: query types by name (or by their former names).
 */
import {
  OPERATIONS,
  QUERY_ALIASES,
  QUERY_KINDS,
  type OperationWeights,
  type QueryKind,
} from '../workload/operations.js';
import { InvalidValue } from './errors.js';
import { nonNegativeNumber, type Parser, type RawValue } from './parsers.js';

const NEEDS = `needs ${OPERATIONS.length} weights >= 0, at least one > 0, as ${OPERATIONS.join(':')}`;

export const parseOperationProportion: Parser<OperationWeights> = (raw) => {
  const w =
    typeof raw === 'string'
      ? fromList(raw.split(':'))
      : Array.isArray(raw)
        ? fromList(raw)
        : typeof raw === 'object' && raw !== null
          ? fromObject(raw)
          : undefined;
  if (w === undefined || OPERATIONS.every((op) => w[op] === 0)) throw new InvalidValue(NEEDS);
  return w;
};

function fromList(items: RawValue[]): OperationWeights | undefined {
  if (items.length !== OPERATIONS.length) return undefined;
  const weights = items.map(nonNegativeNumber);
  if (weights.some((w) => w === undefined)) return undefined;
  return Object.fromEntries(OPERATIONS.map((op, i) => [op, weights[i]])) as OperationWeights;
}

function fromObject(o: { [key: string]: RawValue }): OperationWeights | undefined {
  const out = Object.fromEntries(OPERATIONS.map((op) => [op, 0])) as OperationWeights;
  for (const [key, value] of Object.entries(o)) {
    const op = OPERATIONS.find((name) => name === key);
    const w = nonNegativeNumber(value);
    if (op === undefined || w === undefined) return undefined;
    out[op] = w;
  }
  return out;
}

/** The colon form. */
export function formatOperationProportion(w: OperationWeights): string {
  return OPERATIONS.map((op) => w[op]).join(':');
}

/** A query type by name, any case, or by a name --queries took before (raw, aggregation, last, latest). */
export const parseQueryKind: Parser<QueryKind> = (raw) => {
  const name = typeof raw === 'string' ? raw.trim() : '';
  const kind = QUERY_KINDS.find((k) => k === name.toUpperCase()) ?? QUERY_ALIASES[name];
  if (kind === undefined) throw new InvalidValue(`needs one of ${QUERY_KINDS.join(', ')}`);
  return kind;
};
