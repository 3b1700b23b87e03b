import { describe, expect, it } from 'vitest';
import { collectEnvironment } from './environment.js';

describe('collectEnvironment', () => {
  it('describes this machine, the runtimes and the client, and no server when none was reached', async () => {
    const e = await collectEnvironment(undefined);
    expect(e.cores).toBeGreaterThan(0);
    expect(e.memoryGiB).toBeGreaterThan(0);
    expect(e.node).toBe(process.version);
    expect(e.client.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(e.client.gitCommit).toMatch(/^[0-9a-f]{40}$/); // run from the repository's checkout
    expect(e.server).toBeNull();
  });
});
