import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resultLine } from './format.js';
import { SAMPLE_ENVIRONMENT, sampleHistogram, sampleQueriesAlone, sampleRun, sampleStatement } from './test-fixture.js';
import type { RunResult } from '../types.js';
import { makeOutDir, writeResults } from './write-results.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bench-report-'));
  dirs.push(d);
  return d;
}

function runs() {
  return {
    results: [
      sampleRun('insertTablet', {}, 1_000_000),
      sampleRun('insertRecords, <slow>', { failedOps: 2, errors: ['see https://example.org/why'] }, 300_000),
    ],
    java: sampleRun(
      'java',
      { throughput: [], histograms: {}, latency: {}, queries: undefined, verify: undefined },
      900_000,
    ),
  };
}

describe('writeResults', () => {
  it('writes the five files into a new directory and returns their paths', () => {
    const dir = join(tempDir(), 'nested', 'out');
    const { results } = runs();
    const paths = writeResults(dir, results);
    expect(paths).toEqual({
      json: join(dir, 'results.json'),
      csv: join(dir, 'results.csv'),
      latencyCsv: join(dir, 'latency.csv'),
      overTimeCsv: join(dir, 'latency-over-time.csv'),
      html: join(dir, 'report.html'),
    });
    for (const p of Object.values(paths)) expect(dirname(p)).toBe(dir);
  });

  it('results.json round-trips, the Java run appended', () => {
    const { results, java } = runs();
    const paths = writeResults(tempDir(), [...results, java]);
    const text = readFileSync(paths.json, 'utf8');
    expect(JSON.parse(text)).toEqual([...results, java]);
    expect(text).toMatch(/"counts": \[0,0,[\d,]+\]/); // histogram buckets on one line, not one per line
  });

  it('results.csv has the RESULT keys and the environment as header, and one row per run', () => {
    const { results, java } = runs();
    results[0].environment = SAMPLE_ENVIRONMENT;
    const paths = writeResults(tempDir(), [...results, java]);
    const lines = readFileSync(paths.csv, 'utf8').trimEnd().split('\n');
    const pairs = resultLine(results[0])
      .split(' ')
      .slice(1)
      .map((p) => p.split('='));
    const environmentKeys =
      'cpu,cores,memory_gib,os,node,jvm,server_version,timestamp_precision,data_nodes,client_version,git_commit';
    expect(lines[0]).toBe([...pairs.map(([k]) => k), environmentKeys].join(','));
    expect(lines).toHaveLength(1 + 3);
    const environment =
      '"Test CPU, 2 GHz",2,23.4,Linux 6.1 x64,v20.20.2,"openjdk version ""17.0.15""",2.0.1-beta,ms,1,0.1.0,0123abc';
    expect(lines[1]).toBe([...pairs.map(([, v]) => v), environment].join(','));
    // the run's own label, as latency.csv and latency-over-time.csv name it (a file joins with them on it); the RESULT
    // line's is a token (insertRecords,_<slow>): its fields are split at spaces
    expect(lines[2].startsWith('"insertRecords, <slow>",')).toBe(true); // quoted: the label has a comma
    const latencyLabels = readFileSync(paths.latencyCsv, 'utf8').trimEnd().split('\n').slice(1);
    expect(latencyLabels.some((l) => l.startsWith('"insertRecords, <slow>",'))).toBe(true);
    expect(lines[3].startsWith('java,')).toBe(true);
    expect(lines[3].endsWith(',,,,,,,,,')).toBe(true); // a run without an environment: empty cells
  });

  it('results.json and report.html carry where the run ran', () => {
    const { results } = runs();
    results[0].environment = SAMPLE_ENVIRONMENT;
    const paths = writeResults(tempDir(), results);
    expect((JSON.parse(readFileSync(paths.json, 'utf8')) as RunResult[])[0].environment).toEqual(SAMPLE_ENVIRONMENT);
    expect(readFileSync(paths.html, 'utf8')).toContain(
      'Test CPU, 2 GHz, 2 cores, 23.4 GiB, Linux 6.1 x64; Node v20.20.2, openjdk version &quot;17.0.15&quot;; IoTDB 2.0.1-beta (ms, 1 DataNode); client 0.1.0 at 0123abc',
    );
    // a build of uncommitted changes keeps its -dirty beside the commit's first 12 digits
    const sha = '0123456789abcdef0123456789abcdef01234567';
    results[0].environment = {
      ...SAMPLE_ENVIRONMENT,
      client: { ...SAMPLE_ENVIRONMENT.client, gitCommit: `${sha}-dirty` },
    };
    expect(readFileSync(writeResults(tempDir(), results).html, 'utf8')).toContain('client 0.1.0 at 0123456789ab-dirty');
  });

  it('report.html is self-contained: inline SVG, no external resources, labels escaped', () => {
    const { results, java } = runs();
    const html = readFileSync(writeResults(tempDir(), [...results, java]).html, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect((html.match(/<svg /g) ?? []).length).toBeGreaterThanOrEqual(5);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|\ssrc=|\shref=/i);
    expect(html).toContain('points/s over the run'); // throughput over time
    expect(html).toContain('latency percentiles per operation'); // percentile bars
    expect(html).toContain('insertTablet: 1,000 operations'); // histogram
    expect(html).toContain('Throughput, points/s'); // comparison bars
    expect(html).toContain('<td class="l">points/s</td>');
    expect(html).toMatch(/<td class="l">client CPU s per million<\/td>(<td>\d+\.\d{3} \/ M points<\/td>){2}/);
    expect(html).not.toContain('client CPU ms per operation'); // writes alone: per million points is their figure
    expect(html).toContain('insertRecords, &lt;slow&gt;');
    expect(html).not.toContain('<slow>');
    for (const label of ['insertTablet', 'java']) expect(html).toContain(`<th>${label}</th>`);
    expect(html).toContain('<polyline');
    expect(html.match(/<rect /g)?.length).toBeGreaterThan(20);
  });

  it("report.html gives the server's CPU where a run measured it (--server-pid), and why not where it could not", () => {
    const { results, java } = runs();
    const [ours] = results;
    const measured = { ...ours, serverCpu: { pids: [12], seconds: ours.points / 1e6 / 4 } }; // 0.25 s per M points
    const gone = { ...java, serverCpu: { pids: [12], error: 'process 12 was gone at the end' } };
    const html = readFileSync(writeResults(tempDir(), [measured, gone]).html, 'utf8');
    expect(html).toContain(
      '<td class="l">server CPU s per million</td><td>0.250 / M points</td><td>not measured: process 12 was gone at the end</td>',
    );
    const none = readFileSync(writeResults(tempDir(), [ours, java]).html, 'utf8');
    expect(none).not.toContain('server CPU');
  });

  it("report.html draws the server's cores busy over each run that sampled them (--server-pid)", () => {
    const { results, java } = runs();
    const [ours] = results;
    const sampled = {
      ...ours,
      serverCoresOverTime: [
        [1, 1.2],
        [2, 1.9],
        [3, 1.4],
      ] as [number, number][],
    };
    const html = readFileSync(writeResults(tempDir(), [sampled, java]).html, 'utf8');
    expect(html).toContain('<h2>Server CPU over time</h2>');
    expect(html).toContain('server cores busy over the run (--server-pid)');
    expect(readFileSync(writeResults(tempDir(), [ours, java]).html, 'utf8')).not.toContain('Server CPU over time');
  });

  it('report.html says whether each run read its points back: ok, a mismatch, or why it could not', () => {
    const unread = { expected: 10, ok: false as const, error: 'connect ECONNREFUSED <127.0.0.1:1>' };
    const mismatch = { expected: 10, actual: 9, ok: false };
    const verified = [sampleRun('a'), sampleRun('b', { verify: mismatch }), sampleRun('c', { verify: unread })];
    const html = readFileSync(writeResults(tempDir(), verified).html, 'utf8');
    expect(html).toContain('<td><span class="ok">ok</span></td>');
    expect(html).toContain('<span class="bad">mismatch: 9 of 10</span>');
    expect(html).toContain('<span class="bad">not read back: connect ECONNREFUSED &lt;127.0.0.1:1&gt;</span>');
  });

  it("report.html draws a run's latency over time when it has two intervals or more", () => {
    const overTime = sampleRun('over time', {
      latencyOverTime: [
        [1, 200, 4.1, 9.5, 12],
        [2, 198, 4.3, 480.2, 1990],
      ],
    });
    const html = readFileSync(
      writeResults(tempDir(), [overTime, sampleRun('one interval', { latencyOverTime: [[1, 5, 1, 2, 3]] })]).html,
      'utf8',
    );
    // one chart: the run with a single interval has none
    expect(
      html.match(/class="title">latency over the run, every operation that succeeded, per 1\.0 s \(ms, log scale\)</g),
    ).toHaveLength(1);
    for (const series of ['p50', 'p99', 'max']) expect(html).toContain(`>${series}</text>`);
  });

  it('latency-over-time.csv has a row per run and interval with operations or failures, labels quoted where they need it', () => {
    const runs = [
      sampleRun('ours, paced', {
        latencyOverTime: [[0.5, 120, 1.25, 9.5, 12.0004]],
        failuresOverTime: [
          [0.5, 2],
          [1, 7], // failures alone: no latency
        ],
      }),
      sampleRun('no samples'),
      sampleRun('java', {
        latencyOverTime: [
          [0.5, 80, 2, 30, 31],
          [1, 75, 2.5, 40, 44],
        ],
      }),
    ];
    expect(readFileSync(writeResults(tempDir(), runs).overTimeCsv, 'utf8')).toBe(
      [
        'label,at_s,operations,failed,p50_ms,p99_ms,max_ms',
        '"ours, paced",0.500,120,2,1.250,9.500,12.000',
        '"ours, paced",1.000,0,7,,,',
        'java,0.500,80,0,2.000,30.000,31.000',
        'java,1.000,75,0,2.500,40.000,44.000',
        '',
      ].join('\n'),
    );
  });

  it("latency-over-time.csv's last interval, cut short by the run's end, is at the run's end, not a second past it", () => {
    // a run stopped at --test-max-time 6000: operations under way ended by 6.01 s, in the interval counted to 7 s
    const run = sampleRun('stopped', {
      durationS: 6.01,
      latencyOverTime: [
        [6, 200, 1.8, 5.4, 5.5],
        [7, 2, 1.9, 3.7, 3.7],
      ],
      failuresOverTime: [[7, 1]],
    });
    const rows = readFileSync(writeResults(tempDir(), [run]).overTimeCsv, 'utf8')
      .trim()
      .split('\n');
    expect(rows.slice(1).map((row) => row.split(',')[1])).toEqual(['6.000', '6.010']);
    expect(rows[2]).toBe('stopped,6.010,2,1,1.900,3.700,3.700');
  });

  it("report.html draws a run's operations/s over the whole run, those that failed apart, 0 where none ended", () => {
    const fault = sampleRun('fault', {
      durationS: 4.5,
      latencyOverTime: [
        [1, 100, 1, 2, 3],
        [5, 20, 1, 2, 3], // the last, cut short: 0.5 s of the run
      ],
      failuresOverTime: [[3, 40]],
    });
    const html = readFileSync(writeResults(tempDir(), [fault, sampleRun('none')]).html, 'utf8');
    const title = 'class="title">operations/s over the run, per 1.0 s<';
    expect(html.split(title)).toHaveLength(2); // one chart: the run without samples has none
    const chart = html.slice(html.indexOf(title), html.indexOf('</svg>', html.indexOf(title)));
    for (const series of ['ok', 'failed']) expect(chart).toContain(`>${series}</text>`);
    // five intervals a line, 0 where none ended
    const line = (name: string) => {
      const colour = new RegExp(`fill="([^"]*)"/><text [^>]*>${name}</text>`).exec(chart)![1];
      const points = new RegExp(`<polyline points="([^"]*)" fill="none" stroke="${colour}"`).exec(chart)![1];
      return points.trim().split(/\s+/);
    };
    expect([line('ok').length, line('failed').length]).toEqual([5, 5]);
    const ys = (l: string[]) => l.map((xy) => Number(xy.split(',')[1]));
    const [ok, failed] = [ys(line('ok')), ys(line('failed'))];
    // an svg's y grows downwards: 100/s in the 1st second above the last's 20 in 0.5 s (40/s), above none at all
    expect(ok[1]).toBe(ok[2]); // none in the 2nd and 3rd seconds: both at 0
    expect(ok[0]).toBeLessThan(ok[4]);
    expect(ok[4]).toBeLessThan(ok[1]);
    expect(failed[2]).toBe(ok[4]); // 40 failed in the 3rd second: 40/s, as the last's
  });

  it('report.html folds a last interval shorter than half of one into the one before, not a dip to 0 at the end', () => {
    const opsLine = (run: RunResult) => {
      const html = readFileSync(writeResults(tempDir(), [run]).html, 'utf8');
      const at = html.indexOf('class="title">operations/s over the run');
      const chart = html.slice(at, html.indexOf('</svg>', at));
      const points = /<polyline[^>]* points="([^"]*)"/.exec(chart)![1].trim().split(/\s+/);
      const zero = Number(/<text x="[^"]*" y="([^"]*)" text-anchor="end">0<\/text>/.exec(chart)![1]) - 4;
      // each point's height above the axis' 0, in pixels
      return points.map((xy) => zero - Number(xy.split(',')[1]));
    };
    const steady: NonNullable<RunResult['latencyOverTime']> = [
      [1, 200, 1, 2, 3],
      [2, 200, 1, 2, 3],
      [3, 200, 1, 2, 3],
    ];
    // a run of 3.003 s: its 3 ms after the third second held no operation
    const ys = opsLine(sampleRun('a', { durationS: 3.003, latencyOverTime: steady }));
    expect(ys).toHaveLength(3);
    expect(ys[2] / ys[0]).toBeCloseTo(1, 2); // 200/s throughout (the last 200 over 1.003 s)
    // 10 more in a last 0.2 s: counted with the third second, (200 + 10) / 1.2 s = 175/s, not 50/s of its own
    const tail = opsLine(sampleRun('b', { durationS: 3.2, latencyOverTime: [...steady, [4, 10, 1, 2, 3]] }));
    expect(tail).toHaveLength(3);
    expect(tail[2] / tail[1]).toBeCloseTo(175 / 200, 1);
    // a run of 1.15 s (a query file's statement of 500 reads): one interval once its last 0.15 s is folded in, no line
    // to draw (it drew a lone dot)
    const short = sampleRun('c', {
      durationS: 1.15,
      latencyOverTime: [
        [1, 435, 1, 2, 3],
        [2, 65, 1, 2, 3],
      ],
    });
    const html = readFileSync(writeResults(tempDir(), [short]).html, 'utf8');
    expect(html).not.toContain('operations/s over the run');
    expect(html).not.toContain('latency over the run'); // its percentiles likewise: one interval, no line
  });

  it("report.html's latency lines leave out a last interval shorter than half of one: its last few operations' p99", () => {
    // 3.2 s: the last 0.2 s held the run's last 10 operations, none waiting behind another (p99 0.6 ms after 9 ms)
    const steady: NonNullable<RunResult['latencyOverTime']> = [
      [1, 200, 2, 9, 12],
      [2, 200, 2, 9.5, 12],
      [3, 200, 2, 8.5, 12],
    ];
    const run = (label: string, durationS: number) =>
      sampleRun(label, { durationS, latencyOverTime: [...steady, [4, 10, 0.3, 0.6, 0.7]] });
    const html = readFileSync(writeResults(tempDir(), [run('a', 3.2), run('b', 3.2)]).html, 'utf8');
    const pointsIn = (title: string) => {
      const at = html.indexOf(`class="title">${title}`);
      const chart = html.slice(at, html.indexOf('</svg>', at));
      return [...chart.matchAll(/<polyline[^>]* points="([^"]*)"/g)].map((m) => m[1].trim().split(/\s+/).length);
    };
    expect(pointsIn('latency over the run')).toEqual([3, 3, 3]); // p50, p99, max
    expect(pointsIn('p99 over the run')).toEqual([3, 3]); // each run's
    // half an interval or more: an interval of its own
    const longer = readFileSync(writeResults(tempDir(), [run('c', 3.5)]).html, 'utf8');
    const at = longer.indexOf('class="title">latency over the run');
    const chart = longer.slice(at, longer.indexOf('</svg>', at));
    expect(/<polyline[^>]* points="([^"]*)"/.exec(chart)![1].trim().split(/\s+/)).toHaveLength(4);
  });

  it('report.html draws no throughput over time where no run has two samples (a run under a second: a lone dot)', () => {
    const short = (label: string) => sampleRun(label, { durationS: 0.57, throughput: [[0.57, 1_678_215]] });
    const html = readFileSync(writeResults(tempDir(), [short('ours'), short('java')]).html, 'utf8');
    expect(html).not.toContain('Throughput over time');
    expect(html).toContain('Throughput, points/s'); // the bars say it
    const oneLong = readFileSync(writeResults(tempDir(), [short('ours'), sampleRun('java')]).html, 'utf8');
    expect(oneLong).toContain('points/s over the run'); // a line beside the short run's dot
  });

  it("report.html's summary has no rows of reads where no run read (write runs: no column of zeros)", () => {
    const write = (label: string) => sampleRun(label, { queries: undefined });
    const writes = readFileSync(writeResults(tempDir(), [write('a'), write('b')]).html, 'utf8');
    for (const readRow of ['rows read', 'rows/s']) expect(writes).not.toContain(`<td class="l">${readRow}</td>`);
    expect(writes).toContain('<td class="l">points/s</td>');
    const reads = {
      TIME_RANGE: { ops: 5, failed: 0, rows: 500, rowsPerS: 100, latency: sampleRun('x').latency.insertTablet },
    };
    const mixed = readFileSync(writeResults(tempDir(), [write('a'), sampleRun('m', { queries: reads })]).html, 'utf8');
    expect(mixed).toMatch(/<td class="l">rows read<\/td><td>0<\/td><td>500<\/td>/);
  });

  it("report.html draws a last interval cut short by the run's end at that end, not past it", () => {
    // a 3.6 s run: its 4th interval's operations ended by 3.6 s, not at 4 s (its throughput ends at 3.6 s too)
    const samples: NonNullable<RunResult['latencyOverTime']> = [
      [1, 100, 2, 5, 6],
      [2, 100, 2, 5, 6],
      [3, 100, 2, 5, 6],
      [4, 60, 2, 5, 6],
    ];
    const runs = ['ours', 'java'].map((label) => sampleRun(label, { durationS: 3.6, latencyOverTime: samples }));
    const html = readFileSync(writeResults(tempDir(), runs).html, 'utf8');
    const xs = (title: string) => {
      const at = html.indexOf(`class="title">${title}`);
      const points = /<polyline points="([^"]*)"/.exec(html.slice(at, html.indexOf('</svg>', at)))![1];
      return points
        .trim()
        .split(/\s+/)
        .map((xy) => Number(xy.split(',')[0]));
    };
    for (const title of ['latency over the run', 'p99 over the run', 'operations/s over the run']) {
      const x = xs(title);
      expect(x, title).toHaveLength(4);
      expect((x[3] - x[2]) / (x[1] - x[0]), title).toBeCloseTo(0.6, 1);
    }
  });

  it("report.html draws the runs' p99 over time in one chart when two runs or more have latency over time", () => {
    const samples = (p99: number): NonNullable<RunResult['latencyOverTime']> => [
      [1, 100, 2, p99, p99],
      [2, 100, 2, p99 * 2, p99 * 2],
    ];
    const title = /class="title">p99 over the run, every operation that succeeded, each run \(ms, log scale\)</g;
    const ours = sampleRun('ours', { latencyOverTime: samples(5) });
    const java = sampleRun('java', { latencyOverTime: samples(90) });
    const both = readFileSync(writeResults(tempDir(), [ours, java, sampleRun('neither')]).html, 'utf8');
    expect(both.match(title)).toHaveLength(1);
    const chart = both.slice(both.search(title), both.indexOf('</svg>', both.search(title)));
    for (const label of ['ours', 'java']) expect(chart).toContain(`>${label}</text>`);
    expect(chart).not.toContain('>neither</text>'); // a run without samples has no line in it
    // one run with samples: its own chart only
    expect(readFileSync(writeResults(tempDir(), [ours, sampleRun('neither')]).html, 'utf8')).not.toMatch(title);
  });

  it("report.html draws a run's histograms in the latency table's order, and keeps long run labels apart", () => {
    const h = sampleHistogram(100, 3);
    // as a mixed run records them: in the order the first operation of each kind ended
    const histograms = { RANGE_QUERY_DESC: h, 'uncorrected insertTablet': h, PRECISE_POINT: h, insertTablet: h };
    const runs = ['tree-insertTablet-mixed-with-a-long-name#1', 'tree-insertTablet-mixed-with-a-long-name#2'].map(
      (label) => sampleRun(label, { histograms }),
    );
    const html = readFileSync(writeResults(tempDir(), runs).html, 'utf8');
    const titles = [...html.matchAll(/<title>([^<]*): 100 operations<\/title>/g)].map((m) => m[1]);
    expect(titles.slice(0, 4)).toEqual([
      'insertTablet',
      'uncorrected insertTablet',
      'PRECISE_POINT',
      'RANGE_QUERY_DESC',
    ]);
    const barLabels = [...html.matchAll(/<text [^>]*text-anchor="end">([^<]*#\d)<\/text>/g)].map((m) => m[1]);
    expect(new Set(barLabels).size).toBe(2);
  });

  it('report.html of statements that only read shows their rows read and rows/s, not the write figures', () => {
    const statement = (label: string, rows: number, over: Partial<RunResult> = {}) =>
      sampleStatement(label, rows, { clientCpuS: 0.5, ...over });
    const html = readFileSync(
      writeResults(tempDir(), [statement('all', 1_000_000), statement('one', 500), statement('none', 0)]).html,
      'utf8',
    );
    expect(html).toContain('Throughput, rows/s');
    expect(html).toContain('200,000 rows/s');
    expect(html).toMatch(/<td class="l">rows read<\/td><td>1,000,000<\/td><td>500<\/td><td>0<\/td>/);
    // the client's CPU per million rows read, as the console gives it (per million points would be 0, nothing written)
    expect(html).toMatch(
      /<td class="l">client CPU s per million<\/td><td>0\.500 \/ M rows<\/td><td>1000\.000 \/ M rows<\/td><td>-<\/td>/,
    );
    // and per operation, the unit of a statement that reads a row or a few, as the console's table of the runs
    expect(html).toMatch(
      /<td class="l">client CPU ms per operation<\/td><td>50\.000<\/td><td>50\.000<\/td><td>50\.000<\/td>/,
    );
    expect(html).toMatch(/<td class="l">model \/ method<\/td><td>tree \/ -<\/td>/);
    expect(html).not.toContain('points/s over the run');
    expect(html).not.toContain('Throughput, points/s');
    for (const writeRow of ['points', 'points/s', 'devices x sensors, batch'])
      expect(html).not.toContain(`<td class="l">${writeRow}</td>`);
    // a first statement that read nothing (CREATE, INSERT): the ratios are to the first one that read rows
    const afterSetup = readFileSync(
      writeResults(tempDir(), [statement('create', 0), statement('all', 1_000_000), statement('one', 500)]).html,
      'utf8',
    );
    expect(afterSetup).toContain('Throughput, rows/s, ratios to all');
    expect(afterSetup).toContain('200,000 rows/s (1.00x)');
    expect(afterSetup).toContain('100 rows/s (0.0005x)'); // not 0.00x: a ratio, however small
    // a query file's statements beside the Java client's: each against its own first run, never another statement
    const at = (label: string, rows: number, line: number) =>
      statement(label, rows, { queryFile: { sql: `SELECT ${line}`, concurrency: 1, repetitions: 10, line } });
    const vsJava = readFileSync(
      writeResults(tempDir(), [at('point', 300, 1), at('java point', 700, 1), at('range', 30_000, 4)]).html,
      'utf8',
    );
    expect(vsJava).toContain('Throughput, rows/s, ratios to the first run of each statement');
    expect(vsJava).toContain('140 rows/s (2.33x)');
    expect(vsJava).toContain('6,000 rows/s (1.00x)'); // it said 100.00x: against the point query
  });

  it('report.html of runs of queries alone names no write method, and no main operation or its p50 that they have not', () => {
    const html = readFileSync(
      writeResults(tempDir(), [sampleQueriesAlone('q#1'), sampleQueriesAlone('q#2')]).html,
      'utf8',
    );
    expect(html).toMatch(/<td class="l">model \/ method<\/td><td>tree \/ -<\/td><td>tree \/ -<\/td>/);
    expect(html).not.toContain('<td class="l">main op</td>');
    expect(html).not.toContain('<td class="l">p50 / p99 ms</td>');
    // beside a run that wrote, they stay (- for the run of queries)
    const mixed = readFileSync(writeResults(tempDir(), [sampleRun('w'), sampleQueriesAlone('q')]).html, 'utf8');
    expect(mixed).toMatch(/<td class="l">main op<\/td><td>insertTablet<\/td><td>-<\/td>/);
    expect(resultLine(sampleQueriesAlone('q'))).toContain(' method=- ');
  });

  it("report.html says whether an open-loop run kept its schedule, as the console's open loop line", () => {
    const base = sampleRun('x'); // 4 workers x 8 clients, 1000 insertTablet over 5 s: 200 started a second
    const open = (label: string, targetRate: number, lateMs: number) => {
      const corrected = base.latency.insertTablet;
      const latency = { ...base.latency, 'uncorrected insertTablet': { ...corrected, avg: corrected.avg - lateMs } };
      return sampleRun(label, { config: { ...base.config, targetRate }, latency });
    };
    const html = readFileSync(
      writeResults(tempDir(), [open('kept', 200, 0.25), open('late', 200, 500), sampleRun('closed')]).html,
      'utf8',
    );
    const row = /<td class="l">open loop: target, achieved ops\/s<\/td>(.*?)<\/tr>/.exec(html)?.[1] ?? '';
    const cells = [...row.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, ''));
    expect(cells).toEqual([
      '200, 200.0: met; started 0.250 ms late on average',
      '200, 200.0: rate met, behind its schedule; started 500.0 ms late on average',
      '-',
    ]);
    expect(row).toContain('title="rate met, but operations fell behind their schedule (the corrected rows include');
  });

  it('report.html leaves out a row of dashes: no open loop row for closed loops, no stop row when none stopped early', () => {
    const closed = readFileSync(writeResults(tempDir(), [sampleRun('a'), sampleRun('b')]).html, 'utf8');
    expect(closed).not.toContain('open loop: target');
    expect(closed).not.toContain('stopped early');
    const stopped = sampleRun('c', { stopped: 'test-max-time' });
    const one = readFileSync(writeResults(tempDir(), [sampleRun('a'), stopped]).html, 'utf8');
    expect(one).toMatch(/<td class="l">stopped early<\/td><td>-<\/td><td>test-max-time<\/td>/);
  });

  it("report.html gives a sweep of rates its table, as the console's; none for runs that are not one", () => {
    const base = sampleRun('x'); // 1000 insertTablet over 5 s: 200 started a second
    const at = (targetRate: number, p99: number) => {
      const corrected = { ...base.latency.insertTablet, p99 };
      const latency = { insertTablet: corrected, 'uncorrected insertTablet': base.latency.insertTablet };
      const config = { ...base.config, targetRate, sweepRates: [200, 400] };
      return sampleRun(`tree-insertTablet@${targetRate}/s`, { config, latency });
    };
    const html = readFileSync(writeResults(tempDir(), [at(200, 4.5), at(400, 812)]).html, 'utf8');
    expect(html).toContain('<h2>Sweep: p99 ms from the intended start, by target rate (operations/s)</h2>');
    expect(html).toContain('<h3>tree-insertTablet</h3>');
    const cells = (name: string) =>
      [...(new RegExp(`<td class="l">${name}</td>(.*?)</tr>`).exec(html)?.[1] ?? '').matchAll(/<td>(.*?)<\/td>/g)].map(
        (m) => m[1],
      );
    expect(cells('open loop')).toEqual(['met', 'NOT met']);
    expect(cells('insertTablet')).toEqual(['4.500', '812.0']);
    const plain = readFileSync(writeResults(tempDir(), [base, sampleRun('y')]).html, 'utf8');
    expect(plain).not.toContain('Sweep');
  });

  it('copes with runs that have no samples at all', () => {
    const none = {
      throughput: [],
      histograms: {},
      latency: {},
      errors: [],
      points: 0,
      pointsPerS: 0,
      okOps: 0,
      clientCpuSPerMpts: 0,
    };
    const empty = sampleRun('empty', none, 0);
    const html = readFileSync(writeResults(tempDir(), [empty]).html, 'utf8');
    expect(html).not.toContain('Throughput over time'); // no line to draw (it was an empty chart, "no data")
    expect(html).toContain('no latency samples');
    expect(html).not.toMatch(/NaN|Infinity/);
  });
});

describe('makeOutDir: --out made (or found) before the run, so that a run is not lost for want of it', () => {
  it('makes the directory and its parents', () => {
    const dir = join(tempDir(), 'a', 'b');
    makeOutDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    makeOutDir(dir); // there already: fine
  });

  it("says why it cannot, at once (Node's recursive mkdir loops forever on /proc)", () => {
    expect(() => makeOutDir('/proc/no-such-dir')).toThrow(/^\/proc\/no-such-dir: cannot make it \(ENOENT\)/);
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    // Node 20's stat of a path under a file fails ENOTDIR; Node 24's finds no entry, and its parent is no directory
    expect(() => makeOutDir(join(file, 'out'))).toThrow(/a-file(\/out: cannot make it \(ENOTDIR\)|: not a directory)$/);
    expect(() => makeOutDir(file)).toThrow(/a-file: not a directory/);
  });

  it("refuses a new directory named as a file (--out run.json made a directory 'run.json'), naming the one meant", () => {
    const parent = tempDir();
    for (const name of ['run.json', 'R.CSV', 'report.html']) {
      const stem = name.slice(0, name.lastIndexOf('.'));
      expect(() => makeOutDir(join(parent, name))).toThrow(
        `${join(parent, name)}: names a file, and --out takes a directory (its results.json, results.csv, latency.csv, latency-over-time.csv and report.html): --out ${join(parent, stem)}`,
      );
      expect(existsSync(join(parent, name))).toBe(false);
    }
    mkdirSync(join(parent, 'kept.json'));
    makeOutDir(join(parent, 'kept.json')); // a directory of that name already there: the user's choice
    makeOutDir(join(parent, 'json')); // no extension
  });
});
