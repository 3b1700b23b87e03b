/** Knobs from environment variables (iot-benchmark's names where it has one). Empty variables count as unset. */
import { KNOB_KEYS, KNOBS, TOTAL_POINTS, TOTAL_POINTS_KEY } from './knobs.js';
import type { KnobKey, Setting } from './source.js';

const VARIABLES: readonly [KnobKey, string][] = [
  ...KNOB_KEYS.map((k): [KnobKey, string] => [k, KNOBS[k].env]),
  [TOTAL_POINTS_KEY, TOTAL_POINTS.env],
];

export function envSettings(env: Record<string, string | undefined>): Setting[] {
  return VARIABLES.flatMap(([key, name]) => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? [] : [{ key, raw, source: { kind: 'env', name, knob: key } }];
  });
}
