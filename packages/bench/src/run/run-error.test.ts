import { IoTDBConnectionError, IoTDBServerError } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/errors.js';
import { MAX_ERRORS, RunError, describeError, keepErrors } from './run-error.js';

describe('describeError', () => {
  it('tells what the operator can act on in one line, with the client error code', () => {
    const refused = new IoTDBConnectionError('refused', '127.0.0.1:1', 'cannot connect: connect ECONNREFUSED', false);
    expect(describeError(refused)).toBe('127.0.0.1:1: cannot connect: connect ECONNREFUSED (IOTDB_CONNECTION_REFUSED)');
    const parse = new IoTDBServerError({ code: 700, message: 'mismatched input' }, '"DELETE DATABASE root.root"');
    expect(describeError(parse)).toBe('"DELETE DATABASE root.root": [700] mismatched input (IOTDB_SERVER_ERROR)');
    expect(describeError(new RunError('--precision ns does not match'))).toBe('--precision ns does not match');
    expect(describeError(new ConfigError('workers', '--workers: needs an integer'))).toBe(
      '--workers: needs an integer',
    );
  });

  it('keeps the stack of anything else: a bug to report', () => {
    const bug = new TypeError('x is undefined');
    expect(describeError(bug)).toContain('TypeError: x is undefined');
    expect(describeError(bug)).toContain('run-error.test.ts');
  });
});

describe('keepErrors', () => {
  it('keeps each distinct message once, so that a different error after many alike is not lost', () => {
    const errors: string[] = [];
    const refused = '127.0.0.1:6667: cannot connect: connect ECONNREFUSED (IOTDB_CONNECTION_REFUSED)';
    keepErrors(errors, ...Array<string>(MAX_ERRORS + 5).fill(refused));
    keepErrors(errors, '[507] data type of root.bench.d000.s0 is not consistent');
    expect(errors).toEqual([refused, '[507] data type of root.bench.d000.s0 is not consistent']);
  });

  it('keeps one of the errors that differ only in the statement they quote (a server gone under every query)', () => {
    const errors: string[] = [];
    const closed = (sql: string) =>
      `127.0.0.1:6667: executeQueryStatement "${sql}": connection closed by the server (IOTDB_CONNECTION_CLOSED)`;
    const refused = (sql: string) =>
      `executeQueryStatement "${sql}": [301] the query was cancelled (IOTDB_SERVER_ERROR)`;
    const sqls = Array.from({ length: MAX_ERRORS + 2 }, (_, d) => `SELECT s0 FROM root.bench.d${d} WHERE time >= 0`);
    keepErrors(errors, ...sqls.map(closed), ...sqls.map(refused), refused('SELECT "s 1" FROM t'));
    keepErrors(errors, '[507] data type of root.bench.d000.s0 is not consistent');
    expect(errors).toEqual([
      closed(sqls[0]),
      refused(sqls[0]),
      '[507] data type of root.bench.d000.s0 is not consistent',
    ]);
  });

  it('keeps one of the errors that differ only in how long their calls were tried (a server read-only throughout)', () => {
    const errors: string[] = [];
    const readOnly = (attempts: number, s: string) =>
      `insertTablet root.bench.d000: [600] system is read-only. (after ${attempts} attempts over ${s} s)`;
    keepErrors(errors, readOnly(12, '58.1'), readOnly(13, '60.0'), readOnly(9, '41.3'));
    keepErrors(errors, '[507] data type of root.bench.d000.s0 is not consistent');
    expect(errors).toEqual([readOnly(12, '58.1'), '[507] data type of root.bench.d000.s0 is not consistent']);
  });

  it('keeps the first MAX_ERRORS distinct ones', () => {
    const errors: string[] = [];
    keepErrors(errors, ...Array.from({ length: MAX_ERRORS + 3 }, (_, i) => `error ${i}`));
    expect(errors).toHaveLength(MAX_ERRORS);
    expect(errors.at(-1)).toBe(`error ${MAX_ERRORS - 1}`);
  });
});
