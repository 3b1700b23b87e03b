#!/usr/bin/env node
import { createHistogram } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { IoTDBServerError, Session } from '@iotdb/client';
import { AnchorTabletBuilder, deviceId } from '../workload/anchor.js';
import { startLocalServer, type LocalServer } from './local-server.js';

/**
 * End-to-end write benchmark, anchor workload (../shared/java-anchor/Bench.java): `clients`
 * sessions write tablets of `rows` x `sensors` round-robin over their share of `devices`.
 *   pnpm bench:e2e [--points N] [--clients N] [--devices N] [--sensors N] [--rows N] [--aligned]
 * Uses IOTDB_HOST/IOTDB_PORT (or --host/--port) when given, else starts and stops a local server.
 * Prints a RESULT line comparable with the Java client's.
 */
interface Config {
  host?: string;
  port: number;
  points: number;
  clients: number;
  devices: number;
  sensors: number;
  rows: number;
  aligned: boolean;
}

function parseArgs(argv: string[]): Config {
  const c: Config = {
    host: process.env.IOTDB_HOST,
    port: Number(process.env.IOTDB_PORT ?? 6667),
    points: 10_000_000,
    clients: 1,
    devices: 100,
    sensors: 50,
    rows: 500,
    aligned: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--aligned') {
      c.aligned = true;
      continue;
    }
    const value = argv[++i];
    const num = Number(value);
    switch (flag) {
      case '--host': c.host = value; break;
      case '--port': c.port = num; break;
      case '--points': c.points = num; break;
      case '--clients': c.clients = num; break;
      case '--devices': c.devices = num; break;
      case '--sensors': c.sensors = num; break;
      case '--rows': c.rows = num; break;
      default: throw new Error(`unknown option ${flag} (see the header of packages/bench/src/e2e/main.ts)`);
    }
  }
  for (const k of ['port', 'points', 'clients', 'devices', 'sensors', 'rows'] as const) {
    if (!Number.isSafeInteger(c[k]) || c[k] <= 0) throw new Error(`--${k} needs a positive integer, got ${c[k]}`);
  }
  return c;
}

async function setup(c: Config, host: string): Promise<void> {
  const s = new Session({ host, port: c.port });
  await s.open();
  try {
    await s.executeNonQueryStatement('CREATE DATABASE root.bench');
  } catch (e) {
    if (!(e instanceof IoTDBServerError && e.code === 501)) throw e; // 501: exists already
  }
  const b = new AnchorTabletBuilder({ sensors: c.sensors, rows: 1 });
  for (let d = 0; d < c.devices; d++) await s.insertTablet({ ...b.fill(d, 0), isAligned: c.aligned }); // schema warm-up, untimed
  await s.close();
}

async function run(c: Config, host: string) {
  const rounds = Math.ceil(c.points / (c.rows * c.sensors * c.devices));
  const total = rounds * c.rows * c.sensors * c.devices;
  const latency = createHistogram();
  let sent = 0;
  const writer = async (id: number) => {
    const s = new Session({ host, port: c.port });
    await s.open();
    const b = new AnchorTabletBuilder({ sensors: c.sensors, rows: c.rows });
    try {
      for (let r = 0; r < rounds; r++) {
        for (let d = id; d < c.devices; d += c.clients) {
          const t = b.fill(d, 1 + r * c.rows); // row 0 is the warm-up row
          const a = process.hrtime.bigint();
          await (c.aligned ? s.insertAlignedTablet(t) : s.insertTablet(t));
          latency.record(Number(process.hrtime.bigint() - a) || 1);
          sent += c.rows * c.sensors;
        }
      }
    } finally {
      await s.close();
    }
  };
  console.log(`writing ${total} points: ${c.devices} devices x ${c.sensors} sensors x ${c.rows} rows x ${rounds} rounds, ${c.clients} client(s)`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const progress = setInterval(() => {
    if (process.stdout.isTTY) process.stdout.write(`\r${sent} points, ${((sent / (performance.now() - t0)) * 1000).toFixed(0)} points/s   `);
  }, 1000);
  try {
    await Promise.all(Array.from({ length: c.clients }, (_, i) => writer(i)));
  } finally {
    clearInterval(progress);
  }
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { total: sent, secs, cpuSecs: (cpu.user + cpu.system) / 1e6, latency };
}

async function verify(c: Config, host: string, expected: number): Promise<void> {
  const s = new Session({ host, port: c.port });
  await s.open();
  const ds = await s.executeQueryStatement('select count(*) from root.bench.**');
  let got = 0n;
  for await (const row of ds) for (const v of row.values) got += BigInt(v as bigint);
  await s.close();
  const want = BigInt(expected + c.devices * c.sensors);
  console.log(`VERIFY count=${got} expected=${want} ${got === want ? 'OK' : 'MISMATCH'}`);
  if (got !== want) process.exitCode = 1;
}

async function main(): Promise<void> {
  const c = parseArgs(process.argv.slice(2));
  let server: LocalServer | undefined;
  if (c.host === undefined) {
    server = startLocalServer(fileURLToPath(new URL('../../../../.iotdb-test/bench', import.meta.url)));
    process.once('SIGINT', () => {
      server?.stop();
      process.exit(130);
    });
  }
  const host = c.host ?? server!.host;
  try {
    await setup(c, host);
    const r = await run(c, host);
    const ms = (q: number) => (r.latency.percentile(q) / 1e6).toFixed(1);
    console.log(
      `\nRESULT mode=${c.aligned ? 'aligned' : 'tree'} clients=${c.clients} points=${r.total} wall_s=${r.secs.toFixed(2)} ` +
        `points_per_s=${(r.total / r.secs).toFixed(0)} client_cpu_s=${r.cpuSecs.toFixed(2)} ` +
        `client_cpu_s_per_Mpts=${(r.cpuSecs / (r.total / 1e6)).toFixed(3)} insert_ms_p50=${ms(50)} p99=${ms(99)} ` +
        `max=${(r.latency.max / 1e6).toFixed(1)} peak_rss_mb=${(process.resourceUsage().maxRSS / 1024).toFixed(0)}`,
    );
    await verify(c, host, r.total);
  } finally {
    server?.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
