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

/** What separates the parts of a progress line (format.ts's progressLine): two blanks. */
const PART = '  ';

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
    this.#out.write(this.#inPlace ? `\r${this.#fitted(line())}${ERASE_TO_END}` : `${line()}\n`);
  }

  /**
   * The line fitted to one column less than the terminal's width (one filling the last column wraps on some): a line
   * that wrapped would leave its first rows behind at every rewrite, as \r goes back to the start of the last row only.
   * Parts go until it fits: the averages first (the final report has them), then those after the first (its time and
   * count) from the left, the rates before the errors, the retries and the ETA. The line is ASCII: a character a column.
   */
  #fitted(line: string): string {
    const width = (this.#out.columns ?? 0) - 1;
    if (width <= 0 || line.length <= width) return line;
    const parts = line.split(PART);
    const tooWide = () => parts.join(PART).length > width;
    for (let i = parts.length - 1; i > 0 && tooWide(); i--) if (parts[i].startsWith('avg ')) parts.splice(i, 1);
    while (parts.length > 1 && tooWide()) parts.splice(1, 1);
    const fitted = parts.join(PART);
    return fitted.length > width ? `${fitted.slice(0, width - 1)}…` : fitted;
  }

  /** The run is over: a line rewritten in place gets its newline. */
  end(): void {
    if (this.#inPlace && this.#printed) this.#out.write('\n');
  }
}
