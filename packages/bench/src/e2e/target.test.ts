import { describe, expect, it } from 'vitest';
import { givenServer } from './target.js';

describe('givenServer: the server a run talks to, or none (then the harness starts one)', () => {
  it('is --host and --port when given (one of --node-urls with them: the configuration refuses another)', () => {
    expect(givenServer({ host: 'db1', port: 6668, nodeUrls: undefined })).toEqual({ host: 'db1', port: 6668 });
    expect(givenServer({ host: 'db2', port: 7001, nodeUrls: ['db1:7000', 'db2:7001'] })).toEqual({
      host: 'db2',
      port: 7001,
    });
  });

  it('is the first of --node-urls without --host: a cluster was named, so none is started', () => {
    expect(givenServer({ host: undefined, port: 6667, nodeUrls: ['db2:7000', 'db3:7001'] })).toEqual({
      host: 'db2',
      port: 7000,
    });
    expect(givenServer({ host: undefined, port: 6667, nodeUrls: ['[::1]:6668'] })).toEqual({ host: '::1', port: 6668 });
  });

  it('is none when neither is given', () => {
    expect(givenServer({ host: undefined, port: 6667, nodeUrls: undefined })).toBeUndefined();
  });
});
