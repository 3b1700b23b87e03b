/**
 * report.html: one self-contained page. Everything is drawn here, at write time, as inline SVG with
 * inline CSS: no scripts, fonts, stylesheets or images are loaded, so the file renders offline.
 */
import type { Environment, RunResult } from '../types.js';
import { hBarChart } from './chart-bars.js';
import { histogramChart } from './chart-histogram.js';
import { lineChart } from './chart-line.js';
import { percentileChart } from './chart-percentiles.js';
import { fixed, grouped, millis, orDash, times } from './numbers.js';
import { QUERY_HEADERS, queryRows } from './format.js';
import { MATRIX_HEADERS, byReportOrder, matrixRows } from './latency-matrix.js';
import { lagPercentiles, openLoopFigures, openLoopVerdict, shortVerdict } from './open-loop.js';
import { sampleAt, steadyLatency } from './over-time.js';
import {
  anyMainOperation,
  cpuPerMillion,
  cpuMsPerOperation,
  cpuPerOperationToo,
  serverCpuPerMillion,
  mainOperation,
  onlyReads,
  ratioBaseOf,
  ratioBases,
  readSome,
  rowsRead,
  writeMethod,
  type CpuPerMillion,
} from './result-fields.js';
import { SWEEP_TITLE, sweepTables } from './sweep-table.js';
import { esc } from './svg.js';

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px auto; max-width: 1200px; padding: 0 16px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; } h3 { font-size: 15px; }
table { border-collapse: collapse; margin: 8px 0; } th, td { padding: 3px 8px; border-bottom: 1px solid #eee; }
td { text-align: right; font-variant-numeric: tabular-nums; } th { text-align: left; background: #f6f6f6; }
td.l { text-align: left; white-space: nowrap; } .bad { color: #c0392b; font-weight: 600; } .ok { color: #27ae60; }
.muted, .meta { color: #777; } pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 12px; }
.wide { overflow-x: auto; }
svg { display: block; margin: 12px 0; max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
svg .title { font-size: 14px; font-weight: 600; } svg .small { font-size: 10px; } svg .muted { fill: #777; }
svg .grid { stroke: #eee; } svg .axis { stroke: #888; } svg .mark { stroke: #c0392b; stroke-dasharray: 4 3; }
`;

export function renderHtml(runs: RunResult[], generatedAt: Date = new Date()): string {
  const overTimeRuns = runs.filter(overTime);
  const body = [
    `<h1>IoTDB benchmark</h1>`,
    `<p class="meta">${runs.length} run${runs.length === 1 ? '' : 's'}, generated ${esc(generatedAt.toISOString())}</p>`,
    `<h2>Summary</h2>`,
    summaryTable(runs),
    throughputBars(runs),
    // a line to draw: a run of two samples at least (one under a second has its one sample, the bars' figure)
    ...(runs.some((r) => !onlyReads(r) && r.throughput.length > 1)
      ? [`<h2>Throughput over time</h2>`, throughputLines(runs)]
      : []),
    ...(runs.some((r) => (r.serverCoresOverTime?.length ?? 0) > 1)
      ? [`<h2>Server CPU over time</h2>`, serverCoresLines(runs)]
      : []),
    ...(overTimeRuns.length > 1 ? [`<h2>p99 over time</h2>`, p99Lines(overTimeRuns)] : []),
    ...sweepSection(runs),
    ...runs.map(runSection),
  ];
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>IoTDB benchmark: ${esc(runs.map((r) => r.label).join(', '))}</title>`,
    `<style>${STYLE}</style></head><body>`,
    ...body,
    '</body></html>',
    '',
  ].join('\n');
}

/**
 * Each run's rate beside the first's: points/s, or rows/s when every run only read (then beside the first that
 * read rows, as the console's table).
 */
function throughputBars(runs: RunResult[]): string {
  const reads = runs.every(onlyReads);
  const rate = (r: RunResult) => (reads ? rowsRead(r, 'rowsPerS') : r.pointsPerS);
  const bases = ratioBases(runs, rate);
  const vsBase = (r: RunResult) => {
    const base = ratioBaseOf(bases, r);
    const ratio = base === undefined ? 'n/a' : times(rate(r), rate(base));
    return ratio === 'n/a' ? '' : ` (${ratio})`;
  };
  const ratiosTo =
    bases.kind === 'statement'
      ? ', ratios to the first run of each statement'
      : bases.kind === 'all' && bases.base !== runs[0]
        ? `, ratios to ${bases.base.label}`
        : '';
  return hBarChart({
    title: `Throughput, ${reads ? 'rows/s' : 'points/s'}${ratiosTo}`,
    bars: runs.map((r) => ({
      label: r.label,
      value: rate(r),
      note: `${grouped(rate(r))} ${reads ? 'rows/s' : 'pts/s'}${vsBase(r)}`,
    })),
  });
}

/** Points/s sampled over each run (writes only: reads are not sampled over time). */
function throughputLines(runs: RunResult[]): string {
  return lineChart({
    title: 'points/s over the run',
    xLabel: 'seconds since start',
    yLabel: 'points/s',
    series: runs.map((r) => ({ name: r.label, points: r.throughput })),
  });
}

/** The server's cores busy over each run that sampled them (--server-pid): its load beside the throughput's line. */
function serverCoresLines(runs: RunResult[]): string {
  return lineChart({
    title: 'server cores busy over the run (--server-pid)',
    xLabel: 'seconds since start',
    yLabel: 'cores',
    series: runs.flatMap((r) => (r.serverCoresOverTime ? [{ name: r.label, points: r.serverCoresOverTime }] : [])),
  });
}

/** Whether a run has latency over time to draw: a line, two samples at least (steadyLatency's). */
function overTime(r: RunResult): boolean {
  return steadyLatency(r).length > 1;
}

/** Each run's p99 over time in one chart (ours and the Java client's): whether a spell of one is in the other. */
function p99Lines(runs: RunResult[]): string {
  return lineChart({
    title: 'p99 over the run, every operation that succeeded, each run (ms, log scale)',
    xLabel: 'seconds since start',
    yLabel: 'ms',
    logY: true,
    series: runs.map((r) => ({
      name: r.label,
      points: steadyLatency(r).map((s): [number, number] => [sampleAt(r, s[0]), s[3]]),
    })),
  });
}

/** A run's p50, p99 and max over time, every operation that succeeded together: a steady tail, or a spell. */
function latencyLines(r: RunResult): string {
  const samples = steadyLatency(r);
  const series = (name: string, at: 2 | 3 | 4) => ({
    name,
    points: samples.map((s): [number, number] => [sampleAt(r, s[0]), s[at]]),
  });
  return lineChart({
    title: `latency over the run, every operation that succeeded, per ${fixed(r.config.reportIntervalMs / 1000, 1)} s (ms, log scale)`,
    xLabel: 'seconds since start',
    yLabel: 'ms',
    logY: true,
    series: [series('p50', 2), series('p99', 3), series('max', 4)],
  });
}

/**
 * A run's operations per second over the whole run: those that succeeded and, when some failed, those that failed,
 * interval by interval, 0 where none ended (so that a spell of a fault stands out against the rest), each interval
 * over its part of the run (the last is cut short by the run's end; one shorter than half an interval is counted
 * with the one before, over both: a run's last few ms, often without an operation ending in them, would otherwise
 * show as a fall to 0 at its end, or a few operations there as a spike; the last sample at the run's end). None for a
 * run of one interval once so counted: no line to draw.
 */
function operationLines(r: RunResult): string[] {
  const intervalS = r.config.reportIntervalMs / 1000;
  // interval number (from 1) -> operations, from samples timed by their interval's end
  const byInterval = (samples: readonly (readonly number[])[]) =>
    new Map(samples.map(([atS, n]) => [Math.round(atS / intervalS), n]));
  const [ok, failed] = [byInterval(r.latencyOverTime ?? []), byInterval(r.failuresOverTime ?? [])];
  const intervals = Math.max(Math.ceil(r.durationS / intervalS), ...ok.keys(), ...failed.keys());
  const tailS = r.durationS - (intervals - 1) * intervalS;
  const fold = intervals > 1 && tailS > 0 && tailS < intervalS / 2;
  const shown = fold ? intervals - 1 : intervals;
  if (shown < 2) return [];
  const perS = (counts: Map<number, number>) =>
    Array.from({ length: shown }, (_, i): [number, number] => {
      const folded = fold && i === shown - 1;
      const span = folded ? intervalS + tailS : Math.min(intervalS, r.durationS - i * intervalS);
      const n = (counts.get(i + 1) ?? 0) + (folded ? (counts.get(intervals) ?? 0) : 0);
      return [folded ? r.durationS : sampleAt(r, (i + 1) * intervalS), n / (span > 0 ? span : intervalS)];
    });
  return [
    lineChart({
      title: `operations/s over the run, per ${fixed(intervalS, 1)} s`,
      xLabel: 'seconds since start',
      yLabel: 'ops/s',
      series: [
        { name: 'ok', points: perS(ok) },
        ...(failed.size > 0 ? [{ name: 'failed', points: perS(failed) }] : []),
      ],
    }),
  ];
}

function table(header: string[], rows: string[][]): string {
  const head = `<tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  // cells are already escaped HTML; the first column is a name, left-aligned
  const body = rows.map(
    (r) => `<tr>${r.map((cell, i) => (i === 0 ? `<td class="l">${cell}</td>` : `<td>${cell}</td>`)).join('')}</tr>`,
  );
  return `<div class="wide"><table>${head}${body.join('')}</table></div>`;
}

/** A sweep of rates (--sweep-rates): each swept run's table, as the console's; nothing for other runs. */
function sweepSection(runs: RunResult[]): string[] {
  const tables = sweepTables(runs);
  if (tables.length === 0) return [];
  return [
    `<h2>Sweep: ${esc(SWEEP_TITLE)}</h2>`,
    ...tables.flatMap((t) => [
      `<h3>${esc(t.name)}</h3>`,
      table(
        t.header,
        t.rows.map((row) => row.map(esc)),
      ),
    ]),
  ];
}

function verifyCell(r: RunResult): string {
  if (r.verify === undefined) return '<span class="muted">not run</span>';
  const v = r.verify;
  if ('error' in v) return `<span class="bad">not read back: ${esc(v.error)}</span>`;
  return v.ok
    ? `<span class="ok">ok</span>`
    : `<span class="bad">mismatch: ${grouped(v.actual)} of ${grouped(v.expected)}</span>`;
}

/** An open-loop run's target and achieved rate, how late operations started, and whether it kept its schedule. */
function openLoopCell(r: RunResult): string {
  const o = openLoopFigures(r);
  if (o === null) return '-';
  const kept = o.rateMet && !o.behind;
  const verdict = `<span class="${kept ? 'ok' : 'bad'}" title="${esc(openLoopVerdict(o))}">${shortVerdict(o)}</span>`;
  return `${grouped(o.targetRate)}, ${fixed(o.startedPerS, 1)}: ${verdict}; started ${millis(o.delayMs)} ms late on average${lagPercentiles(o)}`;
}

/** The rows of a write's figures, left out when every run only read (a query file's statements). */
const WRITE_ROWS = new Set(['devices x sensors, batch', 'points', 'points/s']);
/** The rows of reads, left out when no run read (write runs alone). */
const READ_ROWS = new Set(['rows read', 'rows/s']);
/** The main operation's rows, left out when no run has one (runs of queries alone). */
const MAIN_OPERATION_ROWS = ['main op', 'p50 / p99 ms'];
/** An open loop's schedule (--target-rate), left out when every run was a closed loop. */
const OPEN_LOOP_ROW = 'open loop: target, achieved ops/s';
/** Why a run ended before its plan, left out when every run ran its plan out. */
const STOPPED_ROW = 'stopped early';
/** The client's CPU per operation of a run that read (as its report gives it), left out when every run only wrote. */
const CPU_PER_OPERATION_ROW = 'client CPU ms per operation';
/** The server's CPU (--server-pid), left out when no run measured it. */
const SERVER_CPU_ROW = 'server CPU s per million';

function summaryTable(runs: RunResult[]): string {
  const all: [string, (r: RunResult) => string][] = [
    ['model / method', (r) => esc(`${r.config.model} / ${writeMethod(r) ?? '-'}`)],
    ['workers x clients', (r) => `${r.config.workers} x ${r.config.clients}`],
    [
      'devices x sensors, batch',
      (r) => (r.queryFile === undefined ? `${r.config.devices} x ${r.config.sensors}, ${r.config.batchSize}` : '-'),
    ],
    ['points', (r) => grouped(r.points)],
    ['wall time, s', (r) => fixed(r.durationS, 2)],
    ['points/s', (r) => grouped(r.pointsPerS)],
    ['rows read', (r) => grouped(rowsRead(r, 'rows'))],
    ['rows/s', (r) => grouped(rowsRead(r, 'rowsPerS'))],
    ['ops/s', (r) => fixed(r.opsPerS, 1)],
    ['ok ops', (r) => grouped(r.okOps)],
    ['failed ops', (r) => (r.failedOps > 0 ? `<span class="bad">${grouped(r.failedOps)}</span>` : '0')],
    [OPEN_LOOP_ROW, openLoopCell],
    ['main op', (r) => esc(mainOperation(r)?.kind ?? '-')],
    [
      'p50 / p99 ms',
      (r) => {
        const l = mainOperation(r)?.latency;
        return l === undefined ? '-' : `${millis(l.p50)} / ${millis(l.p99)}`;
      },
    ],
    ['client CPU s per million', (r) => perMillionCell(cpuPerMillion(r))],
    [CPU_PER_OPERATION_ROW, (r) => orDash(cpuMsPerOperation(r), 3)],
    [SERVER_CPU_ROW, serverCpuCell],
    ['peak RSS, MB', (r) => fixed(r.peakRssMb, 1)],
    ['verify', verifyCell],
    ['client retries / failed connects', (r) => (r.client ? `${r.client.retries} / ${r.client.connectFailures}` : '-')],
    [STOPPED_ROW, (r) => (r.interruptedBy ? `${r.stopped} (${r.interruptedBy})` : (r.stopped ?? '-'))],
  ];
  const leftOut = new Set(runs.every(onlyReads) ? WRITE_ROWS : !runs.some(readSome) ? READ_ROWS : []);
  if (runs.every((r) => r.serverCpu === undefined)) leftOut.add(SERVER_CPU_ROW);
  if (!runs.some(cpuPerOperationToo)) leftOut.add(CPU_PER_OPERATION_ROW);
  if (runs.every((r) => openLoopFigures(r) === null)) leftOut.add(OPEN_LOOP_ROW);
  if (runs.every((r) => r.stopped === undefined)) leftOut.add(STOPPED_ROW);
  if (!anyMainOperation(runs)) for (const row of MAIN_OPERATION_ROWS) leftOut.add(row);
  const rows = all.filter(([name]) => !leftOut.has(name));
  return table(
    ['', ...runs.map((r) => r.label)],
    rows.map(([name, cell]) => [esc(name), ...runs.map(cell)]),
  );
}

/** The server's CPU per million points written or rows read (--server-pid); why not, where it was not read. */
function serverCpuCell(r: RunResult): string {
  if (r.serverCpu !== undefined && 'error' in r.serverCpu) return esc(`not measured: ${r.serverCpu.error}`);
  return perMillionCell(serverCpuPerMillion(r));
}

/** CPU seconds per million points or rows, `0.236 / M points`; '-' where there is no figure. */
function perMillionCell(c: CpuPerMillion | null): string {
  return c === null ? '-' : `${fixed(c.seconds, 3)} / M ${c.of}`;
}

/** Where the run ran, in one line (results.json has the server's settings and the whole configuration). */
function environmentLine(e: Environment): string {
  const nodes = e.server?.dataNodes
    ? `, ${e.server.dataNodes.length} DataNode${e.server.dataNodes.length === 1 ? '' : 's'}`
    : '';
  const server = e.server ? `IoTDB ${e.server.version} (${e.server.timestampPrecision}${nodes})` : 'server unknown';
  const sha = e.client.gitCommit;
  const commit = sha ? ` at ${sha.slice(0, 12)}${sha.endsWith('-dirty') ? '-dirty' : ''}` : '';
  return `${e.cpu}, ${e.cores} cores, ${e.memoryGiB} GiB, ${e.os}; Node ${e.node}${e.jvm ? `, ${e.jvm}` : ''}; ${server}; client ${e.client.version}${commit}`;
}

function runSection(r: RunResult, index: number): string {
  const parts = [
    `<h2>Run ${index + 1}: ${esc(r.label)}</h2>`,
    `<p class="meta">started ${esc(r.startedAt)}${r.environment ? `; ${esc(environmentLine(r.environment))}` : ''}</p>`,
  ];
  const kinds = Object.keys(r.latency);
  if (kinds.length === 0) parts.push('<p class="muted">no latency samples</p>');
  else {
    parts.push(
      '<h3>Latency, ms</h3>',
      table([...MATRIX_HEADERS], matrixRows(r, esc)),
      percentileChart({
        title: 'latency percentiles per operation',
        rows: byReportOrder(kinds).map((k) => [k, r.latency[k]]),
      }),
    );
  }
  if (overTime(r) || (r.failuresOverTime?.length ?? 0) > 0) parts.push(...operationLines(r));
  if (overTime(r)) parts.push(latencyLines(r));
  const hist = byReportOrder(Object.keys(r.histograms)).filter((k) => r.histograms[k].count > 0);
  if (hist.length > 0) {
    parts.push(
      '<h3>Latency histograms</h3>',
      ...hist.map((k, i) =>
        histogramChart({
          title: `${k}: ${grouped(r.histograms[k].count)} operations`,
          data: r.histograms[k],
          colorIndex: i,
        }),
      ),
    );
  }
  if (readSome(r)) {
    parts.push('<h3>Queries</h3>', table(QUERY_HEADERS, queryRows(r.queries, esc)));
  }
  if (r.errors.length > 0) {
    parts.push(`<h3 class="bad">Errors (${r.errors.length})</h3>`, `<pre>${r.errors.map(esc).join('\n')}</pre>`);
  }
  parts.push(`<details><summary>configuration</summary><pre>${esc(JSON.stringify(r.config, null, 2))}</pre></details>`);
  return parts.join('\n');
}
