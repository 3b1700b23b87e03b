import { afterEach, describe, expect, it } from 'vitest';
import { IoTDBBatchError, IoTDBConnectionError, IoTDBValidationError } from '../errors.js';
import { FakeTransport, type FakeAction, type FakeCall } from '../transport/fake-transport.js';
import { Session } from './session.js';
import { tsBlock } from '../testing/tsblock.js';

/**
 * Schema and data management calls against a scripted server. Those that take a list IoTDB's statements take one
 * item of send one statement an item, as the Java Session's one request is answered: every item tried, those the
 * server refused listed with their status.
 */
const A = '10.0.0.1:6667';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
});

/** A session open over `fake`, closed after the test. */
async function openOn(fake: FakeTransport): Promise<Session> {
  const s = new Session({ nodeUrls: [A], transport: fake, retry: { maxElapsedMs: 0 }, discoverNodes: false });
  closers.push(() => s.close());
  await s.open();
  return s;
}

/** A session whose server answers a statement naming `path` as `fates` says (others succeed). */
async function session(fates: Record<string, FakeAction>): Promise<{ s: Session; sent: () => string[] }> {
  const fake = new FakeTransport((c) => {
    if (c.method !== 'executeUpdateStatementV2') return undefined;
    const sql = String((c.args as { statement: string }).statement);
    return Object.entries(fates).find(([path]) => sql.endsWith(path) || sql.includes(`${path} `))?.[1];
  });
  const s = await openOn(fake);
  const sent = () => fake.callsOf('executeUpdateStatementV2').map((c) => String(c.args.statement));
  return { s, sent };
}

/** A server answering `method` with `reply(call)`, and the rest as a working, empty server. */
const answering = (method: string, reply: (call: FakeCall) => unknown): FakeTransport =>
  new FakeTransport((c) => (c.method === method ? { reply: reply(c) } : undefined));

const refused = (code: number, message: string): FakeAction => ({ reply: { status: { code, message } } });
const specs = ['a', 'b', 'c'].map((m) => ({ path: `root.sg.d1.${m}`, dataType: 'INT32' as const }));

describe('createMultiTimeseries', () => {
  it('creates every series the server takes when it refuses one (an existing one), and lists the refused', async () => {
    const { s, sent } = await session({ 'root.sg.d1.a': refused(503, 'Path [root.sg.d1.a] already exist') });
    const e = (await s.createMultiTimeseries(specs).catch((x: unknown) => x)) as IoTDBBatchError;
    expect(sent()).toHaveLength(3);
    expect(e).toBeInstanceOf(IoTDBBatchError);
    expect(e.failures).toMatchObject([{ index: 0, statusCode: 503, device: 'root.sg.d1.a' }]);
    expect(e.succeeded).toEqual([1, 2]);
    expect(e.message).toContain('createMultiTimeseries: 1 of 3 failed');
  });

  it('stops at a failure that is not the server refusing the series (a lost connection): the rest are not tried', async () => {
    const { s, sent } = await session({ 'root.sg.d1.b': { reset: true } });
    const e = (await s.createMultiTimeseries(specs).catch((x: unknown) => x)) as IoTDBBatchError;
    expect(sent()).toHaveLength(2);
    expect(e.failures).toHaveLength(1);
    expect(e.failures[0]).toMatchObject({ index: 1, device: 'root.sg.d1.b' });
    expect(e.failures[0].error).toBeInstanceOf(IoTDBConnectionError);
    expect(e.succeeded).toEqual([0]); // index 2 in neither list: not tried
  });
});

describe('createTimeseriesUsingSchemaTemplate', () => {
  it('activates the template on every device the server takes, and lists those it refused', async () => {
    const { s, sent } = await session({ 'root.sg.x': refused(515, 'Template is in use on root.sg.x') });
    const e = (await s
      .createTimeseriesUsingSchemaTemplate(['root.sg.x', 'root.sg.y'])
      .catch((x: unknown) => x)) as IoTDBBatchError;
    expect(sent()).toEqual([
      'CREATE TIMESERIES USING SCHEMA TEMPLATE ON root.sg.x',
      'CREATE TIMESERIES USING SCHEMA TEMPLATE ON root.sg.y',
    ]);
    expect(e.failures).toMatchObject([{ index: 0, statusCode: 515, device: 'root.sg.x' }]);
    expect(e.succeeded).toEqual([1]);
  });

  it('resolves when every device took it', async () => {
    const { s, sent } = await session({});
    await s.createTimeseriesUsingSchemaTemplate(['root.sg.x', 'root.sg.y']);
    expect(sent()).toHaveLength(2);
  });
});

describe('deleteData', () => {
  it("takes Dates, converted to the server's time unit as a write's are", async () => {
    const fake = answering('openSession', () => ({
      status: { code: 200 },
      serverProtocolVersion: 2,
      sessionId: 1n,
      configuration: new Map([['timestamp_precision', 'us']]),
    }));
    const s = await openOn(fake);
    const at = new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123));
    await s.deleteData('root.sg.d1.v', { startTime: at, endTime: new Date(at.getTime() + 1) });
    await s.deleteData('root.sg.d1.v', { endTime: at });
    expect(fake.callsOf('executeUpdateStatementV2').map((c) => c.args.statement)).toEqual([
      'DELETE FROM root.sg.d1.v WHERE time >= 1714979289123000 AND time <= 1714979289124000',
      'DELETE FROM root.sg.d1.v WHERE time <= 1714979289123000',
    ]);
  });

  it('refuses times given as Java gives them, a Date too (an object, but not a range), and sends nothing', async () => {
    const fake = answering('openSession', () => ({ status: { code: 200 }, serverProtocolVersion: 2, sessionId: 1n }));
    const s = await openOn(fake);
    const at = new Date(Date.UTC(2024, 4, 6));
    const javaLike = s.deleteData('root.sg.d1.v', at as never, at as never);
    await expect(javaLike).rejects.toThrow(IoTDBValidationError);
    await expect(s.deleteData('root.sg.d1.v', at as never)).rejects.toThrow(
      /^range: needs \{ startTime\?, endTime \}.*got Date 2024-05-06T00:00:00.000Z$/,
    );
    expect(fake.callsOf('executeUpdateStatementV2')).toEqual([]);
  });
});

describe('names in any case', () => {
  it("takes an aggregation, a series' type and its encoding named in any case, as IoTDB's SQL reads them", async () => {
    const fake = new FakeTransport();
    const s = await openOn(fake);
    const paths = ['root.sg.d1.s', 'root.sg.d1.s'];
    await (await s.executeAggregationQuery(paths, ['count' as never, 'Max_Value' as never])).close();
    await (await s.executeAggregationQuery(paths, ['COUNT', 'MAX_VALUE'])).close();
    const [lower, upper] = fake.callsOf('executeAggregationQueryV2').map((c) => c.args.aggregations);
    expect(lower).toEqual(upper);
    await s.createTimeseries({ path: 'root.sg.d1.t', dataType: 'double' as never, encoding: 'gorilla' as never });
    expect(fake.callsOf('executeUpdateStatementV2').map((c) => c.args.statement)).toEqual([
      'CREATE TIMESERIES root.sg.d1.t WITH DATATYPE=DOUBLE, ENCODING=GORILLA',
    ]);
    await expect(s.executeAggregationQuery(['root.sg.d1.s'], ['counts' as never])).rejects.toThrow(
      /^aggregations\[0\]: unknown aggregation counts \(one of COUNT, /,
    );
  });
});

describe('template introspection', () => {
  it("takes a call's options as the other calls do: a reply wait and a signal", async () => {
    const fake = answering('executeQueryStatementV2', (c) => ({
      status: { code: 200 },
      queryId: 1n,
      columns: [/ NODES /.test(String((c.args as { statement: string }).statement)) ? 'ChildNodes' : 'TemplateName'],
      dataTypeList: ['TEXT'],
      queryResult: [tsBlock([0, 1], [{ type: 'TEXT', values: ['t1', 't2'] }])],
      moreData: false,
    }));
    const s = await openOn(fake);
    expect(await s.showAllTemplates({ timeoutMs: 5_000, signal: AbortSignal.timeout(5_000) })).toEqual(['t1', 't2']);
    expect(await s.countMeasurementsInTemplate('t', { timeoutMs: 5_000 })).toBe(2);
  });
});
