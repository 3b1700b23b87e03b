import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { checkDevicePath, checkTableName, nodeNameProblem } from '@iotdb/fast-serializer';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { RpcConnection } from '../connection/rpc-connection.js';
import { isSuccess } from '../protocol/status.js';
import { Session } from './session.js';
import { TableSession } from './table-session.js';

// The client refuses a name before sending exactly when the server would not take it as given: generated names are
// sent to the real server as raw insertTablet requests (past the client's checks), and its answers compared with the
// client's check.

const { host, port } = inject('iotdb');
const DB = `root.it_names_${randomBytes(3).toString('hex')}`;
let session: Session;
let raw: (prefixPath: string, measurement: string) => Promise<boolean>;

beforeAll(async () => {
  session = new Session({ host, port });
  await session.open();
  const { connection, sessionId } = await rawSession(() => session.executeNonQueryStatement(`CREATE DATABASE ${DB}`));
  const value = Buffer.from([0, 0, 0, 7, 0]); // INT32 7, then no bitmap
  const time = Buffer.alloc(8);
  raw = async (prefixPath, measurement) => {
    const status = await connection.call('insertTablet', {
      ...{ sessionId, prefixPath, measurements: [measurement], values: value, timestamps: time },
      ...{ types: [1], size: 1, isAligned: false },
    });
    return isSuccess(status.code); // 400: written, another node recommended
  };
});

/** The connection and server session `call` went out on: raw requests sent on them pass the client's checks by. */
async function rawSession(call: () => Promise<unknown>): Promise<{ connection: RpcConnection; sessionId: bigint }> {
  const calls = vi.spyOn(RpcConnection.prototype, 'call');
  try {
    await call();
    return {
      connection: calls.mock.contexts[0] as RpcConnection,
      sessionId: (calls.mock.calls[0][1] as { sessionId: bigint }).sessionId,
    };
  } finally {
    calls.mockRestore();
  }
}

afterAll(async () => {
  try {
    await session.executeNonQueryStatement(`DELETE DATABASE ${DB}`);
  } finally {
    await session.close();
  }
});

/** Names made of pieces that sit near the rule's edges: its characters and those just outside, numbers, the kept words. */
const PIECES = [
  'a',
  'Z',
  '0',
  '19',
  '_',
  'e',
  'E',
  'd',
  'F',
  'l',
  'x',
  '00',
  '-',
  '.',
  '`',
  '``',
  ' ',
  '中',
  '\u2E80',
  '\u9FFF',
  '\u2E7F',
  '\uA000',
  'é',
  '😀',
  '*',
  ':',
  '@',
  '{',
  "'",
  'time',
  'TimeStamp',
  'root',
];
const names = (seed: number, count: number, pieces: string[]) =>
  fc.sample(
    fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
    { seed, numRuns: count },
  );

const takenByUs = (check: () => void) => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

describe('tree names: the client refuses what IoTDB refuses, and only that', () => {
  it('as a measurement', async () => {
    const differ: string[] = [];
    let i = 0;
    for (const name of new Set(names(20261129, 300, PIECES))) {
      const server = await raw(`${DB}.m${i++}`, name);
      if (server !== (nodeNameProblem(name) === undefined))
        differ.push(`${JSON.stringify(name)}: the server ${server ? 'took' : 'refused'} it`);
    }
    expect(differ).toEqual([]);
  });

  it("as a device's level", async () => {
    // not `root`: a level named so in backquotes is stored, and breaks the server's SHOW DEVICES over it; not a
    // space: the server trims it off a level's ends unsaid (the client refuses it: device-path.ts)
    const pieces = PIECES.filter((p) => p !== 'root' && p !== ' ');
    const differ: string[] = [];
    let i = 0;
    for (const name of new Set(names(1129, 300, pieces))) {
      const device = `${DB}.d${i++}.${name}`;
      const server = await raw(device, 'v');
      if (server !== takenByUs(() => checkDevicePath('deviceId', device)))
        differ.push(`${JSON.stringify(device)}: the server ${server ? 'took' : 'refused'} it`);
    }
    expect(differ).toEqual([]);
  });
});

describe('table names: the client refuses what IoTDB refuses or stores in another table, and only that', () => {
  const database = `it_tables_${randomBytes(3).toString('hex')}`;
  const tables = new TableSession({ host, port });

  beforeAll(async () => {
    await tables.open();
    await tables.executeNonQueryStatement(`CREATE DATABASE ${database}`);
    await tables.executeNonQueryStatement(`USE ${database}`);
  });

  afterAll(async () => {
    try {
      await tables.executeNonQueryStatement(`DROP DATABASE IF EXISTS ${database}`);
    } finally {
      await tables.close();
    }
  });

  it('as the name of a written table', async () => {
    const { connection, sessionId } = await rawSession(() => tables.executeNonQueryStatement(`USE ${database}`));
    // one STRING tag "a" and one INT32 field 7, no bitmaps
    const values = Buffer.from([0, 0, 0, 1, 0x61, 0, 0, 0, 7, 0, 0]);
    const taken = new Map<string, boolean>();
    // not a space, a backquote nor a star: the client refuses those whatever the server does (table-name.ts; the star
    // below)
    const pieces = [...PIECES.filter((p) => p !== ' ' && !p.includes('`') && p !== '*'), 'root.', 'ROOT.', '"'];
    for (const name of new Set(names(29, 250, pieces))) {
      const status = await connection.call('insertTablet', {
        ...{ sessionId, prefixPath: name, measurements: ['id', 'v'], values, timestamps: Buffer.alloc(8) },
        ...{ types: [11, 1], size: 1, isAligned: false, writeToTable: true, columnCategories: [0, 1] },
      });
      taken.set(name, isSuccess(status.code));
    }
    const stored = new Set<string>();
    for await (const row of await tables.executeQueryStatement('SHOW TABLES')) stored.add(String(row.getString(1)));
    const differ: string[] = [];
    for (const [name, accepted] of taken) {
      const kept = accepted && stored.has(name.toLowerCase()); // else refused, or its rows stored in another table
      const ours = takenByUs(() => checkTableName('tableName', name));
      if (kept !== ours) differ.push(`${JSON.stringify(name)}: the server ${kept ? 'kept' : 'did not keep'} it`);
    }
    expect(differ).toEqual([]);
  });

  it("as a table's name holding a *, which the server keeps and then reads as a wildcard for the table's devices", async () => {
    const { connection, sessionId } = await rawSession(() => tables.executeNonQueryStatement(`USE ${database}`));
    const write = async (table: string, tag: string) => {
      const values = Buffer.from([0, 0, 0, 1, tag.charCodeAt(0), 0, 0, 0, 7, 0, 0]); // STRING tag, INT32 field 7
      const status = await connection.call('insertTablet', {
        ...{ sessionId, prefixPath: table, measurements: ['id', 'v'], values, timestamps: Buffer.alloc(8) },
        ...{ types: [11, 1], size: 1, isAligned: false, writeToTable: true, columnCategories: [0, 1] },
      });
      expect(isSuccess(status.code)).toBe(true);
    };
    await write('star*', 'a');
    await write('starry', 'b');
    await write('q$*', 'c');
    const rows = async (sql: string) => (await (await tables.executeQueryStatement(sql)).toColumnar()).rowCount;
    expect(await rows('SHOW DEVICES FROM "star*"')).toBe(2); // its own device and starry's
    expect(await rows('SELECT * FROM "q$*"')).toBe(0); // its row written, and not found
    for (const name of ['star*', 'q$*']) expect(takenByUs(() => checkTableName('tableName', name))).toBe(false);
  });
});
