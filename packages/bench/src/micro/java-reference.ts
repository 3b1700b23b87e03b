import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JavaInterrupted, runJavaScript } from '../run/java-child.js';

/** The Java client's codec rates from java/codec.sh (points/s), or null when Java is not on the machine. */
export interface JavaCodecRates {
  encodePointsPerS: number;
  /**
   * the same request from an application's rows, the Tablet filled by Tablet.addValue each time (null: a reference
   * from before it measured this)
   */
  encodeRowsPointsPerS: number | null;
  /** TsBlockSerde.deserialize, then every value read from its columns */
  decodePointsPerS: number;
  /** the same for the block with a third of its cells null (a sparse result) */
  decodeThirdNullPointsPerS: number;
  /** the same for a block of 1000 rows, the most the server sends in one */
  decodeServerBlockPointsPerS: number;
  /** the block through SessionDataSet.iterator(), every value by its typed getter (null: not measured, see rowsUnavailable) */
  rowGettersPointsPerS: number | null;
  /** the block through SessionDataSet.next(), every value of each RowRecord (null: not measured) */
  rowRecordsPointsPerS: number | null;
  /** why the Java row iterator was not measured (its session internals failed), if it was not */
  rowsUnavailable?: string;
}

/** java/ ships in this package beside dist/, so the installed `iotdb-bench-micro` finds it too. */
const script = fileURLToPath(new URL('../../java/codec.sh', import.meta.url));

/** The first of `tools` that does not run here, if any. */
function missingTool(tools: readonly string[]): string | undefined {
  return tools.find((tool) => {
    try {
      execFileSync(tool, ['-version'], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * Runs java/codec.sh for about `seconds` per task. It compiles Codec.java against IoTDB's jars, which
 * scripts/iotdb-local.sh fetches with Maven on first use (then cached in ~/.cache/iotdb-local). Returns null,
 * saying why, when java or javac is missing or the script fails (no Maven, no network): the JavaScript
 * benchmarks stand on their own. Rejects with JavaInterrupted when Ctrl-C or SIGTERM ended it.
 */
export async function runJavaCodec(seconds: number): Promise<JavaCodecRates | null> {
  const missing = missingTool(['java', 'javac']);
  if (missing !== undefined) {
    console.log(`${missing} not found`);
    return null;
  }
  const out = await runCodecScript(script, [String(seconds)]);
  return out === null ? null : codecRates(out);
}

/**
 * A codec script's output, or null when it failed, said in one line (its exit status and first exception line).
 * It runs as the e2e benchmark's Java client does (runJavaScript: a process group of its own, Ctrl-C and SIGTERM
 * sent to ours passed on); interrupted, it rejects with JavaInterrupted.
 */
export async function runCodecScript(path: string, args: readonly string[]): Promise<string | null> {
  try {
    return await runJavaScript(path, args);
  } catch (e) {
    if (e instanceof JavaInterrupted) throw e;
    console.log(`${basename(path)}: ${(e as Error).message}`);
    return null;
  }
}

/** The rates in codec.sh's CODEC lines; the row iterator's are null when it printed `rows_unavailable` instead. */
export function codecRates(out: string): JavaCodecRates {
  const optionalRate = (name: string): number | null => {
    const m = new RegExp(`CODEC ${name} points_per_s=(\\d+)`).exec(out);
    return m === null ? null : Number(m[1]);
  };
  const rate = (name: string): number => {
    const r = optionalRate(name);
    if (r === null) throw new Error(`java/codec.sh printed no ${name} line:\n${out}`);
    return r;
  };
  const unavailable = /^CODEC rows_unavailable (.*)$/m.exec(out)?.[1];
  return {
    encodePointsPerS: rate('encode_tablet_500x50'),
    encodeRowsPointsPerS: optionalRate('encode_rows_500x50'),
    decodePointsPerS: rate('decode_tsblock_5000x50'),
    decodeThirdNullPointsPerS: rate('decode_tsblock_5000x50_third_null'),
    decodeServerBlockPointsPerS: rate('decode_tsblock_1000x50'),
    rowGettersPointsPerS: optionalRate('rows_getters_5000x50'),
    rowRecordsPointsPerS: optionalRate('rows_records_5000x50'),
    ...(unavailable === undefined ? {} : { rowsUnavailable: unavailable }),
  };
}
