/** Time for the operation loop: the real one, or a test's, in which sleeping moves time forward. */
export interface Clock {
  /** monotonic, ns */
  now(): number;
  sleep(ns: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Number(process.hrtime.bigint()),
  sleep: (ns) => new Promise((resolve) => setTimeout(resolve, ns / 1e6)),
};
