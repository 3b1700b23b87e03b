import { IoTDBConnectionError, IoTDBServerError } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/errors.js';
import { RunError, describeError } from './run-error.js';

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
