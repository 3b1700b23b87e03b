// How late an open-loop schedule starts its operations: the bench's PreciseTimer against setTimeout, in one
// process, rounds alternating. Each of CLIENTS clients is due every 1/RATE s (staggered) and, once started,
// sends 1 KB to an echo server on 127.0.0.1 and waits for it back (the event loop busy as a bench worker's is).
// Prints each timer's start lag percentiles (us) per round and their medians over the rounds, and the CPU used.
// Usage: pnpm build && node scripts/timer-lag.mjs [rate=200] [seconds=5] [rounds=6] [clients=2]
import { createServer, connect } from 'node:net';
import { realClock } from '../packages/bench/dist/run/clock.js';
import { OpenLoopSchedule } from '../packages/bench/dist/run/pacing.js';
import { median } from './alternate.mjs';

const [rate = 200, seconds = 5, rounds = 6, clients = 2] = process.argv.slice(2).map(Number);
const now = () => Number(process.hrtime.bigint());
// each timer as a bench Clock (PreciseTimer: the bench's own, realClock), paced by the bench's OpenLoopSchedule
const timers = {
  setTimeout: { now, sleep: (ns) => new Promise((resolve) => setTimeout(resolve, ns / 1e6)) },
  PreciseTimer: realClock,
};

const server = createServer((s) => s.pipe(s));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const { port } = server.address();

/** One client's run: its lags (ns) from when each operation was due to when it started. */
async function client(clock, id) {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise((r) => socket.once('connect', r));
  const payload = Buffer.alloc(1024, id);
  const interval = (1e9 * clients) / rate;
  const lags = [];
  const schedule = new OpenLoopSchedule(clock, interval, now() + 10e6 + (interval * id) / clients, () => false);
  for (let i = 0; i < (rate / clients) * seconds; i++) {
    const due = await schedule.next();
    lags.push(now() - due);
    let got = 0;
    await new Promise((r) => {
      const onData = (d) => (got += d.length) >= payload.length && (socket.off('data', onData), r());
      socket.on('data', onData);
      socket.write(payload);
    });
  }
  socket.destroy();
  return lags;
}

const q = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] / 1e3;
const results = Object.fromEntries(Object.keys(timers).map((k) => [k, []]));
for (let round = 0; round < rounds; round++)
  for (const [name, clock] of Object.entries(timers)) {
    const cpu0 = process.cpuUsage();
    const lags = (await Promise.all(Array.from({ length: clients }, (_, id) => client(clock, id)))).flat();
    const cpu = process.cpuUsage(cpu0);
    lags.sort((a, b) => a - b);
    const row = { p50: q(lags, 0.5), p90: q(lags, 0.9), p99: q(lags, 0.99), cpuMs: (cpu.user + cpu.system) / 1e3 };
    results[name].push(row);
    console.log(
      round,
      name.padEnd(12),
      Object.entries(row)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join('  '),
    );
  }
for (const [name, rows] of Object.entries(results))
  console.log(
    'median',
    name.padEnd(12),
    ['p50', 'p90', 'p99', 'cpuMs'].map((k) => `${k} ${median(rows.map((r) => r[k])).toFixed(0)}`).join('  '),
  );
server.close();
