import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { ServerCpu, processTicks, serverCpuWindow } from './server-cpu.js';

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

describe("serverCpuWindow: the server's CPU over a run's timed window", () => {
  const burn = (ms: number) => {
    const end = Date.now() + ms;
    let x = 0;
    while (Date.now() < end) x += Math.sqrt(x + 1);
    return x;
  };

  it.runIf(process.platform === 'linux')('counts what the processes spent from its start to its end', () => {
    const spent = serverCpuWindow([process.pid]);
    expect(burn(250)).toBeGreaterThan(0);
    const got = spent();
    expect(got).toMatchObject({ pids: [process.pid] });
    expect('seconds' in got && got.seconds).toBeGreaterThan(0.15);
  });

  it.runIf(process.platform === 'linux')(
    'says which process it could not read when one ended in the window (a DataNode stopped), and never throws',
    async () => {
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      await new Promise((resolve) => child.once('spawn', resolve));
      const pid = child.pid!;
      const spent = serverCpuWindow([process.pid, pid]);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect(spent()).toEqual({
        pids: [process.pid, pid],
        error: `process ${pid} was gone at the end (a server node stopped or restarted during the run)`,
      });
    },
  );

  it('says so of a process not there at the start, at its end', () => {
    expect(serverCpuWindow([2 ** 30])()).toEqual({
      pids: [2 ** 30],
      error: `process ${2 ** 30} was gone at the start (a server node stopped or restarted during the run)`,
    });
  });
});
