/** Knob values as text, for --help, the plan and error messages. */
import type { BenchConfig } from '../types.js';
import { grouped } from '../report/numbers.js';
import { formatOperationProportion } from './operation-proportion.js';
import { formatProportions } from './type-proportions.js';

export function formatValue(value: BenchConfig[keyof BenchConfig]): string {
  if (value === undefined) return 'none';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  if (typeof value === 'object')
    return 'INGESTION' in value ? formatOperationProportion(value) : formatProportions(value);
  return String(value);
}

/** `1 round`, `3 rounds` */
export function plural(n: number, noun: string): string {
  return `${grouped(n)} ${noun}${n === 1 ? '' : 's'}`;
}
