/** Writes a run's files: results.json, results.csv, latency.csv, latency-over-time.csv and report.html. */
import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RunError } from '../run/run-error.js';
import type { RunResult } from '../types.js';
import { toCsv } from './csv.js';
import { renderHtml } from './html.js';
import { matrixCsv } from './latency-matrix.js';
import { prettyJson } from './json.js';
import { overTimeCsv } from './over-time-csv.js';

/**
 * Writes the five files into `dir` (created if missing) and returns their paths: every run in `runs`, in their
 * order (a --vs-java run's Java run among them, compared like any other).
 */
export function writeResults(
  dir: string,
  runs: RunResult[],
): { json: string; csv: string; latencyCsv: string; overTimeCsv: string; html: string } {
  makeOutDir(dir);
  const paths = {
    json: join(dir, 'results.json'),
    csv: join(dir, 'results.csv'),
    latencyCsv: join(dir, 'latency.csv'),
    overTimeCsv: join(dir, 'latency-over-time.csv'),
    html: join(dir, 'report.html'),
  };
  writeFileSync(paths.json, `${prettyJson(runs)}\n`);
  writeFileSync(paths.csv, toCsv(runs));
  writeFileSync(paths.latencyCsv, matrixCsv(runs));
  writeFileSync(paths.overTimeCsv, overTimeCsv(runs));
  writeFileSync(paths.html, renderHtml(runs));
  return paths;
}

/**
 * Makes --out's directory before a run, whose results would be lost for want of it; false, said on stderr
 * (`<command>: --out: <why>`), when it cannot be made or written into.
 */
export function outDirReady(dir: string, command: string): boolean {
  try {
    makeOutDir(dir);
    return true;
  } catch (e) {
    if (!(e instanceof RunError)) throw e;
    console.error(`${command}: --out: ${e.message}`);
    return false;
  }
}

const FILE_NAME = /\.(json|csv|html)$/i;

/** `--out run.json` would make a directory of that name, where the user looks for a file: refused, with the name meant. */
function refuseFileName(dir: string): void {
  const ext = FILE_NAME.exec(dir);
  if (ext === null) return;
  throw new RunError(
    `${dir}: names a file, and --out takes a directory (its results.json, results.csv, latency.csv, latency-over-time.csv and report.html): --out ${dir.slice(0, ext.index)}`,
  );
}

/**
 * Makes `dir` and its missing parents, or finds it there, writable; throws why not (`<dir>: cannot make it
 * (ENOENT)`).
 */
export function makeOutDir(dir: string): void {
  if (!existsSync(dir)) refuseFileName(dir);
  makeDir(dir);
}

/** Parent by parent: Node's `mkdirSync(dir, { recursive: true })` never returns for a path under /proc. */
function makeDir(dir: string): void {
  const path = resolve(dir);
  const parent = dirname(path);
  try {
    if (statSync(path, { throwIfNoEntry: false }) === undefined) {
      if (parent !== path) makeDir(parent);
      mkdirSync(path);
    }
  } catch (e) {
    if (e instanceof RunError) throw e; // a parent's, already said
    throw new RunError(`${dir}: cannot make it (${(e as NodeJS.ErrnoException).code})`);
  }
  if (!statSync(path).isDirectory()) throw new RunError(`${dir}: not a directory`);
  try {
    accessSync(path, constants.W_OK);
  } catch (e) {
    throw new RunError(`${dir}: cannot write into it (${(e as NodeJS.ErrnoException).code})`);
  }
}
