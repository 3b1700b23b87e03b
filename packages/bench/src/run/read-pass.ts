import type { BaseSession } from '@iotdb/client';
import type { ReadPass } from './java-query.js';

/** `sql` read as rows (`for await`), every value of every row through `row.values`. */
export async function readAsRows(session: BaseSession, sql: string, fetchSize: number): Promise<ReadPass> {
  const t0 = performance.now();
  let rows = 0;
  let points = 0;
  for await (const row of await session.executeQueryStatement(sql, { fetchSize })) {
    rows++;
    const values = row.values;
    for (let k = 0; k < values.length; k++) if (values[k] !== null) points++;
  }
  return pass(rows, points, t0);
}

/** `sql` read as columns (`toColumnar()`), every cell looked at. */
export async function readAsColumns(session: BaseSession, sql: string, fetchSize: number): Promise<ReadPass> {
  const t0 = performance.now();
  const c = await (await session.executeQueryStatement(sql, { fetchSize })).toColumnar();
  let points = 0;
  c.values.forEach((column, k) => {
    const nulls = c.nulls[k];
    for (let r = 0; r < c.rowCount; r++) if ((nulls === null || nulls[r] === 0) && column[r] !== undefined) points++;
  });
  return pass(c.rowCount, points, t0);
}

function pass(rows: number, points: number, t0: number): ReadPass {
  const wallS = (performance.now() - t0) / 1000;
  return { rows, points, wallS, pointsPerS: points / wallS };
}
