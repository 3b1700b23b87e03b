/**
 * The names of a run's latency rows besides its operations' own (`insertTablet`, `TIME_RANGE`, a statement's label):
 * what the workers record, the Java client's output is read into, and the report shows, each under one name.
 */

/** Latency kinds that `--trace` adds ('traced insertTablet', ...): never the run's main operation. */
export const TRACED_PREFIX = 'traced ';
/** With `--target-rate`, latency from the actual start ('uncorrected insertTablet', ...) beside the corrected. */
export const UNCORRECTED_PREFIX = 'uncorrected ';
/**
 * Operations that failed ('failed insertTablet', ...): kept out of their operation's row, whose latency is then
 * that of the operations that succeeded (as iot-benchmark's matrix), and shown in a row of their own.
 */
export const FAILED_PREFIX = 'failed ';
/**
 * With `--target-rate`, one row for the whole run: how late each operation started after it was due (its corrected
 * less its uncorrected latency), failed ones too. Its tail is the client's own lag (event loop, timers) or a client
 * still busy with its previous operation when the next fell due.
 */
export const START_LAG = 'start lag';
/** The prefixes of rows that describe an operation without being its own successes. */
export const DERIVED_PREFIXES: readonly string[] = [FAILED_PREFIX, UNCORRECTED_PREFIX, TRACED_PREFIX];
/** `--queries` after a mixed run's own queries: `TIME_RANGE after the writes` beside the mixed run's `TIME_RANGE`. */
export const AFTER_THE_WRITES = ' after the writes';
