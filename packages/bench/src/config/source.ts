/** Where a knob's value came from, for error messages and precedence. */
import type { BenchConfig } from '../types.js';
import type { RawValue } from './parsers.js';

/** A BenchConfig field, or totalPoints (an input that sets loop). */
export type KnobKey = keyof BenchConfig | 'totalPoints';

/** One value given for a knob, not yet parsed. */
export interface Setting {
  key: KnobKey;
  raw: RawValue;
  source: Source;
}

export type Source =
  | { kind: 'file'; path: string; key: string; line: number | undefined }
  | { kind: 'env'; name: string; knob: string }
  | { kind: 'flag'; flag: string };

/** Where a resolved value came from: a source, or one of the resolver's own rules. */
export type Origin = Source | { kind: 'default' } | { kind: 'java-anchor' } | { kind: 'derived'; from: Source };

/** Precedence: defaults < config file < environment < flags. */
export const RANK: Record<Source['kind'], number> = { file: 1, env: 2, flag: 3 };

/** e.g. `--workers`, `env WORKER_COUNT (workers)`, `bench.yaml:3 key "workers"`. */
export function describeSource(s: Source): string {
  switch (s.kind) {
    case 'flag':
      return s.flag;
    case 'env':
      return `env ${s.name} (${s.knob})`;
    case 'file':
      return `${s.path}${s.line === undefined ? '' : `:${s.line}`} key "${s.key}"`;
  }
}

export function describeOrigin(o: Origin): string {
  switch (o.kind) {
    case 'default':
      return 'default';
    case 'java-anchor':
      return 'set by --workload java-anchor';
    case 'derived':
      return `from ${describeSource(o.from)}`;
    default:
      return describeSource(o);
  }
}
