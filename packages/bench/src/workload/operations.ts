/**
 * The operations of a run, as iot-benchmark names them: INGESTION and its ten query types, in the order of
 * its OPERATION_PROPORTION.
 */
export const QUERY_KINDS = [
  'PRECISE_POINT',
  'TIME_RANGE',
  'VALUE_RANGE',
  'AGG_RANGE',
  'AGG_VALUE',
  'AGG_RANGE_VALUE',
  'GROUP_BY',
  'LATEST_POINT',
  'RANGE_QUERY_DESC',
  'VALUE_RANGE_QUERY_DESC',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export const OPERATIONS = ['INGESTION', ...QUERY_KINDS] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The names `--queries` took before the query types, still accepted. */
export const QUERY_ALIASES: Readonly<Record<string, QueryKind>> = {
  raw: 'TIME_RANGE',
  aggregation: 'GROUP_BY',
  last: 'LATEST_POINT',
  latest: 'RANGE_QUERY_DESC',
};

export type OperationWeights = Record<Operation, number>;

/** INGESTION only: a write run. */
export const WRITES_ONLY: Readonly<OperationWeights> = Object.fromEntries(
  OPERATIONS.map((op) => [op, op === 'INGESTION' ? 1 : 0]),
) as OperationWeights;

/** The query types with a weight above 0. */
export function weightedQueries(w: OperationWeights): QueryKind[] {
  return QUERY_KINDS.filter((k) => w[k] > 0);
}

/** Whether queries are among the operations (a mixed run, or one of queries only). */
export function hasQueries(w: OperationWeights): boolean {
  return QUERY_KINDS.some((k) => w[k] > 0);
}

/**
 * A run of queries only (INGESTION weight 0): it reads the data an earlier write run with the same knobs stored,
 * so it keeps the database and draws its time ranges over all of that data.
 */
export function readsOnly(w: OperationWeights): boolean {
  return w.INGESTION === 0;
}

/** The rows per device a write run with these knobs stored (its warm-up rounds and loop): what queries only read. */
export function storedRows(c: { warmupRounds: number; loop: number; batchSize: number }): number {
  return (c.warmupRounds + c.loop) * c.batchSize;
}

/**
 * The operation for a draw u in [0, 1): each operation owns a share of [0, 1) proportional to its weight,
 * in OPERATIONS order.
 */
export function pickOperation(w: OperationWeights, u: number): Operation {
  const total = OPERATIONS.reduce((n, op) => n + w[op], 0);
  let acc = 0;
  let last: Operation = 'INGESTION';
  for (const op of OPERATIONS) {
    if (w[op] === 0) continue;
    acc += w[op] / total;
    last = op;
    if (u < acc) return op;
  }
  return last; // u close to 1 and rounding: the last weighted operation
}
