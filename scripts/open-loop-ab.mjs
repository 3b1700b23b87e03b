// Two builds' open-loop runs (--target-rate) against one server, alternating round by round: how late each
// started its operations after they were due (the report's mean, and the start lag row's p50 and p99 where the
// build records it), its corrected and uncorrected p50s, and its client CPU an operation (the whole process's: the timer's
// thread too). Extra arguments go to both sides' iotdb-bench.
// Usage (pnpm build in both): AB_BASE=/tmp/base IOTDB_HOST=127.0.0.1 node scripts/open-loop-ab.mjs [rounds=4] [bench args...]
// (default bench args: a tree mixed run, 1 worker x 2 clients, 2:1:...:1, --loop 30 --target-rate 200)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLoopFigures } from '../packages/bench/dist/report/open-loop.js';
import { START_LAG, UNCORRECTED_PREFIX } from '../packages/bench/dist/report/result-fields.js';
import { median } from './alternate.mjs';

const [rounds = '4', ...extra] = process.argv.slice(2);
const DEFAULT_ARGS = '--workers 1 --clients 2 --operation-proportion 2:1:1:1:1:1:1:1:1:1:1 --loop 30 --target-rate 200';
const benchArgs = extra.length ? extra : `${DEFAULT_ARGS} --warmup-rounds 1`.split(' ');
const sides = [
  { name: 'base', dir: process.env.AB_BASE ?? '/tmp/base' },
  { name: 'this', dir: fileURLToPath(new URL('..', import.meta.url)) },
];

/** One side's run: its start lag (ms: mean, p50, p99), each operation's corrected/uncorrected p50, its CPU. */
function run(dir) {
  const out = mkdtempSync(join(tmpdir(), 'open-loop-ab-'));
  try {
    const main = join(dir, 'packages/bench/dist/e2e/main.js');
    const host = ['--host', process.env.IOTDB_HOST ?? '127.0.0.1'];
    execFileSync(process.execPath, [main, ...host, ...benchArgs, '--out', out], { stdio: 'ignore' });
    const result = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'))[0];
    const p50 = {};
    for (const [kind, corrected] of Object.entries(result.latency)) {
      const uncorrected = result.latency[UNCORRECTED_PREFIX + kind];
      if (uncorrected !== undefined) p50[kind] = [corrected.p50, uncorrected.p50];
    }
    // the report's own figure (its open loop line)
    const lagMs = openLoopFigures(result).delayMs;
    const lag = result.latency[START_LAG] ?? { p50: NaN, p99: NaN };
    return { lagMs, lagP50: lag.p50, lagP99: lag.p99, p50, cpuUsPerOp: (result.clientCpuS / result.okOps) * 1e6 };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const runs = Object.fromEntries(sides.map((s) => [s.name, []]));
for (let round = 0; round < Number(rounds); round++)
  for (const side of sides) {
    const r = run(side.dir);
    runs[side.name].push(r);
    const kinds = Object.entries(r.p50).map(([k, [c, u]]) => `${k} ${c.toFixed(2)}/${u.toFixed(2)}`);
    console.log(
      round,
      side.name,
      `started late by ${r.lagMs.toFixed(3)} ms (p50 ${r.lagP50.toFixed(3)}, p99 ${r.lagP99.toFixed(3)}); client CPU ${r.cpuUsPerOp.toFixed(0)} us an operation;`,
      'p50 corrected/uncorrected:',
      kinds.join(', '),
    );
  }
for (const side of sides) {
  const rs = runs[side.name];
  const ratio = median(rs.map((r) => median(Object.values(r.p50).map(([c, u]) => c / u))));
  console.log(
    side.name,
    'median start lag',
    median(rs.map((r) => r.lagMs)).toFixed(3),
    'ms (p50',
    median(rs.map((r) => r.lagP50)).toFixed(3),
    'p99',
    median(rs.map((r) => r.lagP99)).toFixed(3),
    'ms); median corrected/uncorrected p50',
    ratio.toFixed(3),
    '; median client CPU an operation',
    median(rs.map((r) => r.cpuUsPerOp)).toFixed(0),
    'us',
  );
}
