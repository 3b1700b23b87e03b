import { progressText, type ProgressPart } from '../report/format.js';

/** Without a terminal and without --progress: one progress line this often, so that a log shows the run is alive. */
export const HEARTBEAT_MS = 30_000;

/** Where the lines go: process.stdout, or a stand-in in tests. */
export interface ProgressOut {
  readonly isTTY?: boolean;
  /** a terminal's width, read at each line (it may be resized) */
  readonly columns?: number;
  write(text: string): unknown;
}

/** Erases from the cursor to the line's end: what a longer line before left there. */
const ERASE_TO_END = '\x1b[K';

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

  /** Prints the line of `parts` (made only when it is printed) unless the last was printed less than the interval ago. */
  print(parts: () => readonly ProgressPart[], now = performance.now()): void {
    if (now - this.#lastAt < this.#everyMs) return;
    this.#lastAt = now;
    this.#printed = true;
    this.#out.write(this.#inPlace ? `\r${this.#fitted(parts())}${ERASE_TO_END}` : `${progressText(parts())}\n`);
  }

  /**
   * The line of `all` fitted to one column less than the terminal's width (one filling the last column wraps on some):
   * a line that wrapped would leave its first rows behind at every rewrite, as \r goes back to the start of the last
   * row only.
   * Parts go until it fits: the spare ones first (the averages: the final report has them), then those after the first
   * (its time and count) from the left, the rates before the errors, the retries and the ETA. The line is ASCII: a
   * character a column.
   */
  #fitted(all: readonly ProgressPart[]): string {
    const width = (this.#out.columns ?? 0) - 1;
    const parts = [...all];
    const tooWide = () => width > 0 && progressText(parts).length > width;
    for (let i = parts.length - 1; i > 0 && tooWide(); i--) if (parts[i].spare === true) parts.splice(i, 1);
    while (parts.length > 1 && tooWide()) parts.splice(1, 1);
    const fitted = progressText(parts);
    return tooWide() ? `${fitted.slice(0, width - 1)}…` : fitted;
  }

  /** The run is over: a line rewritten in place gets its newline. */
  end(): void {
    if (this.#inPlace && this.#printed) this.#out.write('\n');
  }
}
