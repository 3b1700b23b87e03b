import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { clientDevices, deviceGroups, operationShare, workerShare } from './device-shares.js';

describe('device shares', () => {
  it('give every device of the machine share to exactly one client, and each client its share of the operations', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 30 }),
        fc.constantFrom('insertTablet', 'insertTablets', 'insertRecords'),
        fc.integer({ min: 1, max: 4 }),
        (workers, clients, deviceOffset, deviceCount, method, tabletsPerRequest) => {
          const c = sampleConfig({ workers, clients, deviceOffset, deviceCount, method, tabletsPerRequest });
          const seen: number[] = [];
          const groupsOf: number[] = [];
          for (let w = 0; w < workers; w++) {
            const share = workerShare(c, w);
            for (let k = 0; k < clients; k++) {
              const mine = clientDevices(c, share, k);
              seen.push(...mine);
              groupsOf.push(deviceGroups(c, mine).length);
            }
          }
          expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: deviceCount }, (_, i) => deviceOffset + i));
          const all = groupsOf.reduce((a, b) => a + b, 0);
          groupsOf.forEach((groups, id) => expect(operationShare(c, id)).toBeCloseTo(groups / all, 12));
        },
      ),
    );
  });

  it('are uneven when the devices do not divide: 5 devices, 2 workers x 2 clients, one device a write', () => {
    const c = sampleConfig({ workers: 2, clients: 2, deviceOffset: 0, deviceCount: 5, method: 'insertTablet' });
    // worker 0: devices 0-1, one each; worker 1: devices 2-4, client 0 takes 2 and 4
    expect([0, 1, 2, 3].map((id) => operationShare(c, id))).toEqual([0.2, 0.2, 0.4, 0.2]);
  });

  it('give a client without devices no operations', () => {
    const c = sampleConfig({ workers: 1, clients: 3, deviceOffset: 0, deviceCount: 1, method: 'insertTablet' });
    expect([0, 1, 2].map((id) => operationShare(c, id))).toEqual([1, 0, 0]);
  });
});
