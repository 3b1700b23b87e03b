import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Session, TSDataType } from './index.js';

// The user guide's self-contained code blocks, run as written against the suite's server: a sequence the server
// refuses is a guide that fails its first reader. Names are made unique so that runs do not meet.

const { host, port } = inject('iotdb');
const guide = readFileSync(new URL('../../../docs/USER_GUIDE.md', import.meta.url), 'utf8');
type AsyncFunctionConstructor = new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
const AsyncFunction = (async () => {}).constructor as AsyncFunctionConstructor;

/** The first ```ts block after the heading `heading`. */
function blockAfter(heading: string): string {
  const at = guide.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`the guide has no heading ${heading}`);
  const block = /```ts\n([\s\S]*?)```/.exec(guide.slice(at));
  if (block === null) throw new Error(`no ts block after ${heading}`);
  return block[1];
}

describe('the user guide', () => {
  const session = new Session({ host, port });
  const suffix = randomBytes(3).toString('hex');
  const database = `root.guide_${suffix}`; // the schema block's
  const written = `root.guide_w_${suffix}`; // the write block's
  const template = `sensor_${suffix}`;
  beforeAll(() => session.open());
  afterAll(async () => {
    for (const db of [database, written]) await session.deleteDatabases([db]).catch(() => {}); // either may be gone
    await session.dropSchemaTemplate(template).catch(() => {});
    await session.close();
  });

  it("its tree model write stores what it says: the guide's tablet reads back cell for cell", async () => {
    const code = blockAfter('## Writing: tree model').replaceAll('root.demo', written);
    const t0 = 1_700_000_000_000;
    await new AsyncFunction('session', 'TSDataType', 't0', code)(session, TSDataType, t0);
    const ds = await session.executeQueryStatement(`SELECT temp, count, label FROM ${written}.d1`);
    const rows: unknown[] = [];
    for await (const row of ds) rows.push([row.timestamp, ...row.values]);
    expect(rows).toEqual([
      [BigInt(t0), 1.5, 1n, 'a'],
      [BigInt(t0 + 1000), 2.5, 2n, null],
    ]);
  });

  it('its schema and data management block runs as written and leaves nothing behind', async () => {
    const code = blockAfter('### Schema and data management (tree model, on `Session` and `SessionPool`)')
      .replaceAll('root.plant', database)
      .replaceAll("'sensor'", `'${template}'`);
    await new AsyncFunction('session', code)(session);
    const rows = async (sql: string) => {
      const out: unknown[] = [];
      for await (const row of await session.executeQueryStatement(sql)) out.push(row.values);
      return out;
    };
    expect(await rows(`SHOW DATABASES ${database}`)).toEqual([]);
    expect((await rows('SHOW SCHEMA TEMPLATES')).flat()).not.toContain(template);
  });
});
