// What a sleep costs each thread of the process: the bench's PreciseTimer or setTimeout, N sleeps of GAP ms one at
// a time (as one paced client's), after 50 untimed; CPU us a sleep by thread (/proc/self/task/*/schedstat, Linux).
// A process per timer, so that neither's threads are in the other's figures.
// Usage: pnpm build && node scripts/timer-cpu.mjs precise|timeout [n=500] [gap ms=20]
import { readdirSync, readFileSync } from 'node:fs';
import { PreciseTimer } from '../packages/bench/dist/run/precise-timer.js';

const [mode = 'precise', n = 500, gapMs = 20] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a)));
const timer = new PreciseTimer();
const sleep =
  mode === 'precise'
    ? (ms) => timer.sleepUntil(timer.now() + ms * 1e6)
    : (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Each thread's time on the CPU so far, us, by thread id (the first is the event loop's). */
const onCpu = () =>
  new Map(
    readdirSync('/proc/self/task').map((tid) => [
      tid,
      Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1000,
    ]),
  );

for (let i = 0; i < 50; i++) await sleep(gapMs);
const before = onCpu();
const cpu0 = process.cpuUsage();
for (let i = 0; i < n; i++) await sleep(gapMs);
const cpu = process.cpuUsage(cpu0);
const perThread = [...onCpu()]
  .map(([tid, us]) => [tid, (us - (before.get(tid) ?? 0)) / n])
  .filter(([, us]) => us >= 1)
  .sort((a, b) => b[1] - a[1]);
console.log(
  `${mode}: ${((cpu.user + cpu.system) / n).toFixed(0)} us of CPU a sleep; by thread:`,
  perThread.map(([tid, us]) => `${tid} ${us.toFixed(0)}`).join(', '),
);
