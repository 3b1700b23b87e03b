import { describe, expect, it, vi } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { connectionFlags } from './connection-args.js';
import { parsePersistArgs, persistCommand, persistLater } from './persist-command.js';

describe('iotdb-bench persist', () => {
  it('takes the files, the server (IOTDB_HOST / IOTDB_PORT by default) and how to reach it', () => {
    expect(parsePersistArgs(['a.json', 'b.json'], { IOTDB_HOST: 'db', IOTDB_PORT: '7667' })).toEqual({
      files: ['a.json', 'b.json'],
      host: 'db',
      port: 7667,
      tls: false,
      tlsCa: undefined,
      rpcCompression: false,
    });
    const t = parsePersistArgs(['--host', '10.0.0.9', 'a.json', '--port', '6668', '--tls', '--rpc-compression'], {});
    expect(t).toMatchObject({ files: ['a.json'], host: '10.0.0.9', port: 6668, tls: true, rpcCompression: true });
  });

  it('refuses what it cannot use, saying why', () => {
    expect(() => parsePersistArgs([], {})).toThrow('needs one results.json at least');
    expect(() => parsePersistArgs(['a.json', '--port', '70000'], {})).toThrow('--port needs an integer in [1, 65535]');
    expect(() => parsePersistArgs(['a.json', '--host'], {})).toThrow('--host needs a value');
    expect(() => parsePersistArgs(['a.json', '--tls-ca', 'ca.pem'], {})).toThrow('it needs --tls');
    expect(() => parsePersistArgs(['a.json', '--tls', '--tls-ca', '/no/ca.pem'], {})).toThrow('no such file');
    expect(() => parsePersistArgs(['a.json', '--user', 'x'], {})).toThrow('unknown option --user');
  });

  it('exits 2 with the usage on a bad command line, and on a file it cannot read, before connecting', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await persistCommand(['--port', '0'])).toBe(2);
      expect(error.mock.calls[0][0]).toMatch(/^iotdb-bench persist: --port needs .*\nusage: iotdb-bench persist /);
      expect(await persistCommand(['/no/results.json', '--port', '1'])).toBe(2);
      expect(error.mock.calls[1][0]).toMatch(/^iotdb-bench persist: \/no\/results\.json: cannot read it \(ENOENT\)$/);
    } finally {
      error.mockRestore();
    }
  });
});

describe("a run's results that --persist-results could not write", () => {
  it("says where they are kept and the command that persists them later, with the run's way to the server", () => {
    const run = sampleConfig({ out: 'site/run1', persistResults: 'db.example:6667', tls: true, tlsCa: 'ca.pem' });
    expect(persistLater(run)).toBe(
      'they are kept in site/run1 (iotdb-bench persist site/run1/results.json --host db.example --port 6667 --tls ' +
        '--tls-ca ca.pem writes them once the server takes them)',
    );
    expect(persistLater({ ...run, tls: false, tlsCa: undefined, rpcCompression: true })).toMatch(
      /--port 6667 --rpc-compression writes them/,
    );
  });

  it('names the server with the very flags persist takes back', () => {
    const server = { host: 'db.example', port: 6668, tls: true, tlsCa: undefined, rpcCompression: true };
    expect(parsePersistArgs(['r.json', ...connectionFlags(server)], {})).toEqual({ files: ['r.json'], ...server });
  });

  it('quotes a directory the shell would split', () => {
    const run = sampleConfig({ out: "my runs/it's", persistResults: 'h:1' });
    expect(persistLater(run)).toContain(`iotdb-bench persist 'my runs/it'\\''s/results.json' --host h --port 1 writes`);
  });

  it('says they are in the console only without --out', () => {
    expect(persistLater(sampleConfig({ persistResults: 'db.example:6667', out: undefined }))).toBe(
      'they are in the console above only: with --out DIR a run keeps them in files that iotdb-bench persist writes later',
    );
  });
});
