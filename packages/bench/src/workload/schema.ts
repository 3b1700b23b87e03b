import { TSDataType, escapeTableIdentifier } from '@iotdb/client';
import { TYPE_ORDER } from '../config/type-proportions.js';
import type { BenchConfig } from '../types.js';
import { anchorTypes } from './anchor.js';

/**
 * The data type of each sensor: the Java anchor's assignment for `--workload java-anchor`, otherwise
 * the proportions spread over the sensors by largest remainder, types in TSDataType order.
 */
export function sensorTypes(c: BenchConfig): TSDataType[] {
  if (c.workload === 'java-anchor') return anchorTypes(c.sensors);
  const weights = TYPE_ORDER.map((t) => c.typeProportions[t] ?? 0);
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / total) * c.sensors);
  const counts = exact.map(Math.floor);
  let left = c.sensors - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    counts[i]++;
    left--;
  }
  return TYPE_ORDER.flatMap((name, i) => Array<TSDataType>(counts[i]).fill(TSDataType[name]));
}

/**
 * Words IoTDB refuses as a node of a tree path, in any case: unquoted a parse error ([700]), backquoted [509] (a
 * backquoted `root` is taken, then breaks SHOW DEVICES).
 */
export const TREE_RESERVED_NODES: readonly string[] = ['root', 'time', 'timestamp'];

/** Whether `name` is one of TREE_RESERVED_NODES. */
export function isReservedTreeNode(name: string): boolean {
  return TREE_RESERVED_NODES.includes(name.toLowerCase());
}

/**
 * The table model's database as the run's statements name it: quoted, so that a word IoTDB's grammar reserves
 * (select, table, from) is a name, as the server takes it quoted (case folded as unquoted). The sessions name it
 * by their `database` option, which needs no quotes.
 */
export function tableDatabaseSql(c: BenchConfig): string {
  return escapeTableIdentifier(c.database);
}

/** Device names: tree `root.<db>.dNNN`, table tag values `dNNN` (at least 3 digits, as the Java anchor). */
export function deviceName(c: BenchConfig, d: number): string {
  const width = Math.max(3, String(c.devices - 1).length);
  const name = `d${String(d).padStart(width, '0')}`;
  return c.model === 'table' ? name : `root.${c.database}.${name}`;
}

/** The names of this machine's devices, [deviceOffset, deviceOffset + deviceCount), in order. */
export function shareDeviceNames(c: BenchConfig): string[] {
  return Array.from({ length: c.deviceCount }, (_, i) => deviceName(c, c.deviceOffset + i));
}

export const TABLE_NAME = 't';
export const DEVICE_TAG = 'device_id';
