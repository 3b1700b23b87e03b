import type { BenchConfig } from '../types.js';

/**
 * Values that run as given but are likely not what was meant, each said before the run: a limit of a few
 * milliseconds where seconds were meant ends a run before it has measured anything.
 */
export function knobWarnings(c: BenchConfig): string[] {
  const warnings: string[] = [];
  if (c.testMaxTime > 0 && c.testMaxTime < 1000)
    warnings.push(
      `the timed phase stops after ${c.testMaxTime} ms: --test-max-time (TEST_MAX_TIME) is milliseconds, as ` +
        `iot-benchmark's; for ${c.testMaxTime} s give ${c.testMaxTime * 1000}`,
    );
  return warnings;
}
