import { describe, expect, it } from 'vitest';
import { IoTDBValidationError } from '@iotdb/fast-serializer';
import {
  IoTDBAbortError,
  IoTDBConnectionError,
  IoTDBServerError,
  IoTDBSessionClosedError,
  IoTDBTimeoutError,
} from '../errors.js';
import { RETRY_DEFAULTS, decideRetry, resolveRetryOptions, type OperationKind } from './retry-policy.js';
import { RETRYABLE_WRITE_CODES, isRetryableWriteStatus } from './retryable-status.js';

const refused = new IoTDBConnectionError('refused', 'n:1', 'refused', false);
const resetAfterSend = new IoTDBConnectionError('reset', 'n:1', 'reset', true);
const replyTimeout = new IoTDBTimeoutError('n:1', 'op', 'no reply', true);
const connectTimeout = new IoTDBTimeoutError('n:1', 'connect', 'no connection', false);
const status = (code: number, extra: object = {}) =>
  new IoTDBServerError({ code, message: `m${code}`, ...extra }, 'ctx');

const decide = (kind: OperationKind, error: unknown, attempt = 1, elapsedMs = 0) =>
  decideRetry(RETRY_DEFAULTS, { kind, error, attempt, elapsedMs }, 0.5).retry;

// The policy, row by row (the user's guide has the same table).
const CONFIG_NODE_DOWN =
  'Exception occurred: "select count(*) from root.cn.**". executeStatement failed. Meet error when analyzing the ' +
  'query statement: An error occurred when executing getSchemaPartition():net.sf.cglib.core.CodeGenerationException: ' +
  'org.apache.thrift.TException-->Fail to connect to any config node. Please check status of ConfigNodes or logs of ' +
  'connected DataNode';

describe('the retry policy', () => {
  it.each([
    // kind, error, retried?
    ['write', refused, true],
    ['write', connectTimeout, true],
    ['write', resetAfterSend, true],
    ['write', replyTimeout, true],
    ['write', status(301), true],
    ['write', status(600), true],
    ['write', status(602), true],
    ['write', status(1012), true],
    ['write', status(999, { needRetry: true }), true],
    ['write', status(302, { subStatus: [{ code: 200 }, { code: 600 }] }), true],
    ['write', status(302, { subStatus: [{ code: 600 }, { code: 507 }] }), false],
    ['write', status(507), false],
    ['write', status(700), false],
    ['write', status(801), false],
    ['read', refused, true],
    ['read', connectTimeout, true],
    ['read', resetAfterSend, true],
    ['read', replyTimeout, false],
    ['read', status(600), false],
    ['read', status(999, { needRetry: true }), false],
    ['read', status(712, { needRetry: true, message: 'Current query is time out' }), false], // as IoTDB marks it
    ['read', status(301, { message: 'Connection refused' }), true],
    ['read', status(301, { message: 'All replicas not available' }), true],
    ['read', status(301, { message: 'Source handle is aborted.' }), true], // its data's other node died mid-read
    ['read', status(1012), true],
    // its DataNode could not reach the ConfigNode for the schema (measured on 2.0.1-beta, the ConfigNode down)
    ['read', status(305, { message: CONFIG_NODE_DOWN }), true],
    ['read', status(301, { message: CONFIG_NODE_DOWN }), true],
    ['statement', status(305, { message: CONFIG_NODE_DOWN }), false],
    ['read', status(301), false],
    ['read', status(700), false],
    ['read', status(305), false],
    ['query', refused, true],
    ['query', connectTimeout, true],
    ['query', resetAfterSend, false],
    ['query', replyTimeout, false],
    ['query', status(600), false],
    ['query', status(999, { needRetry: true }), false],
    ['statement', refused, true],
    ['statement', resetAfterSend, false],
    ['statement', replyTimeout, false],
    ['statement', status(301), false],
    ['connect', refused, true],
    ['connect', status(801), false],
  ] as const)('%s after %o: retry %s', (kind, error, expected) => {
    expect(decide(kind, error)).toBe(expected);
  });

  it.each([
    new IoTDBValidationError('x', 'bad'),
    new IoTDBAbortError('w', 'stop'),
    new IoTDBSessionClosedError(),
    new TypeError('x'),
  ])('never retries %s', (error) => {
    for (const kind of ['write', 'query', 'statement', 'connect'] as const) expect(decide(kind, error)).toBe(false);
  });

  it('stops when the next wait would end past the budget', () => {
    expect(decide('write', refused, 3, 59_000)).toBe(true); // waits 300 ms: ends 59.3 s in
    expect(decide('write', refused, 50, 59_900)).toBe(false);
    const none = resolveRetryOptions({ maxElapsedMs: 0 });
    expect(decideRetry(none, { kind: 'write', error: refused, attempt: 1, elapsedMs: 0 }, 0).retry).toBe(false);
  });

  it('waits initialDelayMs doubling per attempt up to maxDelayMs, half of it jitter', () => {
    const o = resolveRetryOptions({ initialDelayMs: 100, maxDelayMs: 1000 });
    const delay = (attempt: number, random: number) => {
      const d = decideRetry(o, { kind: 'write', error: refused, attempt, elapsedMs: 0 }, random);
      return d.retry ? d.delayMs : -1;
    };
    expect([1, 2, 3, 4, 5].map((a) => delay(a, 0.999999))).toEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3, 4, 5].map((a) => delay(a, 0))).toEqual([50, 100, 200, 400, 500]);
  });

  it('asks for another node after a connection failure, the same one after a status', () => {
    const d1 = decideRetry(RETRY_DEFAULTS, { kind: 'write', error: refused, attempt: 1, elapsedMs: 0 }, 0);
    const d2 = decideRetry(RETRY_DEFAULTS, { kind: 'write', error: status(600), attempt: 1, elapsedMs: 0 }, 0);
    expect(d1.retry && d1.otherNode).toBe(true);
    expect(d2.retry && d2.otherNode).toBe(false);
  });

  it('defaults to a 60 s budget, longer than the Java Session (60 x 500 ms)', () => {
    expect(RETRY_DEFAULTS).toEqual({ maxElapsedMs: 60_000, initialDelayMs: 100, maxDelayMs: 2_000 });
  });

  it('refuses bad options', () => {
    expect(() => resolveRetryOptions({ maxElapsedMs: -1 })).toThrow(IoTDBValidationError);
    expect(() => resolveRetryOptions({ initialDelayMs: 10, maxDelayMs: 5 })).toThrow(/maxDelayMs/);
  });
});

describe('isRetryableWriteStatus', () => {
  it('includes the codes measured during restarts and IoTDB NEED_RETRY set', () => {
    for (const code of [301, 306, 600, 602, 606, 712, 713, 905, 1012])
      expect(RETRYABLE_WRITE_CODES.has(code)).toBe(true);
  });
  it('treats a 302 as retryable only when every failed entry is', () => {
    expect(isRetryableWriteStatus({ code: 302, subStatus: [{ code: 200 }, { code: 301 }] })).toBe(true);
    expect(isRetryableWriteStatus({ code: 302, subStatus: [{ code: 301 }, { code: 614 }] })).toBe(false);
    expect(isRetryableWriteStatus({ code: 302, subStatus: [] })).toBe(false);
  });
  it('reads a status the server wrapped in another by the inner one (a 507 around a 600 read-only while a DataNode starts)', () => {
    const wrapped = (inner: string) => ({ code: 507, message: `TSStatus(code:${inner})` });
    expect(
      isRetryableWriteStatus(wrapped('600, message:Fail to do non-query operations because system is read-only.')),
    ).toBe(true);
    expect(isRetryableWriteStatus(wrapped('509, message:root.sg.*.a is not a legal path'))).toBe(false);
    expect(isRetryableWriteStatus({ code: 507, message: 'Fail to insert measurements [v] caused by [...]' })).toBe(
      false,
    );
  });

  it('does not try a 301 again when it names a missing database or an illegal path (it never succeeds), only its transient kinds', () => {
    const unknown =
      'Exception occurred: insertTablet failed. java.util.concurrent.ExecutionException: ' +
      'org.apache.iotdb.commons.exception.IoTDBException: Unknown database nope';
    expect(isRetryableWriteStatus({ code: 301, message: unknown })).toBe(false);
    expect(isRetryableWriteStatus({ code: 302, subStatus: [{ code: 301, message: unknown }] })).toBe(false);
    expect(isRetryableWriteStatus({ code: 301, message: unknown, needRetry: true })).toBe(true); // the server's word
    const illegal =
      'Exception occurred: insertRecord failed. An error occurred when executing getDeviceToDatabase():root is not a legal path';
    expect(isRetryableWriteStatus({ code: 301, message: illegal })).toBe(false);
    for (const message of [undefined, 'Fail to send plan node', 'java.net.SocketException: Broken pipe'])
      expect(isRetryableWriteStatus({ code: 301, message })).toBe(true);
  });

  it('does not try a 301 again when the user may not write there, or the device can have no database (both measured on 2.0.1-beta)', () => {
    // a user granted WRITE_DATA but not WRITE_SCHEMA, writing a new series (auto-created: the check runs inside it)
    const denied =
      '[EXECUTE_STATEMENT_ERROR(301)] Exception occurred: insertTablet failed. org.apache.iotdb.commons.exception.' +
      'IoTDBException: No permissions for this operation, please add privilege WRITE_SCHEMA on [root.pa.d1.s]';
    expect(isRetryableWriteStatus({ code: 301, message: denied })).toBe(false);
    // a device above a database (root.w3 while root.w3.x is one): its database cannot be created
    const noDatabase =
      '[EXECUTE_STATEMENT_ERROR(301)] Exception occurred: insertTablet failed. Failed to get database Map';
    expect(isRetryableWriteStatus({ code: 301, message: noDatabase })).toBe(false);
    expect(isRetryableWriteStatus({ code: 302, subStatus: [{ code: 301, message: denied }] })).toBe(false);
  });
});
