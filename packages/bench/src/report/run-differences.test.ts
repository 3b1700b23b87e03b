import { describe, expect, it } from 'vitest';
import { runDifferences } from './run-differences.js';
import { WRITES_ONLY } from '../workload/operations.js';
import { SAMPLE_ENVIRONMENT, sampleConfig, sampleRun } from './test-fixture.js';

describe('runDifferences: what compare says differs between A and B besides the figures', () => {
  it('says nothing for runs of the same knobs on the same machine and server', () => {
    const a = { ...sampleRun('x'), environment: SAMPLE_ENVIRONMENT };
    expect(runDifferences(a, { ...a, config: sampleConfig({ out: 'elsewhere' }) })).toEqual([]);
    // the server's processes measured: a local server's new ones each time it starts
    expect(runDifferences(a, { ...a, config: sampleConfig({ serverPid: [4242] }) })).toEqual([]);
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

  it('leaves out the query knobs of runs that read nothing: their defaults follow --batch-size, and changed nothing', () => {
    const knobs = (batchSize: number) => ({
      batchSize,
      queryInterval: batchSize * 1000,
      groupByTimeUnit: batchSize * 100,
      queries: [],
    });
    const writes = (batchSize: number) => ({ ...sampleRun('x'), config: sampleConfig(knobs(batchSize)) });
    expect(runDifferences(writes(100), writes(500))).toEqual([['batchSize', '100', '500']]);
    // either run read: they shaped its queries
    const mixed = { ...WRITES_ONLY, TIME_RANGE: 1 };
    const reads = { ...sampleRun('x'), config: sampleConfig({ ...knobs(500), operationProportion: mixed }) };
    const after = { ...sampleRun('x'), config: sampleConfig({ ...knobs(500), queries: ['TIME_RANGE'] }) };
    for (const b of [reads, after])
      expect(runDifferences(writes(100), b).map(([knob]) => knob)).toEqual(
        expect.arrayContaining(['batchSize', 'queryInterval', 'groupByTimeUnit']),
      );
  });

  it('says where a run did not record where it ran (an older results.json)', () => {
    const a = { ...sampleRun('x'), environment: SAMPLE_ENVIRONMENT };
    expect(runDifferences(a, sampleRun('x'))).toContainEqual(['server version', '2.0.1-beta', 'unknown']);
  });
});
