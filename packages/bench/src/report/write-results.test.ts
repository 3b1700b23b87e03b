import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resultLine } from './format.js';
import { sampleRun } from './test-fixture.js';
import { writeResults } from './write-results.js';

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
  it('writes the three files into a new directory and returns their paths', () => {
    const dir = join(tempDir(), 'nested', 'out');
    const { results } = runs();
    const paths = writeResults(dir, results);
    expect(paths).toEqual({
      json: join(dir, 'results.json'),
      csv: join(dir, 'results.csv'),
      html: join(dir, 'report.html'),
    });
    for (const p of Object.values(paths)) expect(dirname(p)).toBe(dir);
  });

  it('results.json round-trips, the Java run appended', () => {
    const { results, java } = runs();
    const paths = writeResults(tempDir(), results, { java });
    const text = readFileSync(paths.json, 'utf8');
    expect(JSON.parse(text)).toEqual([...results, java]);
    expect(text).toMatch(/"counts": \[0,0,[\d,]+\]/); // histogram buckets on one line, not one per line
  });

  it('results.csv has the RESULT keys as header and one row per run', () => {
    const { results, java } = runs();
    const paths = writeResults(tempDir(), results, { java });
    const lines = readFileSync(paths.csv, 'utf8').trimEnd().split('\n');
    const pairs = resultLine(results[0])
      .split(' ')
      .slice(1)
      .map((p) => p.split('='));
    expect(lines[0].split(',')).toEqual(pairs.map(([k]) => k));
    expect(lines).toHaveLength(1 + 3);
    expect(lines[1].split(',')).toEqual(pairs.map(([, v]) => v));
    expect(lines[2].startsWith('"insertRecords,_<slow>",')).toBe(true); // quoted: the label has a comma
    expect(lines[3].startsWith('java,')).toBe(true);
  });

  it('report.html is self-contained: inline SVG, no external resources, labels escaped', () => {
    const { results, java } = runs();
    const html = readFileSync(writeResults(tempDir(), results, { java }).html, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect((html.match(/<svg /g) ?? []).length).toBeGreaterThanOrEqual(5);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|\ssrc=|\shref=/i);
    expect(html).toContain('points/s over the run'); // throughput over time
    expect(html).toContain('latency percentiles per operation'); // percentile bars
    expect(html).toContain('insertTablet: 1,000 operations'); // histogram
    expect(html).toContain('Throughput, points/s'); // comparison bars
    expect(html).toContain('insertRecords, &lt;slow&gt;');
    expect(html).not.toContain('<slow>');
    for (const label of ['insertTablet', 'java']) expect(html).toContain(`<th>${label}</th>`);
    expect(html).toContain('<polyline');
    expect(html.match(/<rect /g)?.length).toBeGreaterThan(20);
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
    expect(html).toContain('no data');
    expect(html).toContain('no latency samples');
    expect(html).not.toMatch(/NaN|Infinity/);
  });
});
