import { describe, expect, it } from 'vitest';
import {
  IoTDBConnectionError,
  IoTDBError,
  IoTDBProtocolError,
  IoTDBServerError,
  IoTDBSessionClosedError,
  IoTDBTimeoutError,
  IoTDBValidationError,
} from './index.js';

describe('error hierarchy', () => {
  it('makes every client error an IoTDBError and an Error, named after its class', () => {
    const errors: Error[] = [
      new IoTDBValidationError('f', 'bad'),
      new IoTDBProtocolError('bytes'),
      new IoTDBServerError({ code: 700, message: 'parse' }, 'ctx'),
      new IoTDBConnectionError('refused', 'h:1', 'no', false),
      new IoTDBTimeoutError('h:1', 'op', 'slow', true),
      new IoTDBSessionClosedError(),
    ];
    for (const e of errors) {
      expect(e).toBeInstanceOf(IoTDBError);
      expect(e).toBeInstanceOf(Error);
      expect(e.name).toBe(e.constructor.name);
    }
  });

  it('makes IoTDBTimeoutError an IoTDBConnectionError with reason timeout', () => {
    const e = new IoTDBTimeoutError('127.0.0.1:6667', 'insertTablet', 'no reply', true);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect(e.reason).toBe('timeout');
    expect(e.endpoint).toBe('127.0.0.1:6667');
    expect(e.operation).toBe('insertTablet');
    expect(e.message).toBe('127.0.0.1:6667: insertTablet: no reply');
  });

  it('keeps the cause of a connection error', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const e = new IoTDBConnectionError('refused', 'h:1', 'cannot connect', false, { cause });
    expect(e.cause).toBe(cause);
    expect(e.reason).toBe('refused');
  });

  it('names the call a connection broke under, and holds no operation while connecting (nothing to print)', () => {
    const e = new IoTDBConnectionError('closed', 'h:1', 'connection closed by the server', true, { operation: 'ping' });
    expect(e.operation).toBe('ping');
    expect(e.message).toBe('h:1: ping: connection closed by the server');
    const connecting = new IoTDBConnectionError('refused', 'h:1', 'cannot connect', false, { operation: undefined });
    expect(Object.keys(connecting)).not.toContain('operation'); // util.inspect printed `operation: undefined`
    expect(connecting.message).toBe('h:1: cannot connect');
  });

  it('tells the user to open the session', () => {
    expect(new IoTDBSessionClosedError().message).toMatch(/session is closed.*open\(\)/);
    expect(new IoTDBSessionClosedError('data set').message).toMatch(/^the data set is closed/);
  });
});

describe('IoTDBServerError', () => {
  it('carries the code and the server message verbatim', () => {
    const e = new IoTDBServerError({ code: 700, message: 'line 1:0 mismatched input' }, '"SELEC 1"');
    expect(e.statusCode).toBe(700);
    expect(e.serverMessage).toBe('line 1:0 mismatched input');
    expect(e.message).toBe('"SELEC 1": [700] line 1:0 mismatched input');
    expect(e.subStatus).toEqual([]);
  });

  it('describes the failed entries of a batch when the status has no message', () => {
    const e = new IoTDBServerError(
      {
        code: 302,
        subStatus: [
          { code: 200 },
          { code: 507, message: 'type mismatch' },
          { code: 400, message: 'redirect' },
          { code: 508 },
        ],
      },
      'insertRecords',
    );
    expect(e.statusCode).toBe(302);
    expect(e.serverMessage).toBe('');
    expect(e.subStatus).toHaveLength(4);
    expect(e.message).toBe('insertRecords: [302] #1: [507] type mismatch; #3: [508] ');
  });

  it("says 'no message' when there is nothing to describe", () => {
    expect(new IoTDBServerError({ code: 500 }, 'x').message).toBe('x: [500] no message');
    expect(new IoTDBServerError({ code: 302, subStatus: [{ code: 200 }] }, 'x').message).toBe('x: [302] no message');
  });
});
