import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Session, SessionPool, TableSession, TableSessionPool, type Tablet } from '../index.js';

/**
 * The "what must show" of the faults issue, against real IoTDB 2.0.1-beta, with default options:
 * - 1 ConfigNode + 1 DataNode (a second cluster on other ports, started here): the DataNode stopped
 *   for 8 s and started again under three writers at once (one restart for all three): a tree-model pool
 *   and a table-model pool with 4 writes in flight each (the table model's 301s must not be mistaken for
 *   a 301 "Unknown database"), and a batching writer fed a row at a time: no write fails;
 *   Then its ConfigNode killed and started again 3 s later under a query and a write of a new device, which need it:
 *   both wait and go through;
 * - the suite's 1 ConfigNode + 2 DataNodes, each DataNode stopped for 8 s in turn (a rolling restart)
 *   under a pooled writer that lists both in nodeUrls: no write fails.
 * In both, the server then holds exactly the acknowledged points. They stop and start nodes, so they
 * run only when the suite manages the server.
 */
const server = inject('iotdb');
const control = server.control;
const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DOWN_MS = 8_000;
const IN_FLIGHT = 4;
const ROWS = 5;
const DEVICES = 20;

const script = (args: string[], env: Record<string, string> = {}) =>
  exec('bash', [control!.script, ...args], { timeout: 240_000, env: { ...process.env, ...env } });

async function restart(dir: string, node: string): Promise<void> {
  await script(['stop-node', dir, node]);
  await sleep(DOWN_MS);
  await script(['start-node', dir, node]);
}

interface Run {
  acked: number;
  failures: string[];
  tablets: number;
}

/**
 * IN_FLIGHT writers call `insert(k)` for k = 0, 1, ... (each k a distinct tablet of ROWS rows) until `done(n)` says
 * so (n: tablets started so far), each pausing `paceMs` between its writes; resolves with what was acknowledged
 * and what failed.
 */
async function writeThrough(
  insert: (k: number) => Promise<void>,
  paceMs: number,
  done: (written: number) => boolean,
): Promise<Run> {
  let next = 0;
  const run: Run = { acked: 0, failures: [], tablets: 0 };
  const writer = async () => {
    while (!done(next)) {
      const k = next++;
      try {
        await insert(k);
        run.acked += ROWS;
      } catch (e) {
        run.failures.push(`${k}: ${(e as Error).constructor.name} ${(e as Error).message}`);
      }
      run.tablets++;
      await sleep(paceMs);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
  return run;
}

/** Tablet k's times: ROWS of them from k * ROWS, distinct over all tablets. */
const timesOf = (k: number) => Array.from({ length: ROWS }, (_, r) => k * ROWS + r);

/** Tree tablet k under `prefix`: device k % DEVICES. */
function treeTablet(prefix: string, k: number): Tablet {
  const ts = timesOf(k);
  return {
    deviceId: `${prefix}.d${k % DEVICES}`,
    measurements: ['v'],
    dataTypes: ['INT64'],
    timestamps: ts,
    values: ts.map((x) => [BigInt(x)]),
  };
}

/** The sum of the counts `sql` answers (one per series or a single one). */
async function count(session: Session | TableSession, sql: string): Promise<number> {
  const ds = await session.executeQueryStatement(sql);
  let n = 0;
  for await (const r of ds) for (const v of r.values) n += Number(v ?? 0);
  return n;
}

/** What a writer saw through the restart, and what the server holds afterwards. */
interface Outcome {
  failures: string[];
  /** points (rows of one value) acknowledged */
  acked: number;
  /** points started: none may be missing from the acknowledged */
  written: number;
  stored: number;
}

/**
 * Says when a writer may stop: once the DataNode is back (`isBack()`) and the writer has started `more` writes
 * since it saw it back (regions come back after the node does).
 */
function afterBack(isBack: () => boolean, more: number): (written: number) => boolean {
  let whenBack = -1;
  return (n) => {
    if (isBack() && whenBack < 0) whenBack = n;
    return whenBack >= 0 && n >= whenBack + more;
  };
}

/** A tree-model pool writing tablets with 4 in flight until `done`. */
async function treePool(port: number, done: (n: number) => boolean): Promise<Outcome> {
  const db = `root.it_restart1_${randomBytes(3).toString('hex')}`;
  const admin = new Session({ host: '127.0.0.1', port });
  await admin.open();
  await admin.executeNonQueryStatement(`CREATE DATABASE ${db}`);
  const pool = new SessionPool({ host: '127.0.0.1', port, maxSize: IN_FLIGHT });
  try {
    const run = await writeThrough((k) => pool.insertTablet(treeTablet(db, k)), 40, done);
    const stored = await count(admin, `SELECT count(v) FROM ${db}.**`);
    return { failures: run.failures, acked: run.acked, written: run.tablets * ROWS, stored };
  } finally {
    await pool.close();
    await admin.close();
  }
}

/** A table-model pool writing tablets with 4 in flight until `done`. */
async function tablePool(port: number, done: (n: number) => boolean): Promise<Outcome> {
  const database = `it_restart_table_${randomBytes(3).toString('hex')}`;
  const admin = new TableSession({ host: '127.0.0.1', port });
  await admin.open();
  await admin.executeNonQueryStatement(`CREATE DATABASE ${database}`);
  const pool = new TableSessionPool({ host: '127.0.0.1', port, maxSize: IN_FLIGHT, database });
  const insert = (k: number) =>
    pool.insert({
      tableName: 'w',
      columnNames: ['device', 'v'],
      dataTypes: ['STRING', 'INT64'],
      columnCategories: ['TAG', 'FIELD'],
      timestamps: timesOf(k),
      values: timesOf(k).map((t) => [`d${k % DEVICES}`, BigInt(t)]),
    });
  try {
    const run = await writeThrough(insert, 40, done);
    const stored = await count(admin, `SELECT count(v) FROM ${database}.w`);
    return { failures: run.failures, acked: run.acked, written: run.tablets * ROWS, stored };
  } finally {
    await pool.close();
    await admin.executeNonQueryStatement(`DROP DATABASE ${database}`).catch(() => undefined);
    await admin.close();
  }
}

/** A batching writer fed a row for each of 20 devices every 10 ms until `done(tick)`; failures as it reports them. */
async function batchingWriter(port: number, done: (tick: number) => boolean): Promise<Outcome> {
  const db = `root.it_restart_writer_${randomBytes(3).toString('hex')}`;
  const admin = new Session({ host: '127.0.0.1', port });
  await admin.open();
  await admin.executeNonQueryStatement(`CREATE DATABASE ${db}`);
  const pool = new SessionPool({ host: '127.0.0.1', port, maxSize: 2 });
  const failures: string[] = [];
  const writer = pool.writer({
    flushIntervalMs: 200,
    maxRows: 100,
    onError: (e, rows) => failures.push(`${rows.length} rows: ${e.message}`),
  });
  try {
    for (let tick = 0; !done(tick); tick++) {
      for (let d = 0; d < DEVICES; d++)
        await writer.write({ deviceId: `${db}.d${d}`, timestamp: tick, values: { v: BigInt(tick) } });
      await sleep(10);
    }
    await writer.close();
    const stats = writer.stats();
    if (stats.failed > 0) failures.push(`${stats.failed} rows failed`);
    if (stats.buffered + stats.inFlight > 0) failures.push(`${stats.buffered + stats.inFlight} rows left after close`);
    const stored = await count(admin, `SELECT count(v) FROM ${db}.**`);
    return { failures, acked: stats.acknowledged, written: stats.written, stored };
  } finally {
    await pool.close();
    await admin.close();
  }
}

const expectNoneLost = (o: Outcome) => {
  expect(o.failures).toEqual([]);
  expect(o.stored).toBe(o.acked);
  expect(o.acked).toBe(o.written);
};

describe.skipIf(control === null)('writes through restarts, default options', () => {
  describe('1 ConfigNode + 1 DataNode, the DataNode stopped 8 s under three writers at once', () => {
    const dir = `${control?.dir}-1c1d`;
    const port = 7667;
    let outcomes: Promise<{ tree: Outcome; table: Outcome; writer: Outcome }>;
    let restarted: Promise<void> | undefined;
    beforeAll(async () => {
      await script(['start', dir], {
        PORT_OFFSET: '1000',
        RPC_PORT: String(port),
        DATANODES: '1',
        DN_HEAP: '1g',
        TLS: '0',
        RPC_COMPRESSION: '0',
      });
      // the DataNode stops once each writer has started 20 writes (or after 10 s, should one never get there: its
      // test fails, the others still see a restart); each writes on after it is back
      let back = false;
      const isBack = () => back;
      const writing = new Set<string>();
      let allWriting!: () => void;
      const gate = new Promise<void>((resolve) => (allWriting = resolve));
      const untilDone = (name: string) => {
        const done = afterBack(isBack, 200);
        return (n: number) => {
          if (n >= 20 && !writing.has(name) && writing.add(name).size === 3) allWriting();
          return done(n);
        };
      };
      const started = performance.now();
      restarted = Promise.race([gate, sleep(10_000)])
        .then(() => restart(dir, 'datanode'))
        .then(() => void (back = true));
      outcomes = Promise.all([
        treePool(port, untilDone('tree')),
        tablePool(port, untilDone('table')),
        batchingWriter(port, untilDone('writer')),
        restarted,
      ]).then(([tree, table, writer]) => {
        const ms = Math.round(performance.now() - started);
        console.log(
          `1C1D restart in ${ms} ms under tree tablets (${tree.written} points, ${tree.failures.length} failed), ` +
            `table tablets (${table.written}, ${table.failures.length} failed), a writer (${writer.written} rows, ${writer.failures.length} failed)`,
        );
        return { tree, table, writer };
      });
      outcomes.catch(() => undefined); // a test awaits it and reports the error
    }, 240_000);
    afterAll(async () => {
      await Promise.all([outcomes?.catch(() => undefined), restarted?.catch(() => undefined)]);
      await script(['kill', dir]).catch(() => undefined);
    }, 240_000);

    it('tree tablets, 4 in flight: none fails; count(*) equals the acknowledged points', async () => {
      expectNoneLost((await outcomes).tree);
    }, 180_000);

    it('table model tablets, 4 in flight: none fails (the 301s of a restart are tried again); count equals the acknowledged rows', async () => {
      expectNoneLost((await outcomes).table);
    }, 180_000);

    it('a batching writer, rows written one by one through the restart: none reported failed; count(*) equals the acknowledged rows', async () => {
      expectNoneLost((await outcomes).writer);
    }, 180_000);

    it('the ConfigNode killed and started again 3 s later: a query and a write of a new device, both needing it, wait and go through', async () => {
      await outcomes.catch(() => undefined); // after the writers, on the same cluster
      const s = new Session({ port });
      await s.open();
      try {
        const db = `root.it_cn_${randomBytes(3).toString('hex')}`;
        await s.insertTablet(treeTablet(db, 0));
        const pid = Number(readFileSync(`${dir}/run/confignode.pid`, 'utf8'));
        process.kill(pid, 'SIGKILL');
        await sleep(500);
        // IoTDB 2.0.1-beta answers both after a second: the query [305], the write [301] "Fail to connect to any
        // config node"
        const query = count(s, `SELECT count(v) FROM ${db}.d0`);
        const write = s.insertTablet(treeTablet(`${db}.new`, 1));
        await sleep(3_000);
        await script(['start-node', dir, 'confignode']);
        const [counted] = await Promise.all([query, write]);
        expect(counted).toBe(ROWS);
        expect(s.stats().retries).toBeGreaterThan(0);
      } finally {
        await s.close();
      }
    }, 180_000);
  });

  describe('1 ConfigNode + 2 DataNodes, a rolling restart', () => {
    it('each DataNode stopped 8 s in turn under 4 writes in flight: none fails; count(*) equals the acknowledged points', async () => {
      const db = `root.it_rolling_${randomBytes(3).toString('hex')}`;
      const admin = new Session({ nodeUrls: server.nodeUrls });
      await admin.open();
      await admin.executeNonQueryStatement(`CREATE DATABASE ${db}`);
      const pool = new SessionPool({ nodeUrls: server.nodeUrls, maxSize: IN_FLIGHT });
      try {
        let rolled = false;
        let writtenWhenRolled = 0;
        const started = performance.now();
        const rolling = (async () => {
          await sleep(1_000);
          await restart(control!.dir, 'datanode');
          await restart(control!.dir, 'datanode1');
          rolled = true;
        })();
        // write until the restart is over, then 200 tablets more (regions led by the restarted nodes come back)
        const run = await writeThrough(
          (k) => pool.insertTablet(treeTablet(db, k)),
          40,
          (n) => {
            if (rolled && writtenWhenRolled === 0) writtenWhenRolled = n;
            return rolled && n >= writtenWhenRolled + 200;
          },
        );
        await rolling;
        console.log(
          `1C2D rolling restart: ${run.tablets} tablets in ${Math.round(performance.now() - started)} ms, ${run.failures.length} failed`,
        );
        expect(run.failures).toEqual([]);
        expect(await count(admin, `SELECT count(v) FROM ${db}.**`)).toBe(run.acked);
        expect(run.acked).toBe(run.tablets * ROWS);
      } finally {
        await pool.close();
        await admin.close();
      }
    }, 240_000);
  });
});
