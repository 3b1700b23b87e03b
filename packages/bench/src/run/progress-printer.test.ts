import { describe, expect, it } from 'vitest';
import { HEARTBEAT_MS, ProgressPrinter, type ProgressOut } from './progress-printer.js';

function out(isTTY: boolean): ProgressOut & { text: string } {
  return {
    isTTY,
    text: '',
    write(t: string) {
      this.text += t;
    },
  };
}

describe('ProgressPrinter', () => {
  it('prints every line: on a terminal in place (a newline at the end), with --progress each on its own', () => {
    for (const [isTTY, progress, printed] of [
      [true, false, '\ra\rb\n'],
      [false, true, 'a\nb\n'],
    ] as const) {
      const o = out(isTTY);
      const p = new ProgressPrinter(progress, o, 0);
      p.print(() => 'a', 1000);
      p.print(() => 'b', 2000);
      p.end();
      expect(o.text).toBe(printed);
    }
  });

  it('without a terminal or --progress prints a line every HEARTBEAT_MS only: none for a short run', () => {
    const log = out(false);
    const p = new ProgressPrinter(false, log, 0);
    let made = 0;
    for (let t = 1000; t < HEARTBEAT_MS; t += 1000) p.print(() => `early ${++made}`, t);
    expect([log.text, made]).toEqual(['', 0]); // not even made
    p.print(() => 'at 30 s', HEARTBEAT_MS);
    p.print(() => 'at 31 s', HEARTBEAT_MS + 1000);
    p.print(() => 'at 60 s', 2 * HEARTBEAT_MS);
    p.end();
    expect(log.text).toBe('at 30 s\nat 60 s\n');
  });

  it('ends a terminal without a newline when it printed nothing', () => {
    const tty = out(true);
    new ProgressPrinter(false, tty, 0).end();
    expect(tty.text).toBe('');
  });
});
