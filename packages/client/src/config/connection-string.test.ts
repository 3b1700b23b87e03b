import { describe, expect, it } from 'vitest';
import { parseConnectionString } from './connection-string.js';
import { IssueList } from './issues.js';
import type { ConfigTarget } from './known-options.js';

const TREE: ConfigTarget = { table: false, pool: false };
const TABLE: ConfigTarget = { table: true, pool: false };
const TREE_POOL: ConfigTarget = { table: false, pool: true };

function parse(url: string, target = TREE) {
  const issues = new IssueList();
  const parts = parseConnectionString(url, target, issues);
  return { parts, problems: problemsOf(issues) };
}

function problemsOf(issues: IssueList): { field: string; message: string }[] {
  try {
    issues.throwIfAny();
    return [];
  } catch (e) {
    return [...(e as { issues: { field: string; message: string }[] }).issues];
  }
}

describe('connection string: hosts', () => {
  it('reads one host with its port', () => {
    expect(parse('iotdb://db.example:6668').parts.hosts).toEqual([{ host: 'db.example', port: 6668 }]);
  });

  it('reads a host without a port (the port then comes from the other layers)', () => {
    expect(parse('iotdb://db.example').parts.hosts).toEqual([{ host: 'db.example' }]);
    expect(parse('iotdb://db.example/').parts.hosts).toEqual([{ host: 'db.example' }]);
  });

  it('reads several hosts, comma-separated', () => {
    const { parts } = parse('iotdb://h1:6667,h2:6668,h3');
    expect(parts.hosts).toEqual([{ host: 'h1', port: 6667 }, { host: 'h2', port: 6668 }, { host: 'h3' }]);
  });

  it('reads IPv6 addresses in brackets, with and without a port', () => {
    const { parts, problems } = parse('iotdb://[::1]:6667,[fe80::1%25eth0],[2001:db8::2]:7000');
    expect(problems).toEqual([]);
    expect(parts.hosts).toEqual([
      { host: '::1', port: 6667 },
      { host: 'fe80::1%25eth0' },
      { host: '2001:db8::2', port: 7000 },
    ]);
  });

  it('takes no host at all as "no host given" (the environment or the default decides)', () => {
    expect(parse('iotdb://?fetchSize=1').parts.hosts).toEqual([]);
    expect(parse('iotdb://user:pw@').parts.hosts).toEqual([]);
  });

  it.each([
    ['an IPv6 address without brackets', 'iotdb://::1:6667', /IPv6 in brackets/],
    ['port 0', 'iotdb://h:0', /port 1-65535/],
    ['port 65536', 'iotdb://h:65536', /port 1-65535/],
    ['a port that is not a number', 'iotdb://h:abc', /host 1 needs/],
    ['an empty host in a list', 'iotdb://h1:6667,,h2:6668', /host 2 needs/],
    ['a trailing comma', 'iotdb://h1:6667,', /host 2 needs/],
  ])('refuses %s', (_label, url, message) => {
    const { problems } = parse(url);
    expect(problems).toHaveLength(1);
    expect(problems[0].field).toBe('url');
    expect(problems[0].message).toMatch(message);
  });
});

describe('connection string: user and password', () => {
  it('reads the user and the password', () => {
    expect(parse('iotdb://alice:s3cret@h:6667').parts).toMatchObject({ username: 'alice', password: 's3cret' });
  });

  it('percent-decodes both, and keeps an unencoded @ of the password (the last @ ends the user part)', () => {
    const { parts } = parse('iotdb://al%20ice:p%40ss%3Aw%2Fo%25rd@h:6667');
    expect(parts).toMatchObject({ username: 'al ice', password: 'p@ss:w/o%rd' });
    expect(parse('iotdb://bob:p@ss@h:6667').parts).toMatchObject({ username: 'bob', password: 'p@ss' });
  });

  it('takes a user without a password, and an empty password', () => {
    expect(parse('iotdb://alice@h').parts).toMatchObject({ username: 'alice' });
    expect(parse('iotdb://alice@h').parts.password).toBeUndefined();
    expect(parse('iotdb://alice:@h').parts.password).toBe('');
  });

  it('refuses bad percent-encoding without quoting the password', () => {
    const { problems } = parse('iotdb://alice:se%ZZcret@h');
    expect(problems).toEqual([{ field: 'url', message: 'the password is not valid percent-encoding' }]);
  });

  it('says what to encode, without quoting the password, when a "/", "?" or "#" in it breaks the URL', () => {
    for (const url of ['iotdb://alice:Xq7/zz9@h:6667', 'iotdb://alice:Xq7?zz9@h', 'iotdb://alice:Xq7#zz9@h']) {
      const { problems } = parse(url);
      expect(problems).toEqual([
        { field: 'url', message: "an '@' after the host: percent-encode '/', '?' and '#' in the user and password" },
      ]);
    }
  });

  it('never quotes a host part that could hold a password', () => {
    const { problems } = parse('iotdb://alice:Xq7zz9,h:6667');
    expect(problems.length).toBe(1);
    expect(JSON.stringify(problems)).not.toContain('Xq7zz9');
  });
});

describe('connection string: parameters', () => {
  it('parses each parameter to its option type: integers, booleans, strings', () => {
    const url =
      'iotdb://h?fetchSize=10000&tls=true&rpcCompression=false&int64As=number&timestampAs=Date' +
      '&timeZone=%2B08:00&connectTimeoutMs=5&requestTimeoutMs=0&maxFrameBytes=1024&enableFastSerialization=false' +
      '&enableRedirection=false&slowCallMs=250&spreadQueries=false&discoverNodes=false';
    const { parts, problems } = parse(url);
    expect(problems).toEqual([]);
    expect(parts.params).toEqual({
      fetchSize: 10000,
      tls: true,
      rpcCompression: false,
      int64As: 'number',
      timestampAs: 'Date',
      timeZone: '+08:00',
      connectTimeoutMs: 5,
      requestTimeoutMs: 0,
      maxFrameBytes: 1024,
      enableFastSerialization: false,
      enableRedirection: false,
      slowCallMs: 250,
      spreadQueries: false,
      discoverNodes: false,
    });
  });

  it("keeps '+' as it is (RFC 3986, not form encoding): timeZone=+08:00", () => {
    expect(parse('iotdb://h?timeZone=+08:00').parts.params.timeZone).toBe('+08:00');
  });

  it('gathers retry.* parameters into retry', () => {
    const { parts } = parse('iotdb://h?retry.maxElapsedMs=0&retry.initialDelayMs=5&retry.maxDelayMs=50');
    expect(parts.params.retry).toEqual({ maxElapsedMs: 0, initialDelayMs: 5, maxDelayMs: 50 });
  });

  it('takes pool options only for pools', () => {
    expect(parse('iotdb://h?maxSize=4&deviceBinding=false', TREE_POOL).parts.params).toEqual({
      maxSize: 4,
      deviceBinding: false,
    });
    expect(parse('iotdb://h?maxSize=4').problems).toEqual([
      { field: 'maxSize', message: 'unknown connection string parameter' },
    ]);
  });

  it('reports every bad parameter, with its name', () => {
    const { problems } = parse('iotdb://h?fetchSize=abc&tls=yes&fetchsize=1&port=1&fetchSize=2&connectTimeoutMs=1.5');
    expect(problems).toEqual([
      { field: 'fetchSize', message: "needs an integer, got 'abc'" },
      { field: 'tls', message: "needs true or false, got 'yes'" },
      { field: 'fetchsize', message: "unknown connection string parameter (did you mean 'fetchSize'?)" },
      { field: 'port', message: expect.stringContaining('not a connection string parameter') as string },
      { field: 'connectTimeoutMs', message: "needs an integer, got '1.5'" },
    ]);
  });

  it('refuses a parameter given twice', () => {
    const { problems } = parse('iotdb://h?fetchSize=1&fetchSize=2');
    expect(problems).toEqual([{ field: 'fetchSize', message: 'given twice in the connection string' }]);
  });

  it('refuses objects that a URL cannot hold (logger, transport, bufferPool) as unknown parameters', () => {
    expect(parse('iotdb://h?logger=console').problems.map((p) => p.field)).toEqual(['logger']);
  });
});

describe('connection string: database', () => {
  it('reads a table session database from the path, percent-decoded', () => {
    expect(parse('iotdb://h:6667/db1', TABLE).parts.database).toBe('db1');
    expect(parse('iotdb://h:6667/my%20db', TABLE).parts.database).toBe('my db');
  });

  it('reads it from the database parameter too, but not from both', () => {
    expect(parse('iotdb://h:6667?database=db2', TABLE).parts.params.database).toBe('db2');
    expect(parse('iotdb://h:6667/db1?database=db2', TABLE).problems.map((p) => p.field)).toEqual(['database']);
  });

  it('refuses a database for a tree session, and a path of more than one segment', () => {
    expect(parse('iotdb://h:6667/db1').problems[0].message).toMatch(/needs a TableSession/);
    expect(parse('iotdb://h:6667?database=db1').problems[0].field).toBe('database');
    expect(parse('iotdb://h:6667/a/b', TABLE).problems[0].message).toMatch(/at most a database/);
  });
});

describe('connection string: form', () => {
  it.each([
    ['another scheme', 'postgres://h:5432'],
    ['no scheme', 'h:6667'],
    ['an empty string', ''],
  ])('refuses %s', (_label, url) => {
    expect(parse(url).problems).toEqual([
      { field: 'url', message: "needs a connection string starting with 'iotdb://'" },
    ]);
  });

  it('takes the scheme in any case', () => {
    expect(parse('IoTDB://h:1').problems).toEqual([]);
  });

  it('refuses a fragment', () => {
    expect(parse('iotdb://h:1#x').problems[0].message).toMatch(/fragment/);
  });
});
