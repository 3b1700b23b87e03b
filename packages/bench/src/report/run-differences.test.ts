import { describe, expect, it } from 'vitest';
import { runDifferences } from './run-differences.js';
import { SAMPLE_ENVIRONMENT, sampleConfig, sampleRun } from './test-fixture.js';

describe('runDifferences: what compare says differs between A and B besides the figures', () => {
  it('says nothing for runs of the same knobs on the same machine and server', () => {
    const a = { ...sampleRun('x'), environment: SAMPLE_ENVIRONMENT };
    expect(runDifferences(a, { ...a, config: sampleConfig({ out: 'elsewhere' }) })).toEqual([]);
  });

  it('names each knob that differs, and where the runs ran when that differs', () => {
    const a = { ...sampleRun('x'), environment: SAMPLE_ENVIRONMENT };
    const b = {
      ...sampleRun('x'),
      config: sampleConfig({ batchSize: 1000, host: '10.0.0.9' }),
      environment: {
        ...SAMPLE_ENVIRONMENT,
        cores: 8,
        server: {
          ...SAMPLE_ENVIRONMENT.server!,
          version: '2.0.2',
          settings: { DataReplicationFactor: '3' },
          dataNodes: ['10.0.0.1:6667 Running', '10.0.0.2:6667 Running'],
        },
        client: { ...SAMPLE_ENVIRONMENT.client, gitCommit: '4567def' },
      },
    };
    expect(runDifferences(a, b)).toEqual([
      ['host', '127.0.0.1', '10.0.0.9'],
      ['batchSize', '100', '1000'],
      ['cores', '2', '8'],
      ['server version', '2.0.1-beta', '2.0.2'],
      ['server DataNodes', '127.0.0.1:6667 Running', '10.0.0.1:6667 Running, 10.0.0.2:6667 Running'],
      ['git commit', '0123abc', '4567def'],
      ['server DataReplicationFactor', '1', '3'],
    ]);
  });

  it('says where a run did not record where it ran (an older results.json)', () => {
    const a = { ...sampleRun('x'), environment: SAMPLE_ENVIRONMENT };
    expect(runDifferences(a, sampleRun('x'))).toContainEqual(['server version', '2.0.1-beta', 'unknown']);
  });
});
