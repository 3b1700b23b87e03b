import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import type { ServerCpuSpent } from '../types.js';
import { missingProcess, notIoTDBNodes, serverCpuWindow } from './server-cpu.js';

describe("serverCpuWindow: the server's CPU over a run's timed window", () => {
  /** Spends `ms` of this process's CPU time (not the clock's: on a busy machine a spin gets less than its time). */
  const burn = (ms: number) => {
    const start = process.cpuUsage();
    let x = 0;
    for (let spent = 0; spent < ms * 1000;) {
      for (let i = 0; i < 1000; i++) x += Math.sqrt(x + 1);
      const { user, system } = process.cpuUsage(start);
      spent = user + system;
    }
    return x;
  };

  const seconds = (spent: ServerCpuSpent) => ('seconds' in spent ? spent.seconds : NaN);

  it.runIf(process.platform === 'linux')(
    'counts what the processes spent from its start to its end (user + system, all threads), as Node counts its own',
    () => {
      const spent = serverCpuWindow([process.pid]);
      const own0 = process.cpuUsage();
      expect(burn(300)).toBeGreaterThan(0);
      const own = process.cpuUsage(own0);
      const got = spent();
      expect(got).toMatchObject({ pids: [process.pid] });
      // within two clock ticks of Node's own count of the same interval
      expect(Math.abs(seconds(got) - (own.user + own.system) / 1e6)).toBeLessThan(0.03);
      expect(seconds(got)).toBeGreaterThan(0.2);
    },
  );

  it.runIf(process.platform === 'linux')('sums several processes', () => {
    const spent = serverCpuWindow([process.pid, process.pid]);
    burn(100);
    const one = serverCpuWindow([process.pid]);
    burn(100);
    expect(seconds(spent())).toBeGreaterThanOrEqual(2 * seconds(one()) - 0.03);
  });

  it('names the first pid that is not a process here', () => {
    expect(missingProcess([process.pid, 2 ** 30, 2 ** 30 + 1])).toBe(
      `no process ${2 ** 30} on this machine (the server's processes, read through Linux's /proc)`,
    );
    if (process.platform === 'linux') expect(missingProcess([process.pid])).toBeUndefined();
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

describe('notIoTDBNodes: a pid given for the server that runs no IoTDB node', () => {
  it.runIf(process.platform === 'linux')(
    'names a process whose command line has no IoTDB main class, and passes a node (ConfigNode, DataNode)',
    async () => {
      const node = spawn('bash', ['-c', 'exec -a org.apache.iotdb.db.service.DataNode sleep 30'], { stdio: 'ignore' });
      try {
        await new Promise((resolve) => node.once('spawn', resolve));
        await new Promise((resolve) => setTimeout(resolve, 100)); // past bash's exec
        expect(notIoTDBNodes([node.pid!])).toEqual([]);
        expect(notIoTDBNodes([process.pid, node.pid!])).toEqual([
          `--server-pid ${process.pid}: process ${process.pid} (node) runs no IoTDB node (no org.apache.iotdb class on its command line): its CPU is counted as the server's`,
        ]);
      } finally {
        node.kill('SIGKILL');
      }
    },
  );
});
