import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Session, TableSession, TSDataType } from './index.js';

// The README's and the user guide's self-contained code blocks, run as written against the suite's server: a
// sequence the server refuses is documentation that fails its first reader. Names are made unique so that runs
// do not meet; `import` lines are left out, their names given to the block.

const { host, port } = inject('iotdb');
const suffix = randomBytes(3).toString('hex');
type AsyncFunctionConstructor = new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
const AsyncFunction = (async () => {}).constructor as AsyncFunctionConstructor;

/** The first `count` ```ts blocks after the heading `heading` of the repository's file `doc`. */
function blocksAfter(doc: string, heading: string, count = 1): string[] {
  const text = readFileSync(new URL(`../../../${doc}`, import.meta.url), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${doc} has no heading ${heading}`);
  const blocks = [...text.slice(at).matchAll(/```ts\n([\s\S]*?)```/g)].slice(0, count).map((m) => m[1]);
  if (blocks.length < count) throw new Error(`${doc}: fewer than ${count} ts blocks after ${heading}`);
  return blocks;
}

/** Runs `code` (its imports left out) with `scope`'s names bound. */
function run(code: string, scope: Record<string, unknown>): Promise<unknown> {
  const body = code.replace(/^import .* from '.*';$/gm, '');
  return new AsyncFunction(...Object.keys(scope), body)(...Object.values(scope));
}

async function rowsOf(session: Session, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const row of await session.executeQueryStatement(sql)) out.push([row.timestamp, ...row.values]);
  return out;
}

describe('the README', () => {
  const treeDatabase = `root.readme_${suffix}`;
  const tableDatabase = `readme_${suffix}`;
  const session = new Session({ host, port });
  const environment = { IOTDB_HOST: process.env.IOTDB_HOST, IOTDB_PORT: process.env.IOTDB_PORT };
  beforeAll(async () => {
    // the blocks' sessions take the defaults, which come from the environment
    process.env.IOTDB_HOST = host;
    process.env.IOTDB_PORT = String(port);
    await session.open();
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(environment))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    await session.deleteDatabases([treeDatabase]).catch(() => {});
    await session.close();
    const tables = new TableSession({ host, port }); // a table-model database is dropped in the table dialect
    await tables.open();
    await tables.executeNonQueryStatement(`DROP DATABASE IF EXISTS ${tableDatabase}`).finally(() => tables.close());
  });

  it('its first insert, first query, the table model and the writer run one after another as written', async () => {
    const [quickstart, table, writer] = blocksAfter('README.md', '## First insert, first query', 3).map((code) =>
      code.replaceAll('root.demo', treeDatabase).replaceAll(/\bfactory\b/g, tableDatabase),
    );
    const printed: unknown[][] = [];
    const console = { log: (...values: unknown[]) => printed.push(values) };
    // the writer's block writes to the quickstart's session: run before its close
    const [opened, closing] = quickstart.split('await session.close();');
    await run(`${opened}\n${writer}\n${closing}\nawait session.close();`, { Session, TSDataType, console });
    await run(table, { TableSession });
    expect(printed.length).toBeGreaterThanOrEqual(3);
    const stored = await rowsOf(session, `SELECT temp, ok FROM ${treeDatabase}.d1`);
    // the writer's row is timed after the quickstart's first, before or after its second
    expect(stored.map(([, temp, ok]) => `${String(temp)} ${String(ok)}`).sort()).toEqual([
      '25.5 true',
      '25.5 true',
      'null false',
    ]);
    const tableSession = new TableSession({ host, port, database: tableDatabase });
    await tableSession.open();
    try {
      const ds = await tableSession.executeQueryStatement('SELECT region, temperature FROM sensors');
      const tableRows: unknown[] = [];
      for await (const row of ds) tableRows.push(row.values);
      expect(tableRows).toEqual([['north', 20.5]]);
    } finally {
      await tableSession.close();
    }
  });
});

describe('the user guide', () => {
  const session = new Session({ host, port });
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
    const [code] = blocksAfter('docs/USER_GUIDE.md', '## Writing: tree model');
    const t0 = 1_700_000_000_000;
    await run(code.replaceAll('root.demo', written), { session, TSDataType, t0 });
    expect(await rowsOf(session, `SELECT temp, count, label FROM ${written}.d1`)).toEqual([
      [BigInt(t0), 1.5, 1n, 'a'],
      [BigInt(t0 + 1000), 2.5, 2n, null],
    ]);
  });

  it('its copy of a toColumnar() result into another device stores the same rows (typed columns, nulls)', async () => {
    const [write] = blocksAfter('docs/USER_GUIDE.md', '## Writing: tree model');
    const copy = blocksAfter('docs/USER_GUIDE.md', '## Querying', 5)[4];
    expect(copy).toContain('toColumnar()');
    const t0 = 1_700_000_100_000;
    await run(write.replaceAll('root.demo', written), { session, TSDataType, t0 });
    await run(copy.replaceAll('root.demo', written), { session });
    expect(await rowsOf(session, `SELECT temp, count, label FROM ${written}.copy`)).toEqual(
      await rowsOf(session, `SELECT temp, count, label FROM ${written}.d1`),
    );
  });

  it('its schema and data management block runs as written and leaves nothing behind', async () => {
    const [code] = blocksAfter(
      'docs/USER_GUIDE.md',
      '### Schema and data management (tree model, on `Session` and `SessionPool`)',
    );
    await run(code.replaceAll('root.plant', database).replaceAll("'sensor'", `'${template}'`), { session });
    expect(await rowsOf(session, `SHOW DATABASES ${database}`)).toEqual([]);
    expect((await rowsOf(session, 'SHOW SCHEMA TEMPLATES')).flat()).not.toContain(template);
  });
});
