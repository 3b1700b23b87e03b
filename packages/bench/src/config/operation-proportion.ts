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
import type { Parser } from './parsers.js';
import { weightsParser } from './weights.js';

export const parseOperationProportion: Parser<OperationWeights> = weightsParser(
  OPERATIONS,
  [OPERATIONS.length],
  `needs ${OPERATIONS.length} weights >= 0, at least one > 0, as ${OPERATIONS.join(':')}`,
);

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
