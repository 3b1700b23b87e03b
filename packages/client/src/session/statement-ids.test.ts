import { describe, expect, it } from 'vitest';
import { RELEASE_EVERY, StatementIds } from './statement-ids.js';

/** Statement ids 2, 3, ... on request (or as `requestId` answers); the statements closed and the failures told. */
function ids(requestId?: () => Promise<bigint>) {
  let next = 1n;
  const closed: bigint[] = [];
  const failed: unknown[] = [];
  const statements = new StatementIds(1n, {
    requestId: requestId ?? (() => Promise.resolve(++next)),
    close: (id) => closed.push(id),
    rotateFailed: (e) => failed.push(e),
  });
  return { statements, closed, failed };
}

/** `n` queries under the current statement, each read to its end. */
function finish(statements: StatementIds, n: number): void {
  for (let i = 0; i < n; i++) statements.settle(statements.take(), true);
}

const turn = () => new Promise((r) => setImmediate(r));

describe('StatementIds', () => {
  it('keeps one statement until it holds RELEASE_EVERY finished queries, then moves on and closes it', async () => {
    const { statements, closed } = ids();
    finish(statements, RELEASE_EVERY - 1);
    await turn();
    expect([statements.currentId, closed]).toEqual([1n, []]);
    finish(statements, 1);
    expect(statements.currentId).toBe(1n); // queries go on under it while the new id is asked for
    await turn();
    expect([statements.currentId, closed]).toEqual([2n, [1n]]);
    finish(statements, RELEASE_EVERY);
    await turn();
    expect([statements.currentId, closed]).toEqual([3n, [1n, 2n]]);
  });

  it('counts only queries read to their end: one released by its own closeOperation is not held', async () => {
    const { statements, closed } = ids();
    for (let i = 0; i < 3 * RELEASE_EVERY; i++) statements.settle(statements.take(), false);
    await turn();
    expect([statements.currentId, closed]).toEqual([1n, []]);
  });

  it('closes a statement left behind only once no result of it is open (a query in flight counts)', async () => {
    const { statements, closed } = ids();
    const reading = statements.take(); // a data set still being read
    const inFlight = statements.take(); // a query whose reply is not in yet when the statement turns
    finish(statements, RELEASE_EVERY);
    await turn();
    expect([statements.currentId, closed]).toEqual([2n, []]);
    statements.settle(inFlight, true);
    expect(closed).toEqual([]);
    statements.settle(reading, false);
    expect(closed).toEqual([1n]);
    finish(statements, 1);
    expect(closed).toEqual([1n]); // the current statement stays
  });

  it('asks once while the new id is on its way, however many queries finish meanwhile', async () => {
    let asked = 0;
    const { statements } = ids(() => Promise.resolve(BigInt(10 + ++asked)));
    finish(statements, RELEASE_EVERY + 5);
    await turn();
    expect([statements.currentId, asked]).toEqual([11n, 1]);
  });

  it('goes on under the current statement when no new id could be had, and tries again after as many more', async () => {
    let refuse = true;
    const { statements, closed, failed } = ids(() =>
      refuse ? Promise.reject(new Error('connection lost')) : Promise.resolve(7n),
    );
    finish(statements, RELEASE_EVERY);
    await turn();
    expect([statements.currentId, failed]).toEqual([1n, [new Error('connection lost')]]);
    refuse = false;
    finish(statements, RELEASE_EVERY - 1);
    await turn();
    expect(statements.currentId).toBe(1n);
    finish(statements, 1);
    await turn();
    expect([statements.currentId, closed]).toEqual([7n, [1n]]);
  });
});
