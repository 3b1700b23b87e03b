import { describe, expect, it } from 'vitest';
import { ServerCpu, processTicks } from './server-cpu.js';

describe('ServerCpu: the CPU a process on this machine has used, from /proc', () => {
  it.runIf(process.platform === 'linux')('counts the CPU this process spends (user + system, all threads)', () => {
    const cpu = new ServerCpu([process.pid]);
    const before = cpu.seconds();
    const own0 = process.cpuUsage();
    const end = Date.now() + 300;
    let x = 0;
    while (Date.now() < end) x += Math.sqrt(x + 1);
    const own = process.cpuUsage(own0);
    const spent = cpu.seconds() - before;
    expect(x).toBeGreaterThan(0);
    // within two clock ticks of Node's own count of the same interval
    expect(Math.abs(spent - (own.user + own.system) / 1e6)).toBeLessThan(0.03);
    expect(spent).toBeGreaterThan(0.2);
  });

  it('sums several processes', () => {
    if (process.platform !== 'linux') return;
    const one = new ServerCpu([process.pid]).seconds();
    const two = new ServerCpu([process.pid, process.pid]).seconds();
    expect(two).toBeGreaterThanOrEqual(2 * one - 0.03);
  });

  it('refuses a pid that is not a process here, naming the flag', () => {
    expect(() => new ServerCpu([2 ** 30])).toThrow(/^--server-pid 1073741824: no such process here/);
    expect(() => processTicks(2 ** 30)).toThrow(/no such process here/);
  });
});
