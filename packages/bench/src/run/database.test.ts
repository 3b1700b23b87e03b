import { IoTDBServerError } from '@iotdb/client';
import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { preparationError, tryAggregates } from './database.js';
import { RunError } from './run-error.js';

const refused = new IoTDBServerError(
  { code: 803, message: 'No permissions for this operation, please add privilege MANAGE_DATABASE' },
  '"DELETE DATABASE root.bench"',
);

describe("a refusal of the benchmark's database preparation", () => {
  it('for want of a privilege says what the benchmark was doing with its database, and as whom', () => {
    const e = preparationError(refused, sampleConfig({ database: 'bench' }));
    expect(e).toBeInstanceOf(RunError);
    expect((e as Error).message).toBe(
      'preparing its database root.bench, as the user the run logs in as (IOTDB_USER): "DELETE DATABASE root.bench": ' +
        '[803] No permissions for this operation, please add privilege MANAGE_DATABASE. A run that writes every ' +
        "device drops the database and makes it again; a share's run (--device-offset, --device-count) deletes its " +
        "own devices' data first; a run of queries only changes nothing: grant the user the privilege named, or " +
        'run as one that has it',
    );
    expect((preparationError(refused, sampleConfig({ model: 'table', database: 'select' })) as Error).message).toMatch(
      /^preparing its database "select", as the user/,
    );
  });

  it('leaves any other error as it was', () => {
    const other = new IoTDBServerError({ code: 700, message: 'parse error' }, '"X"');
    expect(preparationError(other, sampleConfig())).toBe(other);
    const plain = new Error('reset');
    expect(preparationError(plain, sampleConfig())).toBe(plain);
  });
});

describe("the trial of the run's aggregating queries", () => {
  const c = sampleConfig({ operationProportion: { ...sampleConfig().operationProportion, AGG_VALUE: 1 } });
  const failing = (code: number, message: string) => (sql: string) =>
    Promise.reject(new IoTDBServerError({ code, message }, `executeQueryStatement "${sql.slice(0, 20)}..."`));

  it('names the query type and its whole statement when the server cannot run it, whatever its status', async () => {
    const e = await tryAggregates(c, failing(301, 'DoubleLiteral cannot be cast to LongLiteral')).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(RunError);
    expect((e as Error).message).toMatch(
      /^the server could not run AGG_VALUE's query, tried once before the run \(every such operation would fail\): "SELECT count\(s9\) FROM root\.bench\.d000 WHERE s9 > 0": \[301\] DoubleLiteral cannot be cast to LongLiteral$/,
    );
    const refused = await tryAggregates(c, failing(701, 'max_by takes two arguments')).catch((x: unknown) => x);
    expect((refused as Error).message).toMatch(/^--query-aggregate-fun count: the server refused AGG_VALUE's query "/);
  });
});
