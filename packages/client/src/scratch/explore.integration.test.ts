import { it, expect, vi, inject } from 'vitest';
import { Session, SessionPool, TableSessionPool } from '../index.js';
import { rpc } from '../rpc/client-rpc.js';

it('explore2', async () => {
  const s = new Session({ nodeUrls: ['127.0.0.1:6667'] });
  await s.open();
  const db = 'root.scratch_y' + Date.now();
  await s.executeNonQueryStatement(`CREATE DATABASE ${db}`);
  await s.insertTablet({ deviceId: `${db}.d0`, measurements: ['v'], dataTypes: ['INT32'], timestamps: [1], values: [[1]] });
  for (const t of [
    { deviceId: `${db}.d0`, measurements: ['v'], dataTypes: ['TEXT'], timestamps: [2], values: [['x']] },
    { deviceId: `${db}.d0`, measurements: ['v'], dataTypes: ['BOOLEAN'], timestamps: [2], values: [[true]] },
    { deviceId: `root.x.**`, measurements: ['v'], dataTypes: ['INT32'], timestamps: [2], values: [[1]] },
    { deviceId: `${db}.**`, measurements: ['v'], dataTypes: ['INT32'], timestamps: [2], values: [[1]] },
    { deviceId: `root.nodb_zz.d`, measurements: ['v'], dataTypes: ['INT32'], timestamps: [2], values: [[1]] },
    { deviceId: `${db}.d1`, measurements: ['time'], dataTypes: ['INT32'], timestamps: [2], values: [[1]] },
  ] as any[]) {
    try { await s.insertTablet(t); console.log('OK', t.deviceId, t.dataTypes); } catch (e: any) { console.log('ERR', t.deviceId, t.dataTypes, e.constructor.name, e.code, e.message); }
  }
  const ds = await s.executeQueryStatement(`select v from ${db}.d0`);
  for await (const r of ds) console.log('row', r.timestamp, r.values);
  const p = new SessionPool({ maxSize: 2 });
  try { await p.insertTablet({ measurements: ['v'] } as any); } catch (e: any) { console.log('pool missing deviceId', e.constructor.name, e.message); }
  try { p.insertTablet(null as any).catch(() => {}); console.log('no sync throw'); } catch (e: any) { console.log('SYNC THROW', e.constructor.name, e.message); }
  try { await s.insertTablet({ measurements: ['v'] } as any); } catch (e: any) { console.log('session missing deviceId', e.constructor.name, e.message); }
  await p.close();
  await s.executeNonQueryStatement(`DELETE DATABASE ${db}`);
  await s.executeNonQueryStatement(`DELETE DATABASE root.nodb_zz`).catch((e) => console.log(e.message));
  await s.close();
});
