import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JavaInterrupted, interruptJavaChildren } from '../run/java-child.js';
import { codecRates, runCodecScript } from './java-reference.js';

const codec = [
  'CODEC encode_tablet_500x50 points_per_s=154321799 request_bytes=147165',
  'CODEC decode_tsblock_5000x50 points_per_s=83602122 block_bytes=1443285 (sink 5)',
  'CODEC decode_tsblock_5000x50_third_null points_per_s=67828784 block_bytes=1007867 (sink 4)',
  'CODEC decode_tsblock_1000x50 points_per_s=71234567 block_bytes=288685 (sink 2)',
];

describe("codecRates: the Java reference's CODEC lines", () => {
  it('reads the codec and row iterator rates', () => {
    const out = [
      ...codec,
      'CODEC rows_getters_5000x50 points_per_s=26660747 (sink 5)',
      'CODEC rows_records_5000x50 points_per_s=16139935 (sink 1)',
      'CODEC encode_rows_500x50 points_per_s=61234567 request_bytes=147165',
    ].join('\n');
    expect(codecRates(out)).toEqual({
      encodePointsPerS: 154321799,
      encodeRowsPointsPerS: 61234567,
      decodePointsPerS: 83602122,
      decodeThirdNullPointsPerS: 67828784,
      decodeServerBlockPointsPerS: 71234567,
      rowGettersPointsPerS: 26660747,
      rowRecordsPointsPerS: 16139935,
    });
  });

  it("keeps the codec's rates when the row iterator could not be measured, and says why", () => {
    const out = [...codec, 'CODEC rows_unavailable java.lang.NoSuchMethodError: SessionDataSet.<init>'].join('\n');
    expect(codecRates(out)).toEqual({
      encodePointsPerS: 154321799,
      encodeRowsPointsPerS: null, // a reference from before it measured rows
      decodePointsPerS: 83602122,
      decodeThirdNullPointsPerS: 67828784,
      decodeServerBlockPointsPerS: 71234567,
      rowGettersPointsPerS: null,
      rowRecordsPointsPerS: null,
      rowsUnavailable: 'java.lang.NoSuchMethodError: SessionDataSet.<init>',
    });
  });

  it('refuses output without the codec lines', () => {
    expect(() => codecRates(codec[1])).toThrow(/printed no encode_tablet_500x50 line/);
  });
});

describe('runCodecScript: a codec script that ended badly', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const scriptOf = (body: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'codec-'));
    dirs.push(dir);
    const path = join(dir, 'codec.sh');
    writeFileSync(path, body);
    return path;
  };

  it('gives its output when it succeeds', async () => {
    expect(await runCodecScript(scriptOf('echo "CODEC $1"'), ['3'])).toBe('CODEC 3\n');
  });

  it('failed: null, and one line with its exit status and first exception line', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const path = scriptOf(
        'echo compiling; echo "Exception in thread main java.lang.NoClassDefFoundError: X"; exit 1',
      );
      expect(await runCodecScript(path, [])).toBeNull();
      expect(log).toHaveBeenCalledWith(
        'codec.sh: the Java client failed (exit 1): Exception in thread main java.lang.NoClassDefFoundError: X',
      );
    } finally {
      log.mockRestore();
    }
  });

  it('ended by Ctrl-C (SIGINT, or the JVM exiting 130): throws JavaInterrupted, so that the caller ends as interrupted', async () => {
    for (const body of ['kill -INT $$', 'exit 130'])
      await expect(runCodecScript(scriptOf(body), [])).rejects.toBeInstanceOf(JavaInterrupted);
  });

  it('runs in a process group of its own, to which Ctrl-C and SIGTERM sent to ours are passed on', async () => {
    const running = runCodecScript(scriptOf('echo started; exec sleep 30'), []);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // the event loop runs while it does: a signal sent to ours alone is seen, not left to the JVM's end
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      expect(process.listeners(signal)).toContain(interruptJavaChildren);
    interruptJavaChildren('SIGTERM');
    await expect(running).rejects.toThrow('the Java client was interrupted (SIGTERM, passed on to it)');
  });
});
