/** Writes a run's files: results.json, results.csv, latency.csv and report.html. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../types.js';
import { toCsv } from './csv.js';
import { renderHtml } from './html.js';
import { matrixCsv } from './latency-matrix.js';
import { prettyJson } from './json.js';

/**
 * Writes the four files into `dir` (created if missing) and returns their paths. The Java run, when
 * given, is appended after `results` in all of them, so it is compared like any other run.
 */
export function writeResults(
  dir: string,
  results: RunResult[],
  extra: { java?: RunResult } = {},
): { json: string; csv: string; latencyCsv: string; html: string } {
  const runs = extra.java === undefined ? results : [...results, extra.java];
  mkdirSync(dir, { recursive: true });
  const paths = {
    json: join(dir, 'results.json'),
    csv: join(dir, 'results.csv'),
    latencyCsv: join(dir, 'latency.csv'),
    html: join(dir, 'report.html'),
  };
  writeFileSync(paths.json, `${prettyJson(runs)}\n`);
  writeFileSync(paths.csv, toCsv(runs));
  writeFileSync(paths.latencyCsv, matrixCsv(runs));
  writeFileSync(paths.html, renderHtml(runs));
  return paths;
}
