import { describe, expect, it } from 'vitest';
import { Session, SessionPool } from '@iotdb/client';
import { connectOptions, sessionOptions } from './session-options.js';

const knobs = { tls: false, tlsCa: undefined, rpcCompression: false, retryMaxMs: 1000 };

describe('the options a run opens its sessions with', () => {
  it('with --node-urls, the nodes alone (the client refuses host and port beside them)', () => {
    const o = connectOptions(
      { ...knobs, nodeUrls: ['127.0.0.1:6667', '127.0.0.1:6668'] },
      { host: '127.0.0.1', port: 6667 },
    );
    expect(o).toMatchObject({ nodeUrls: ['127.0.0.1:6667', '127.0.0.1:6668'] });
    expect(o).not.toHaveProperty('host');
    expect(o).not.toHaveProperty('port');
    const options = sessionOptions({ ...knobs, nodeUrls: ['127.0.0.1:6667'] }, { host: '127.0.0.1', port: 6667 });
    expect(() => new SessionPool({ ...options, maxSize: 2 })).not.toThrow();
  });

  it('without, the target node', () => {
    const o = connectOptions({ ...knobs, nodeUrls: undefined }, { host: 'db1', port: 6668 });
    expect(o).toMatchObject({ host: 'db1', port: 6668 });
    expect(o).not.toHaveProperty('nodeUrls');
    expect(() => new Session(o)).not.toThrow();
  });
});
