/**
 * Knobs given on the command line that the run would not use: refused with the reason rather than ignored (most
 * often what was meant to use them is missing). Given by a config file or the environment, shared by runs that use
 * them, they may stay.
 */
import { TSDataType } from '@iotdb/client';
import type { BenchConfig } from '../types.js';
import { hasQueries, readsOnly } from '../workload/operations.js';
import { sensorTypes } from '../workload/schema.js';
import type { Knobs } from './contradictions.js';
import { QUERY_KNOBS } from './knobs.js';

export function checkUnusedKnobs(k: Knobs): void {
  checkMethodKnobs(k);
  checkDataKnobs(k);
  checkQueryKnobs(k);
}

/** Whether the run writes (not a query file, nor queries alone): else the write workload's knobs may stay unused. */
function writesData(c: BenchConfig): boolean {
  return c.queryFile === undefined && !readsOnly(c.operationProportion);
}

/** A write method's knob where no method run uses it. */
function checkMethodKnobs({ c, is, fail, methods, methodKey, flagged }: Knobs): void {
  if (!writesData(c)) return;
  if (flagged('tabletsPerRequest') && methods.every((m) => m === 'insertTablet'))
    fail(
      'tabletsPerRequest',
      `${is('tabletsPerRequest')} is how many devices an insertTablets or insertRecords call carries, but ` +
        `${is(methodKey)} writes one tablet a call: give --method insertTablets (or another that groups devices)`,
    );
  if (flagged('interlacedDevices') && !methods.includes('insertRecords'))
    fail(
      'interlacedDevices',
      `${is('interlacedDevices')} orders the records of insertRecords, and ${is(methodKey)} makes none`,
    );
}

const TEXT_LIKE: ReadonlySet<TSDataType> = new Set([TSDataType.TEXT, TSDataType.STRING, TSDataType.BLOB]);

/** A knob of the written data given by flag where the data has nothing for it to shape: refused, not ignored. */
function checkDataKnobs({ c, is, fail, flagged }: Knobs): void {
  if (!writesData(c)) return;
  if (flagged('outOfOrderRange') && c.outOfOrderRatio === 0)
    fail(
      'outOfOrderRange',
      `${is('outOfOrderRange')} is how far out-of-order rows move, and ${is('outOfOrderRatio')} puts none out of order`,
    );
  if (flagged('stringLength') && !sensorTypes(c).some((t) => TEXT_LIKE.has(t)))
    fail(
      'stringLength',
      `${is('stringLength')} sizes TEXT, STRING and BLOB values, and the schema has no TEXT, STRING or BLOB sensor (${is('typeProportions')})`,
    );
}

/**
 * A knob of the benchmark's own queries (QUERY_KNOBS) given by flag to a run that draws none would change nothing:
 * most often the mix meant to use it is missing. A config file's or the environment's may stay, shared with runs
 * that query.
 */
function checkQueryKnobs({ c, is, fail, flagged }: Knobs): void {
  const afterWrites = c.queries.length > 0;
  const drawn = (key: keyof BenchConfig) =>
    c.queryFile === undefined && (afterWrites || (key !== 'queryLoops' && hasQueries(c.operationProportion)));
  const unused = QUERY_KNOBS.find((key) => flagged(key) && !drawn(key));
  if (unused === undefined) return;
  if (unused === 'queryLoops' && c.queryFile === undefined)
    fail(unused, `${is(unused)} counts each --queries type's runs after the writes, and this run has no --queries`);
  const why =
    c.queryFile !== undefined
      ? "a query file's statements are its own SQL"
      : 'give query weights in --operation-proportion, or --queries, for it to shape them';
  fail(
    unused,
    `${is(unused)} shapes the benchmark's own queries, and this run draws none of the benchmark's queries: ${why}`,
  );
}
