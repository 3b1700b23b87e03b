import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { IoTDBConnectionError, IoTDBTimeoutError, Session, SessionPool } from '../index.js';

/**
 * TLS against a real IoTDB 2.0.1-beta started here with TLS on its client RPC port (1C1D on other ports,
 * a self-signed keystore made by keytool for CN/SAN 127.0.0.1; scripts/iotdb-local.sh TLS=1).
 */
const server = inject('iotdb');
const control = server.control;
const exec = promisify(execFile);
const dir = `${control?.dir}-tls`;
const port = 8667;

describe.skipIf(control === null)('TLS', () => {
  let ca: Buffer;
  let wrongCa: Buffer;
  beforeAll(async () => {
    await exec('bash', [control!.script, 'start', dir], {
      timeout: 240_000,
      env: {
        ...process.env,
        PORT_OFFSET: '2000',
        RPC_PORT: String(port),
        DATANODES: '1',
        DN_HEAP: '1g',
        TLS: '1',
        RPC_COMPRESSION: '0',
      },
    });
    ca = readFileSync(`${dir}/tls/ca.pem`);
    wrongCa = readFileSync(`${dir}/tls/wrong-ca.pem`);
  }, 240_000);
  afterAll(async () => {
    await exec('bash', [control!.script, 'kill', dir], { timeout: 120_000 }).catch(() => undefined);
  }, 120_000);

  it('writes and reads back over TLS with the certificate verified against its CA', async () => {
    const s = new Session({ port, tls: { ca } });
    await s.open();
    try {
      const db = `root.it_tls_${randomBytes(3).toString('hex')}`;
      await s.executeNonQueryStatement(`CREATE DATABASE ${db}`);
      // 2000 rows of text: a frame of many 16 KB TLS records each way
      const n = 2_000;
      const timestamps = Array.from({ length: n }, (_, i) => i + 1);
      await s.insertTablet({
        deviceId: `${db}.d`,
        measurements: ['t'],
        dataTypes: ['TEXT'],
        timestamps,
        values: timestamps.map((t) => [`v${t}`.padEnd(64, 'x')]),
      });
      const c = await (await s.executeQueryStatement(`SELECT t FROM ${db}.d`, { fetchSize: 500 })).toColumnar();
      expect(c.rowCount).toBe(n);
      expect(c.values[0][n - 1]).toBe(`v${n}`.padEnd(64, 'x'));
      await s.executeNonQueryStatement(`DELETE DATABASE ${db}`);
    } finally {
      await s.close();
    }
  });

  it('a pool opens every session with TLS', async () => {
    const pool = new SessionPool({ port, tls: { ca }, maxSize: 3 });
    try {
      const r = await pool.executeParallel(
        [1, 2, 3].map(
          () => async (s: Session) =>
            (await (await s.executeQueryStatement('SHOW DATABASES')).toColumnar()).rowCount >= 0,
        ),
      );
      expect(r).toEqual([true, true, true]);
      expect(pool.stats().size).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it('a certificate from another CA fails with IoTDBConnectionError (reason tls) within the connect timeout', async () => {
    const s = new Session({ port, tls: { ca: wrongCa }, connectTimeoutMs: 3_000 });
    const t0 = performance.now();
    const e = await s.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect((e as IoTDBConnectionError).reason).toBe('tls');
    expect((e as IoTDBConnectionError).code).toBe('IOTDB_TLS');
    // what to do about it, past OpenSSL's words
    expect((e as IoTDBConnectionError).message).toContain("give the server's CA certificate (PEM) as tls: { ca }");
    expect(performance.now() - t0).toBeLessThan(3_500);
  });

  it('a plaintext client at the TLS port fails with IoTDBConnectionError within the connect timeout', async () => {
    const s = new Session({ port, connectTimeoutMs: 3_000 });
    const t0 = performance.now();
    const e = await s.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBConnectionError);
    expect((e as IoTDBConnectionError).message).toContain('check the tls and rpcCompression options');
    expect(performance.now() - t0).toBeLessThan(3_500);
  });

  it('a TLS client at a plaintext port fails with IoTDBTimeoutError within the connect timeout (the server waits for a 369 MB frame)', async () => {
    const s = new Session({ host: server.host, port: server.port, tls: { ca }, connectTimeoutMs: 2_000 });
    const t0 = performance.now();
    const e = await s.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IoTDBTimeoutError);
    expect((e as IoTDBTimeoutError).message).toMatch(
      /connected, but no TLS handshake within connectTimeoutMs=2000: is TLS on at the server \(its enable_thrift_ssl\)\?/,
    );
    expect(performance.now() - t0).toBeLessThan(2_500);
  });
});
