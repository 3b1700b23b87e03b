import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  IoTDBBatchError,
  IoTDBConnectionError,
  IoTDBError,
  IoTDBServerError,
  Session,
  SessionPool,
  type BatchFailure,
  type SessionDataSet,
  type Tablet,
} from '../index.js';
import { useTreeDatabase } from '../testing/tree-database.js';

/**
 * Fault tests: they stop and start the second DataNode (`datanode1`, the second of nodeUrls) through
 * the suite's control script, so they run only when the suite manages the server (or when
 * IOTDB_TEST_CONTROL_DIR names the directory of a cluster started by scripts/iotdb-local.sh).
 */
const server = inject('iotdb');
const { host, port, nodeUrls } = server;
const envDir = process.env.IOTDB_TEST_CONTROL_DIR;
const control =
  server.control ??
  (envDir
    ? { script: fileURLToPath(new URL('../../../../scripts/iotdb-local.sh', import.meta.url)), dir: envDir }
    : null);
const canFault = control !== null && nodeUrls.length >= 2;
const UP = nodeUrls[0]; // stays up
const DOWN = nodeUrls[1]; // datanode1: stopped and started again
const NODE = 'datanode1';

const DB = `root.it_failover_${randomBytes(4).toString('hex')}`;
useTreeDatabase({ host, port }, DB, () => undefined);

const exec = promisify(execFile);
let nodeDown = false;
let restarted = false;
async function stopNode(): Promise<void> {
  nodeDown = true;
  await exec('bash', [control!.script, 'stop-node', control!.dir, NODE], { timeout: 90_000 });
}
async function startNode(): Promise<void> {
  await exec('bash', [control!.script, 'start-node', control!.dir, NODE], { timeout: 240_000 });
  nodeDown = false;
  restarted = true;
}
async function ensureDown(): Promise<void> {
  if (!nodeDown) await stopNode();
}
async function ensureUp(): Promise<void> {
  if (nodeDown) await startNode();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** what the client did before retries: every failure reported at once (to test the reports themselves) */
const NO_RETRY = { maxElapsedMs: 0 };

/**
 * Test set-up writes only: tried again a few times, because right after a restart the server may fail
 * a forwarded write once (a stale connection between its DataNodes). Never used for what is tested.
 */
async function setUp(write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (attempt >= 4) throw e;
      await sleep(500);
    }
  }
}

/** Rejects if `p` has not settled within `ms`: the "nothing hangs" bound. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} still pending after ${ms} ms`)), ms)),
    ),
  ]);
}

let admin: Session;
beforeAll(async () => {
  admin = new Session({ host, port });
  await admin.open();
});
afterAll(async () => {
  try {
    if (canFault) await ensureUp(); // before the fixture drops the database
    if (restarted) await healForwarding();
  } finally {
    await admin?.close();
  }
}, 240_000);

/**
 * After a restart of datanode1 the first write(s) that the other DataNode forwards to it may fail once
 * with "[301] ... Broken pipe" (the server keeps a stale internal connection). Writes forwarded to it
 * until a whole round succeeds use those up, so that test files running after this one do not see them.
 */
async function healForwarding(): Promise<void> {
  const s = new Session({ nodeUrls: [UP], enableRedirection: false, retry: NO_RETRY });
  await s.open();
  try {
    for (let round = 0; round < 10; round++) {
      let failed = 0;
      for (let d = 0; d < DEVICES; d++) {
        await s.insertTablet(tablet(dev(`${DB}.heal`, d), round, 1)).catch(() => failed++);
      }
      if (failed === 0) return;
      await sleep(200);
    }
  } finally {
    await s.close();
  }
}

async function countPoints(pattern: string, where = ''): Promise<number> {
  const ds = await admin.executeQueryStatement(`SELECT count(*) FROM ${pattern} ${where}`);
  let n = 0;
  for await (const r of ds) for (const v of r.values) n += Number(v ?? 0);
  return n;
}

/** An error that says why: a server status or a connection failure, with a message. */
function expectReason(e: Error, what: string): void {
  expect(e, what).toBeInstanceOf(IoTDBError);
  expect(
    e instanceof IoTDBServerError || e instanceof IoTDBConnectionError,
    `${what}: ${e.constructor.name} ${e.message}`,
  ).toBe(true);
  expect(e.message.length, what).toBeGreaterThan(0);
  if (e instanceof IoTDBServerError) expect(e.statusCode, what).not.toBe(200);
}

const DEVICES = 20;
const dev = (prefix: string, d: number) => `${prefix}.d${String(d).padStart(2, '0')}`;
function tablet(device: string, t0: number, rows: number): Tablet {
  const ts = Array.from({ length: rows }, (_, r) => t0 + r);
  return {
    deviceId: device,
    measurements: ['v'],
    dataTypes: ['INT64'],
    timestamps: ts,
    values: ts.map((t) => [BigInt(t)]),
  };
}

/** The databases SHOW DATABASES lists (the ConfigNode answers it: any DataNode can while another is down). */
async function databases(s: Session): Promise<unknown[]> {
  const names: unknown[] = [];
  for await (const r of await s.executeQueryStatement('SHOW DATABASES')) names.push(r.values[0]);
  return names;
}

describe('while a DataNode is down', () => {
  const bPrefix = `${DB}.down`;
  const qPrefix = `${DB}.query`;
  const Q_DEVICES = 100;
  const Q_ROWS = 40;
  const splitPrefix = `${DB}.split`;
  /** opened on DOWN before it stops */
  let failoverSession: Session;
  let querySession: Session;
  /** knows only UP, warmed up before the stop: it knows which devices live on DOWN */
  let splitSession: Session;
  /** knows only UP; its queries take turns on both nodes (learnt with SHOW DATANODES) before the stop */
  let spreadSession: Session;
  /** knows only DOWN, and UP from SHOW DATANODES before the stop */
  let loneSession: Session;
  /** knows only UP; learnt the split devices' nodes from fast last queries before the stop (it never wrote) */
  let routedSession: Session;
  const splitRoutes = new Map<string, string>();
  /** points the split test was told were written (checked once the node is back) */
  let splitWritten: number | undefined;

  beforeAll(async () => {
    if (!canFault) return;
    await ensureUp();
    const writer = new Session({ nodeUrls });
    await writer.open();
    try {
      // data regions on both nodes hold these devices from now on (same time partition as the writes below)
      await setUp(() => writer.insertTablets(Array.from({ length: DEVICES }, (_, d) => tablet(dev(bPrefix, d), 1, 1))));
      await setUp(() =>
        writer.insertTablets(Array.from({ length: Q_DEVICES }, (_, d) => tablet(dev(qPrefix, d), 1, Q_ROWS))),
      );
    } finally {
      await writer.close();
    }
    failoverSession = new Session({ nodeUrls: [DOWN, UP] });
    await failoverSession.open();
    querySession = new Session({ nodeUrls: [DOWN], retry: NO_RETRY, spreadQueries: false }); // its queries on DOWN
    await querySession.open();
    splitSession = new Session({ nodeUrls: [UP], retry: NO_RETRY });
    await splitSession.open();
    for (let d = 0; d < DEVICES; d++) await setUp(() => splitSession.insertTablet(tablet(dev(splitPrefix, d), 1, 1)));
    for (let d = 0; d < DEVICES; d++)
      splitRoutes.set(dev(splitPrefix, d), splitSession.nodeOf(dev(splitPrefix, d)) ?? UP);
    spreadSession = new Session({ nodeUrls: [UP], retry: NO_RETRY });
    await spreadSession.open();
    loneSession = new Session({ nodeUrls: [DOWN], retry: NO_RETRY });
    await loneSession.open();
    routedSession = new Session({ nodeUrls: [UP], retry: NO_RETRY });
    await routedSession.open();
    for (const device of splitRoutes.keys())
      for await (const _ of await routedSession.executeLastDataQueryForOneDevice(DB, device, ['v']));
    for (let i = 0; i < 100 && (spreadSession.stats().connects < 2 || loneSession.queryEndpoints.length < 2); i++) {
      await databases(spreadSession); // the first learns the nodes, the next ones open a session on DOWN
      await databases(loneSession);
      await sleep(20);
    }
  }, 60_000);

  afterAll(async () => {
    await failoverSession?.close().catch(() => undefined);
    await querySession?.close().catch(() => undefined);
    await splitSession?.close().catch(() => undefined);
    await spreadSession?.close().catch(() => undefined);
    await loneSession?.close().catch(() => undefined);
    await routedSession?.close().catch(() => undefined);
    if (canFault) await ensureUp();
  }, 240_000);

  it.skipIf(!canFault)(
    'fails a query being read on the stopping node with a connection or server error, without hanging',
    async () => {
      expect(querySession.currentEndpoint).toBe(DOWN);
      const ds: SessionDataSet = await querySession.executeQueryStatement(
        `SELECT v FROM ${qPrefix}.* ALIGN BY DEVICE`,
        { fetchSize: 10 },
      );
      let rows = 0;
      const reader = (async () => {
        for await (const _ of ds) {
          rows++;
          if (rows % 10 === 0) await sleep(50); // slow: ~20 s for every row
        }
      })();
      const outcome = reader.then(
        () => null,
        (e: Error) => e,
      );
      while (rows < 20) await sleep(10);
      await stopNode();
      const e = await within(outcome, 30_000, 'the reader');
      expect(e, `read all ${rows} rows without an error`).not.toBeNull();
      console.log(`query on the stopped node: ${rows} rows, then ${e!.constructor.name}: ${e!.message}`);
      expectReason(e!, 'the query');
      expect(rows).toBeGreaterThanOrEqual(20);
      expect(rows).toBeLessThan(Q_DEVICES * Q_ROWS);
      expect(ds.isClosed).toBe(true);
    },
    120_000,
  );

  it.skipIf(!canFault)(
    'fails over to the next of nodeUrls when the node it was opened on is gone, and the call works there',
    async () => {
      await ensureDown();
      expect(failoverSession.currentEndpoint).toBe(DOWN);
      const ds = await within(failoverSession.executeQueryStatement('SHOW DATABASES'), 30_000, 'SHOW DATABASES');
      const names: unknown[] = [];
      for await (const r of ds) names.push(r.values[0]);
      expect(names).toContain(DB);
      expect(failoverSession.currentEndpoint).toBe(UP);
      expect(failoverSession.isOpen).toBe(true);
    },
    120_000,
  );

  it.skipIf(!canFault)(
    'a session whose queries take turns on both nodes sends them to the one that is up once the other is gone',
    async () => {
      expect([...spreadSession.queryEndpoints].sort()).toEqual([UP, DOWN].sort()); // the premise: both in turn
      expect(spreadSession.stats().connects).toBe(2); // and a server session open on each
      await ensureDown();
      for (let i = 0; i < 10; i++) {
        expect(await within(databases(spreadSession), 30_000, 'SHOW DATABASES')).toContain(DB);
        await sleep(20);
      }
      expect(spreadSession.stats().errors).toBe(0);
    },
    120_000,
  );

  it.skipIf(!canFault)(
    "a session sending a device's queries to its node keeps them on the node that is up; the others fail with a reason, none hangs",
    async () => {
      const led = (node: string) => [...splitRoutes].filter(([, n]) => n === node).map(([d]) => d);
      for (const [device, node] of splitRoutes) expect(routedSession.nodeOf(device)).toBe(node); // the premise
      expect(led(DOWN).length).toBeGreaterThan(0);
      const read = async (device: string) => {
        for await (const _ of await routedSession.executeQueryStatement(`SELECT v FROM ${device}`));
        for await (const _ of await routedSession.executeLastDataQueryForOneDevice(DB, device, ['v']));
      };
      await ensureDown();
      for (const device of [...led(UP).slice(0, 4), ...led(DOWN).slice(0, 4)]) {
        const outcome = read(device).then(
          () => null,
          (error: Error) => error,
        );
        // replication 1: a device whose data or schema region is on the stopped node cannot be read from the other
        const e = await within(outcome, 30_000, `the queries of ${device}`);
        if (e !== null) expectReason(e, `the queries of ${device}`);
      }
      for (const device of led(UP)) expect(routedSession.nodeOf(device)).toBe(UP);
      for (const device of led(DOWN)) expect(routedSession.nodeOf(device)).toBeUndefined(); // quarantined: forgotten
    },
    120_000,
  );

  it.skipIf(!canFault)(
    'a session given only the node that stopped fails over to a DataNode the cluster listed (as the Java Session)',
    async () => {
      expect(loneSession.currentEndpoint).toBe(DOWN);
      expect([...loneSession.queryEndpoints].sort()).toEqual([UP, DOWN].sort()); // the premise: UP learnt
      await ensureDown();
      for (let i = 0; i < 4; i++) expect(await within(databases(loneSession), 30_000, 'SHOW DATABASES')).toContain(DB);
      expect(loneSession.currentEndpoint).toBe(UP);
      expect(loneSession.stats()).toMatchObject({ errors: 0, failovers: 1 });
    },
    120_000,
  );

  it.skipIf(!canFault)(
    'splits insertTablets by node while one is down: IoTDBBatchError names every tablet of the down node, the others are written',
    async () => {
      await ensureDown();
      expect(new Set(splitRoutes.values())).toEqual(new Set([UP, DOWN])); // the premise: devices on both nodes
      const tablets = Array.from({ length: DEVICES }, (_, d) => tablet(dev(splitPrefix, d), 1_000, 2));
      const onDown = tablets.flatMap((t, i) => (splitRoutes.get(t.deviceId) === DOWN ? [i] : []));
      const e = await within(
        splitSession.insertTablets(tablets).then(
          () => null,
          (x: Error) => x,
        ),
        30_000,
        'insertTablets',
      );
      expect(e).toBeInstanceOf(IoTDBBatchError);
      const b = e as IoTDBBatchError;
      for (const f of b.failures) expectReason(f.error, `tablet ${f.index}`);
      // every tablet of a device on the down node failed; whatever was written is on the up node
      expect(b.failures.map((f) => f.index)).toEqual(expect.arrayContaining(onDown));
      for (const i of b.succeeded) expect(onDown).not.toContain(i);
      expect([...b.failures.map((f) => f.index), ...b.succeeded].sort((x, y) => x - y)).toEqual(
        tablets.map((_, i) => i),
      );
      splitWritten = b.succeeded.length * 2;
    },
    120_000,
  );

  it.skipIf(!canFault)(
    'reports every write to a region on the down node (retries off) with its reason, without hanging; count(*) equals the acknowledged points',
    async () => {
      await ensureDown();
      // a write of a region on the down node may take the server ~2 s to give up (it waits for the region)
      const pool = new SessionPool({ nodeUrls, maxSize: 8, retry: NO_RETRY, requestTimeoutMs: 15_000 });
      const tablets = Array.from({ length: DEVICES }, (_, k) => tablet(dev(bPrefix, k), 1_000 + k * 10, 3));
      let failures: readonly BatchFailure[] = [];
      let succeeded: readonly number[];
      try {
        const t0 = performance.now();
        try {
          await within(pool.insertTabletsParallel(tablets), 60_000, 'insertTabletsParallel');
          succeeded = tablets.map((_, i) => i);
        } catch (e) {
          expect(e).toBeInstanceOf(IoTDBBatchError);
          ({ failures, succeeded } = e as IoTDBBatchError);
        }
        console.log(
          `while down: ${succeeded.length} written, ${failures.length} failed in ${Math.round(performance.now() - t0)} ms`,
        );
        expect(failures.length).toBeGreaterThan(0); // half of the devices live on the down node
        expect([...failures.map((f) => f.index), ...succeeded].sort((a, b) => a - b)).toEqual(tablets.map((_, i) => i));
        for (const f of failures) expectReason(f.error, `tablet ${f.index}`);
        expect(pool.stats()).toMatchObject({ inUse: 0, waiting: 0 });
      } finally {
        await pool.close();
      }
      await ensureUp(); // count(*) needs every region
      expect(await countPoints(`${bPrefix}.**`, 'WHERE time >= 1000')).toBe(succeeded.length * 3);
      if (splitWritten !== undefined)
        expect(await countPoints(`${splitPrefix}.**`, 'WHERE time >= 1000')).toBe(splitWritten);
    },
    240_000,
  );
});
