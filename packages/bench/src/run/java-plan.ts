import type { BenchConfig } from '../types.js';
import { querySensors } from '../workload/query-sql.js';
import { clientOperations, warmupOperations } from './client-operations.js';
import { everyClient } from './device-shares.js';

/**
 * A mixed run's operations for the Java client (`--vs-java` with `--operation-proportion`), one line each, as
 * java/Bench.java's `plan=FILE` reads them, made as they are taken (a long run's are millions): per client (worker x
 * clients + k, a Java thread each) its untimed warm-up, then the very writes and statements ours ran, in the same
 * order:
 *   `<client> warmup <round> <device>,<device>...`, `<client> warmup-query <QUERY_KIND> <sql>` (untimed),
 *   `<client> write <round> <device>,...`, `<client> query <QUERY_KIND> <sql>`
 * A queries-only run writes nothing: the Java client reads what the write run before stored.
 */
export function* javaPlan(c: BenchConfig): Generator<string, void, undefined> {
  const sensors = querySensors(c);
  for (const { id, groups } of everyClient(c)) {
    for (const o of warmupOperations(c, groups, sensors))
      yield o.op === 'INGESTION'
        ? `${id} warmup ${o.round} ${o.devices.join(',')}`
        : `${id} warmup-query ${o.op} ${o.sql}`;
    for (const o of clientOperations(c, groups, sensors))
      yield o.op === 'INGESTION' ? `${id} write ${o.round} ${o.devices.join(',')}` : `${id} query ${o.op} ${o.sql}`;
  }
}
