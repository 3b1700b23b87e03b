import { afterEach, describe, expect, it, vi } from 'vitest';
import { showDataNodesReply, type ListedNode } from '../testing/data-nodes-reply.js';
import { FakeTransport, defaultReply, type FakeCall, type FakeScript } from '../transport/fake-transport.js';
import type { SessionOptions } from './options.js';
import { Session } from './session.js';
import { TableSession } from './table-session.js';
import { SessionPool } from '../pool/session-pool.js';
import { RELEASE_EVERY } from './statement-ids.js';

// Queries taking turns on the cluster's DataNodes (spreadQueries, discoverNodes), through a scripted fake cluster.

const A = '10.0.0.1:6667';
const B = '10.0.0.2:6667';
const C = '10.0.0.3:6667';
const SQL = 'SELECT s FROM root.sg.d';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

const statementOf = (c: FakeCall) => (c.args as { statement?: unknown }).statement;

/** A fake cluster whose SHOW DATANODES lists `listed`; `script` decides the rest. */
function cluster(listed: readonly ListedNode[], script: FakeScript = () => undefined): FakeTransport {
  return new FakeTransport((c) =>
    c.method === 'executeQueryStatementV2' && statementOf(c) === 'SHOW DATANODES'
      ? { reply: showDataNodesReply(listed) }
      : script(c),
  );
}

function session(fake: FakeTransport, o: SessionOptions = {}): Session {
  const s = new Session({ nodeUrls: [A], transport: fake, retry: { maxElapsedMs: 0 }, ...o });
  closers.push(() => s.close());
  return s;
}

/** Runs SQL and reads it to its end. */
async function query(s: Session | TableSession, sql = SQL): Promise<void> {
  const ds = await s.executeQueryStatement(sql);
  for await (const row of ds) void row;
}

/** The user's queries (not the discovery's) each node received. */
function queriesPerNode(fake: FakeTransport): Record<string, number> {
  const count: Record<string, number> = {};
  for (const c of fake.callsOf('executeQueryStatementV2'))
    if (statementOf(c) !== 'SHOW DATANODES') count[c.node] = (count[c.node] ?? 0) + 1;
  return count;
}

/** Queries until the session has learnt `nodes` and holds an open server session on each. */
async function settle(s: Session, fake: FakeTransport, nodes: string[]): Promise<void> {
  await vi.waitFor(async () => {
    await query(s);
    expect(s.queryEndpoints).toEqual(nodes);
    expect(s.stats().connects).toBe(nodes.length); // the default node's and one per other node (discovery not counted)
  });
  fake.calls.length = 0;
}

describe('queries take turns on the DataNodes', () => {
  it('learns the DataNodes with SHOW DATANODES and sends each query to the next one, its release to the same node', async () => {
    const fake = cluster([{ url: A }, { url: B }, { url: C }]);
    const s = session(fake);
    await s.open();
    expect(s.queryEndpoints).toEqual([A]); // nodeUrls until the cluster says more
    await settle(s, fake, [A, B, C]);
    for (let i = 0; i < 3 * RELEASE_EVERY; i++) await query(s);
    expect(queriesPerNode(fake)).toEqual({ [A]: RELEASE_EVERY, [B]: RELEASE_EVERY, [C]: RELEASE_EVERY });
    // each node's finished queries released there, with that node's session: a new statement id, then the old one's
    // release, once the node's statement held RELEASE_EVERY of them
    const nodes = (m: string) => new Set(fake.callsOf(m as never).map((c) => `${c.node}#${c.connection}`));
    const queried = new Set(
      fake
        .callsOf('executeQueryStatementV2')
        .filter((c) => statementOf(c) === SQL)
        .map((c) => `${c.node}#${c.connection}`),
    );
    await vi.waitFor(() => expect(fake.callsOf('closeOperation')).toHaveLength(3));
    expect(nodes('closeOperation')).toEqual(queried);
    expect(nodes('requestStatementId')).toEqual(queried);
    // statements stay on the default node
    await s.executeNonQueryStatement('FLUSH');
    expect(fake.callsOf('executeUpdateStatementV2').map((c) => c.node)).toEqual([A]);
  });

  it('leaves out nodes being removed, lost to the ConfigNode, or listed at the wildcard address', async () => {
    const listed = [
      { url: A },
      { url: B, status: 'Removing' },
      { url: C, status: 'Unknown' },
      { url: '0.0.0.0:6667' },
      { url: '10.0.0.4:6667', status: 'ReadOnly' },
    ];
    const s = session(cluster(listed));
    await s.open();
    await query(s);
    await vi.waitFor(() => expect(s.queryEndpoints).toEqual([A, '10.0.0.4:6667']));
  });

  it("leaves out the loopback addresses of a cluster reached by another address: they are this machine's", async () => {
    const fake = cluster([{ url: '127.0.0.1:6667' }, { url: '127.0.0.1:6668' }]);
    const s = session(fake);
    await s.open();
    await query(s);
    await vi.waitFor(() => expect(fake.callsOf('closeSession')).toHaveLength(1)); // the discovery's session ended
    for (let i = 0; i < 5; i++) await query(s);
    expect(s.queryEndpoints).toEqual([A]); // nothing left: nodeUrls stay the turn
    expect(fake.connects).toBe(2); // the default node's, the discovery's
  });

  it('takes a node listed by its IP for the default node reached by a name: no second connection to it', async () => {
    const local = '127.0.0.1:6667';
    const fake = cluster([{ url: local }, { url: B }]);
    fake.setPeer('localhost:6667', local); // 'localhost' resolves to the address the cluster lists
    const s = session(fake, { nodeUrls: ['localhost:6667'] });
    await s.open();
    await settle(s, fake, [local, B]);
    for (let i = 0; i < 10; i++) await query(s);
    expect(queriesPerNode(fake)).toEqual({ 'localhost:6667': 5, [B]: 5 });
    expect(fake.connects).toBe(3); // the default node, B, the discovery's own (closed)
  });

  it('takes a node listed by its IP for a node of nodeUrls reached by a name: no second connection to it', async () => {
    // SHOW DATANODES answers late: the turn is nodeUrls meanwhile, and node-b's session opens by its name
    const listing = { reply: showDataNodesReply([{ url: A }, { url: B }]) };
    const fake = new FakeTransport((c) =>
      c.method === 'executeQueryStatementV2' && statementOf(c) === 'SHOW DATANODES'
        ? { delayMs: 300, then: listing }
        : undefined,
    );
    fake.setPeer('node-b:6667', B); // 'node-b' resolves to the address the cluster lists
    const s = session(fake, { nodeUrls: [A, 'node-b:6667'] });
    await s.open();
    await vi.waitFor(async () => {
      await query(s);
      expect(queriesPerNode(fake)['node-b:6667']).toBeGreaterThan(0);
    });
    await vi.waitFor(async () => {
      await query(s);
      expect(s.queryEndpoints).toEqual([A, B]); // the listed addresses now
    });
    fake.calls.length = 0;
    for (let i = 0; i < 10; i++) await query(s);
    expect(queriesPerNode(fake)).toEqual({ [A]: 5, 'node-b:6667': 5 });
    expect(fake.connects).toBe(3); // A, node-b, the discovery's own (closed): none to B by its IP
  });

  it('never holds a query up for a node it has not met: a node that does not answer a connect gets no query', async () => {
    const fake = cluster([{ url: A }, { url: B }, { url: C }]);
    fake.setNode(C, 'blackhole');
    const s = session(fake, { connectTimeoutMs: 60_000 });
    await s.open();
    await vi.waitFor(async () => {
      await query(s);
      expect(s.stats().connects).toBe(2); // A, B (C's connect still waiting)
    });
    const started = performance.now();
    for (let i = 0; i < 20; i++) await query(s);
    expect(performance.now() - started).toBeLessThan(1_000); // no query waited on C's connect
    expect(queriesPerNode(fake)[C]).toBeUndefined();
    expect(queriesPerNode(fake)[B]).toBeGreaterThan(0);
  });

  it('quarantines a node that refuses connections and gives its turns to the others', async () => {
    const fake = cluster([{ url: A }, { url: B }, { url: C }]);
    fake.setNode(B, 'refuse');
    const s = session(fake);
    await s.open();
    await vi.waitFor(async () => {
      await query(s);
      expect(s.queryEndpoints).toEqual([A, B, C]);
      expect(s.stats().connectFailures).toBe(1); // B, at its first turn
      expect(s.stats().connects).toBe(2); // A, C
    });
    fake.calls.length = 0;
    for (let i = 0; i < 20; i++) await query(s);
    expect(queriesPerNode(fake)[B]).toBeUndefined();
    expect(fake.callsOf('openSession').filter((c) => c.node === B)).toEqual([]); // quarantined: not even tried
  });

  it('a read whose node drops the connection is sent again on the other node; that node leaves the turn', async () => {
    let dropB = false;
    const fake = cluster([{ url: A }, { url: B }], (c) =>
      dropB && c.node === B && c.method === 'executeQueryStatementV2' ? { reset: true } : undefined,
    );
    const s = session(fake, { retry: { maxElapsedMs: 5_000, initialDelayMs: 1, maxDelayMs: 2 } });
    await s.open();
    await settle(s, fake, [A, B]);
    dropB = true;
    const errors: unknown[] = [];
    for (let i = 0; i < 10; i++) {
      await query(s).catch((e: unknown) => errors.push(e));
      await new Promise((r) => setTimeout(r, 5)); // time for a connection to open in the background
    }
    expect(errors).toEqual([]);
    expect(queriesPerNode(fake)).toEqual({ [A]: 10, [B]: 1 });
    expect(s.stats().retries).toBe(1);
  });

  it('a SHOW DATANODES that never answers holds up no query; the failure is logged once', async () => {
    const warn = vi.fn();
    const logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() };
    const fake = new FakeTransport((c) => (statementOf(c) === 'SHOW DATANODES' ? { hang: true } : undefined));
    const s = session(fake, { nodeUrls: [A, B], requestTimeoutMs: 100, logger });
    await s.open();
    const started = performance.now();
    for (let i = 0; i < 10; i++) await query(s);
    expect(performance.now() - started).toBeLessThan(100); // not one waited for the discovery's reply
    await vi.waitFor(() =>
      expect(warn.mock.calls.map(([o]) => (o as { event: string }).event)).toContain('discovery-failed'),
    );
    expect(s.queryEndpoints).toEqual([A, B]); // nodeUrls stay the turn
    expect(warn.mock.calls.filter(([o]) => (o as { event: string }).event === 'discovery-failed')).toHaveLength(1);
  });

  it('a SHOW DATANODES the server refuses (no privilege) keeps nodeUrls as the turn', async () => {
    const fake = new FakeTransport((c) =>
      statementOf(c) === 'SHOW DATANODES' ? { reply: { status: { code: 803, message: 'No permissions' } } } : undefined,
    );
    const s = session(fake, { nodeUrls: [A, B] });
    await s.open();
    await vi.waitFor(async () => {
      await query(s);
      expect(s.stats().connects).toBe(2);
    });
    fake.calls.length = 0;
    for (let i = 0; i < 10; i++) await query(s);
    expect(queriesPerNode(fake)).toEqual({ [A]: 5, [B]: 5 });
  });

  it('with discoverNodes off, takes turns on nodeUrls and asks the cluster nothing', async () => {
    const fake = cluster([{ url: A }, { url: B }, { url: C }]);
    const s = session(fake, { nodeUrls: [A, B], discoverNodes: false });
    await s.open();
    await vi.waitFor(async () => {
      await query(s);
      expect(s.stats().connects).toBe(2);
    });
    for (let i = 0; i < 10; i++) await query(s);
    expect(fake.calls.filter((c) => statementOf(c) === 'SHOW DATANODES')).toEqual([]);
    expect(queriesPerNode(fake)[C]).toBeUndefined();
    expect(s.queryEndpoints).toEqual([A, B]);
  });

  it('with spreadQueries off, sends every query to the default node and asks the cluster nothing', async () => {
    const fake = cluster([{ url: A }, { url: B }, { url: C }]);
    const s = session(fake, { nodeUrls: [A, B], spreadQueries: false });
    await s.open();
    for (let i = 0; i < 10; i++) await query(s);
    expect(queriesPerNode(fake)).toEqual({ [A]: 10 });
    expect(fake.calls.filter((c) => statementOf(c) === 'SHOW DATANODES')).toEqual([]);
    expect(s.queryEndpoints).toEqual([A]);
    expect(fake.connects).toBe(1);
  });

  it("a pool's sessions share one turn: its queries spread evenly over the nodes", async () => {
    const fake = cluster([{ url: A }, { url: B }, { url: C }]);
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, maxSize: 3 });
    closers.push(() => pool.close());
    const read = () => pool.executeQueryStatement(SQL).then((ds) => ds.toColumnar());
    const rounds = async (n: number) => {
      for (let i = 0; i < n; i++) await Promise.all([read(), read(), read()]);
    };
    await vi.waitFor(async () => {
      fake.calls.length = 0;
      await rounds(2); // until the nodes are learnt and the sessions the turn gives are open
      expect(queriesPerNode(fake)).toEqual({ [A]: 2, [B]: 2, [C]: 2 });
    });
    fake.calls.length = 0;
    await rounds(10);
    expect(queriesPerNode(fake)).toEqual({ [A]: 10, [B]: 10, [C]: 10 });
  });

  it("a pool's sessions learn the DataNodes with one SHOW DATANODES between them", async () => {
    const fake = cluster([{ url: A }, { url: B }]);
    const pool = new SessionPool({ nodeUrls: [A], transport: fake, maxSize: 4 });
    closers.push(() => pool.close());
    const read = () => pool.executeQueryStatement(SQL).then((ds) => ds.toColumnar());
    const asked = () => fake.calls.filter((c) => statementOf(c) === 'SHOW DATANODES');
    await vi.waitFor(async () => {
      await Promise.all([read(), read(), read(), read()]);
      expect(pool.stats().size).toBe(4);
      expect(asked()).toHaveLength(1);
    });
    for (let i = 0; i < 5; i++) {
      await Promise.all([read(), read(), read(), read()]);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(asked()).toHaveLength(1); // the list is good for a minute, for the whole pool
  });

  it('fails over to a DataNode the cluster listed when every node of nodeUrls is down (as the Java Session)', async () => {
    const fake = cluster([{ url: A }, { url: B }]);
    const s = session(fake, { retry: { maxElapsedMs: 1_000, initialDelayMs: 1, maxDelayMs: 5 } });
    await s.open();
    await vi.waitFor(async () => {
      await query(s);
      expect(s.queryEndpoints).toEqual([A, B]);
    });
    fake.setNode(A, 'refuse');
    await s.executeNonQueryStatement('FLUSH'); // never left the client on A: sent to B
    expect(fake.callsOf('executeUpdateStatementV2').map((c) => c.node)).toEqual([B]);
    expect(s.currentEndpoint).toBe(B);
    expect(s.stats().failovers).toBe(1);
  });

  it('logs a slow query with the node that ran it', async () => {
    const lines: [string, { event?: string; endpoint?: string }][] = [];
    const at = (level: string) => (o: object) => lines.push([level, o]);
    const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    const fake = cluster([{ url: A }, { url: B }], (c) =>
      c.node === B && statementOf(c) === SQL ? { delayMs: 200, then: { reply: defaultReply(c) } } : undefined,
    );
    const s = session(fake, { logger, slowCallMs: 100 });
    await s.open();
    await settle(s, fake, [A, B]);
    await query(s);
    await query(s);
    const slow = lines.filter(([, o]) => o.event === 'slow-call').map(([, o]) => o.endpoint);
    expect(slow).toEqual([B]);
  });

  it('a result being read on another node survives USE and setTimeZone, whose new server sessions open beside it', async () => {
    let fetches = 0;
    const fake = cluster([{ url: A }, { url: B }], (c) => {
      if (c.method === 'executeUpdateStatementV2' && statementOf(c) === 'USE db2')
        return { reply: { status: { code: 200 }, database: 'db2' } };
      if (c.method === 'executeQueryStatementV2' && statementOf(c) === 'SELECT * FROM t')
        return { reply: { ...showDataNodesReply([{ url: A }], 5n), moreData: true } };
      if (c.method === 'fetchResultsV2' && ++fetches === 1)
        return {
          reply: {
            status: { code: 200 },
            hasResultSet: true,
            isAlign: true,
            queryResult: showDataNodesReply([{ url: B }]).queryResult,
            moreData: false,
          },
        };
      return undefined;
    });
    const s = new TableSession({ nodeUrls: [A], transport: fake, database: 'db1', readAhead: 0 });
    closers.push(() => s.close());
    await s.open();
    await vi.waitFor(async () => {
      await query(s, 'SHOW TABLES');
      expect(s.stats().connects).toBe(2);
    });
    let ds = await s.executeQueryStatement('SELECT * FROM t');
    while (fake.callsOf('executeQueryStatementV2').at(-1)!.node !== B)
      ds = await s.executeQueryStatement('SELECT * FROM t');
    const rows: unknown[] = [];
    for await (const row of ds) {
      rows.push(row.getString('RpcAddress'));
      if (rows.length === 1) {
        await s.executeNonQueryStatement('USE db2');
        await s.setTimeZone('+05:00');
      }
    }
    expect(rows).toEqual(['10.0.0.1', '10.0.0.2']); // the second row came in a fetch from B after the USE
    expect(fake.callsOf('fetchResultsV2').map((c) => c.node)).toEqual([B]);
    // the old server session on B closed once the result was read; later queries there open in db2
    await vi.waitFor(() => expect(fake.callsOf('closeSession').filter((c) => c.node === B).length).toBeGreaterThan(0));
  });

  it("a table session's queries on other nodes run in its database, also after USE", async () => {
    const fake = cluster([{ url: A }, { url: B }], (c) =>
      c.method === 'executeUpdateStatementV2' && statementOf(c) === 'USE db2'
        ? { reply: { status: { code: 200 }, database: 'db2' } }
        : undefined,
    );
    const s = new TableSession({ nodeUrls: [A], transport: fake, database: 'db1' });
    closers.push(() => s.close());
    await s.open();
    const dbOf = (c: FakeCall) => (c.args as { configuration: Map<string, string> }).configuration.get('db');
    const loginsAt = (node: string) =>
      fake
        .callsOf('openSession')
        .filter((c) => c.node === node && dbOf(c) !== undefined)
        .map(dbOf);
    await vi.waitFor(async () => {
      await query(s, 'SELECT * FROM t');
      expect(loginsAt(B)).toEqual(['db1']);
    });
    await s.executeNonQueryStatement('USE db2');
    await vi.waitFor(async () => {
      await query(s, 'SELECT * FROM t');
      expect(loginsAt(B)).toEqual(['db1', 'db2']);
    });
  });
});
