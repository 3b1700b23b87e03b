import { describe, expect, it } from 'vitest';
import type { ProgressPart } from '../report/format.js';
import { HEARTBEAT_MS, ProgressPrinter, type ProgressOut } from './progress-printer.js';

/** A line's parts from its text, two blanks between; those starting `avg ` spare, as format.ts's */
function line(text: string): () => ProgressPart[] {
  return () => text.split('  ').map((part) => (part.startsWith('avg ') ? { text: part, spare: true } : { text: part }));
}

function out(isTTY: boolean, columns?: number): ProgressOut & { text: string } {
  return {
    isTTY,
    columns,
    text: '',
    write(t: string) {
      this.text += t;
    },
  };
}

describe('ProgressPrinter', () => {
  it('prints every line: on a terminal in place (a newline at the end), with --progress each on its own', () => {
    for (const [isTTY, progress, printed] of [
      [true, false, '\ra\x1b[K\rb\x1b[K\n'],
      [false, true, 'a\nb\n'],
    ] as const) {
      const o = out(isTTY);
      const p = new ProgressPrinter(progress, o, 0);
      p.print(line('a'), 1000);
      p.print(line('b'), 2000);
      p.end();
      expect(o.text).toBe(printed);
    }
  });

  it('without a terminal or --progress prints a line every HEARTBEAT_MS only: none for a short run', () => {
    const log = out(false);
    const p = new ProgressPrinter(false, log, 0);
    let made = 0;
    for (let t = 1000; t < HEARTBEAT_MS; t += 1000) p.print(() => line(`early ${++made}`)(), t);
    expect([log.text, made]).toEqual(['', 0]); // not even made
    p.print(line('at 30 s'), HEARTBEAT_MS);
    p.print(line('at 31 s'), HEARTBEAT_MS + 1000);
    p.print(line('at 60 s'), 2 * HEARTBEAT_MS);
    p.end();
    expect(log.text).toBe('at 30 s\nat 60 s\n');
  });

  it('ends a terminal without a newline when it printed nothing', () => {
    const tty = out(true);
    new ProgressPrinter(false, tty, 0).end();
    expect(tty.text).toBe('');
  });

  it('on a terminal erases what a longer line before left, and fits a line to its width, errors and ETA kept', () => {
    // a shorter line leaves no tail of the last ("ETA 9.8s" over "ETA 12.5s" read "ETA 9.8ss"); a wrapped line would
    // leave its first rows behind at every rewrite, as \r goes back to the start of the last row only
    const o = out(true, 80);
    const p = new ProgressPrinter(false, o, 0);
    p.print(line('[1.0s] 10 points  errors 0  ETA 12.5s'), 1000);
    p.print(line('[2.0s] 20 points  errors 0  ETA 9.8s'), 2000);
    // the averages go first, then the parts after the first from the left, until it fits one column less than the terminal
    p.print(
      line('[3.1s] 4,439,000/30,000,000 points (9.5 %)  now 1,501,560 pts/s  avg 1,380,595 pts/s  errors 0  ETA 1.4s'),
      3000,
    );
    p.print(line('[4.1s] 5,000,000/30,000,000 points (9.5 %)  now 1 pts/s  avg 2 pts/s  errors 0  ETA 1.4s'), 4000);
    // no part left to drop: cut
    p.print(line(`[5.1s] ${'x'.repeat(80)}  errors 0`), 5000);
    expect(o.text.split('\r').slice(1)).toEqual([
      '[1.0s] 10 points  errors 0  ETA 12.5s\x1b[K',
      '[2.0s] 20 points  errors 0  ETA 9.8s\x1b[K',
      '[3.1s] 4,439,000/30,000,000 points (9.5 %)  errors 0  ETA 1.4s\x1b[K',
      '[4.1s] 5,000,000/30,000,000 points (9.5 %)  now 1 pts/s  errors 0  ETA 1.4s\x1b[K',
      `[5.1s] ${'x'.repeat(71)}…\x1b[K`,
    ]);
  });

  it('drops the parts its maker marks spare first, whatever they say', () => {
    const o = out(true, 50);
    const p = new ProgressPrinter(false, o, 0);
    const parts = [{ text: '[1.0s] 5 points' }, { text: 'b'.repeat(20) }, { text: 'c'.repeat(20), spare: true }];
    p.print(() => [...parts, { text: 'ETA 1s' }], 1000);
    expect(o.text).toBe(`\r[1.0s] 5 points  ${'b'.repeat(20)}  ETA 1s\x1b[K`);
  });
});
