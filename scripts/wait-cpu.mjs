// What a wait costs the thread that waited: rounds of the same work, the next at once or after a WAIT_MS timer, the
// event loop's thread's CPU a round (/proc/thread-self/schedstat, Linux). `compute`: 20,000 Math.sqrt a round (about
// 50 us; scripts/WaitCpu.java is the same loop in Java). `tree` / `table`: one small query a round on one session
// (Session / TableSession, database bench), read to its last value, over the data `iotdb-bench --loop 4` writes
// (`--model table` for the table's). 1,500 rounds, waits of 0, WAIT_MS, 0, WAIT_MS, 0, WAIT_MS (after 500 untimed).
// Connects through IOTDB_HOST/IOTDB_PORT; needs `pnpm build`.
//   node scripts/wait-cpu.mjs compute; java scripts/WaitCpu.java
//   node scripts/wait-cpu.mjs tree ["SELECT s0, s1, s2 FROM root.bench.d077 WHERE time = 1700000000000"]
//   node scripts/wait-cpu.mjs table ["SELECT time, s0, s1, s2 FROM t WHERE device_id = 'd077' AND time = 1700000000000"]
import { readFileSync } from 'node:fs';
import { Session, TableSession } from '../packages/client/dist/index.js';

const [mode = 'compute', given] = process.argv.slice(2);
const waitMs = Number(process.env.WAIT_MS ?? 2);
const ROUNDS = 1500;
const SQL = {
  tree: 'SELECT s0, s1, s2 FROM root.bench.d077 WHERE time = 1700000000000',
  table: "SELECT time, s0, s1, s2 FROM t WHERE device_id = 'd077' AND time = 1700000000000",
};
/** This thread's time on the CPU so far, ns. */
const onCpuNs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);

let session;
let work;
if (mode === 'compute') {
  work = async () => {
    let x = 0;
    for (let i = 0; i < 20_000; i++) x += Math.sqrt(i);
    return x;
  };
} else {
  const target = { host: process.env.IOTDB_HOST ?? '127.0.0.1', port: Number(process.env.IOTDB_PORT ?? 6667) };
  session = mode === 'table' ? new TableSession({ ...target, database: 'bench' }) : new Session(target);
  await session.open();
  const sql = given ?? SQL[mode];
  work = async () => {
    let n = 0;
    for await (const row of await session.executeQueryStatement(sql)) n += row.values.length;
    return n;
  };
}
const rounds = async (n, wait) => {
  for (let i = 0; i < n; i++) {
    await work();
    await new Promise((resolve) => (wait > 0 ? setTimeout(resolve, wait) : setImmediate(resolve)));
  }
};

await rounds(500, 0);
const figures = [];
for (const wait of [0, waitMs, 0, waitMs, 0, waitMs]) {
  const [cpu0, t0] = [onCpuNs(), performance.now()];
  await rounds(ROUNDS, wait);
  const cpuUs = (onCpuNs() - cpu0) / 1e3 / ROUNDS;
  figures.push(
    `wait ${wait} ms: ${cpuUs.toFixed(0)} us (${((performance.now() - t0) / ROUNDS).toFixed(2)} ms a round)`,
  );
}
console.log(`${mode}, the event loop's CPU a round:`, figures.join(', '));
await session?.close();
