/** Without a terminal and without --progress: one progress line this often, so that a log shows the run is alive. */
export const HEARTBEAT_MS = 30_000;

/** Where the lines go: process.stdout, or a stand-in in tests. */
export interface ProgressOut {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * Where a run's progress lines go. On a terminal every line, rewritten in place; with --progress every line, each on
 * its own; otherwise (a log, a pipe, CI) a line every HEARTBEAT_MS only: a short run prints none, and one that runs
 * long, or hangs on a node that stopped answering, still shows where it is.
 */
export class ProgressPrinter {
  readonly #out: ProgressOut;
  readonly #inPlace: boolean;
  readonly #everyMs: number;
  #lastAt: number;
  #printed = false;

  constructor(progress: boolean, out: ProgressOut = process.stdout, startedAt = performance.now()) {
    this.#out = out;
    this.#inPlace = out.isTTY === true;
    this.#everyMs = progress || this.#inPlace ? 0 : HEARTBEAT_MS;
    this.#lastAt = startedAt;
  }

  /** Prints `line` (made only when it is printed) unless the last one was printed less than the interval ago. */
  print(line: () => string, now = performance.now()): void {
    if (now - this.#lastAt < this.#everyMs) return;
    this.#lastAt = now;
    this.#printed = true;
    this.#out.write(this.#inPlace ? `\r${line()}` : `${line()}\n`);
  }

  /** The run is over: a line rewritten in place gets its newline. */
  end(): void {
    if (this.#inPlace && this.#printed) this.#out.write('\n');
  }
}
