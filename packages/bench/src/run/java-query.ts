import { fileURLToPath } from 'node:url';
import { runJavaScript } from './java-child.js';
import { errorField, keyValues } from './key-values.js';

const script = fileURLToPath(new URL('../../java/query.sh', import.meta.url));

/** One statement read to the end, every value of every row. */
export interface ReadPass {
  rows: number;
  /** non-null value cells (the time column not counted) */
  points: number;
  wallS: number;
  pointsPerS: number;
  /** client CPU (all threads) per million values, s */
  cpuSPerMpts: number;
}

/** A statement the Java client could not read (the server refused it): its error, as the client gave it. */
export interface FailedPass {
  error: string;
}

interface JavaQueryOptions {
  host: string;
  port: number;
  /** one statement, or several read in turn (each rep reads them all) */
  sql: string | readonly string[];
  fetchSize: number;
  reps: number;
  /** table model: a TableSession on `database` */
  database?: string;
  /** how it connects: java.ts javaConnectArgs (the compact protocol, TLS) */
  connect?: readonly string[];
}

/**
 * The Java client reading `sql` `reps` times on one session (java/QueryBench.java: SessionDataSet.iterator(),
 * every value through its typed getter). One JVM per call: the first reps warm its JIT.
 */
export async function runJavaQuery(o: JavaQueryOptions): Promise<(ReadPass | FailedPass)[]> {
  const args = [`host=${o.host}`, `port=${o.port}`, `fetch=${o.fetchSize}`, `reps=${o.reps}`];
  if (typeof o.sql === 'string') args.push(`sql=${o.sql}`);
  if (o.database !== undefined) args.push('table=true', `database=${o.database}`);
  args.push(...(o.connect ?? []));
  const statements = typeof o.sql === 'string' ? undefined : { key: 'file', lines: o.sql };
  return parseQueryResults(await runJavaScript(script, args, statements));
}

/**
 * QueryBench's QRESULT lines (a statement read) and QFAIL lines (one refused), in the order it ran them; an
 * error quoting the output when it printed none.
 */
export function parseQueryResults(out: string): (ReadPass | FailedPass)[] {
  const passes = out
    .split('\n')
    .filter((l) => l.startsWith('QRESULT ') || l.startsWith('QFAIL '))
    .map((l): ReadPass | FailedPass => {
      if (l.startsWith('QFAIL ')) return { error: errorField(l) };
      const kv = keyValues(l);
      return {
        rows: Number(kv.rows),
        points: Number(kv.points),
        wallS: Number(kv.wall_s),
        pointsPerS: Number(kv.points_per_s),
        cpuSPerMpts: Number(kv.client_cpu_s_per_Mpts),
      };
    });
  const complete = (p: ReadPass | FailedPass) => 'error' in p || Object.values(p).every((v) => Number.isFinite(v));
  if (passes.length === 0 || !passes.every(complete))
    throw new Error(`java/query.sh printed no complete QRESULT line:\n${out}`);
  return passes;
}
