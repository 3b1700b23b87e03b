import { describe, expect, it } from 'vitest';
import { sampleConfig } from '../report/test-fixture.js';
import { knobWarnings } from './knob-warnings.js';

describe('knobWarnings: a value that runs, but likely not as meant', () => {
  it('says that --test-max-time is milliseconds when it is under a second', () => {
    expect(knobWarnings(sampleConfig({ testMaxTime: 3 }))).toEqual([
      "the timed phase stops after 3 ms: --test-max-time (TEST_MAX_TIME) is milliseconds, as iot-benchmark's; " +
        'for 3 s give 3000',
    ]);
    expect(knobWarnings(sampleConfig({ testMaxTime: 0 }))).toEqual([]); // no limit
    expect(knobWarnings(sampleConfig({ testMaxTime: 1000 }))).toEqual([]);
  });
});
