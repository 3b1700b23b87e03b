import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunStop } from './run-stop.js';

describe('RunStop', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A RunStop with --test-max-time `maxTimeMs`, the work it stops, and the Ctrl-C it listens to. */
  const made = (maxTimeMs: number) => {
    const interrupt = new AbortController();
    const stopWork = vi.fn();
    return { interrupt, stopWork, stop: new RunStop(stopWork, maxTimeMs, interrupt.signal) };
  };

  it('stops the work on Ctrl-C, once, whatever comes after', () => {
    const { interrupt, stopWork, stop } = made(1000);
    stop.timedPhaseStarted();
    interrupt.abort();
    vi.advanceTimersByTime(5000);
    expect(stopWork).toHaveBeenCalledTimes(1);
    expect(stop.reason).toBe('interrupted');
  });

  it('keeps the signal that interrupted it, as the interrupt gives it (none from an interrupt without one)', () => {
    const term = made(0);
    term.interrupt.abort('SIGTERM');
    expect([term.stop.reason, term.stop.signal]).toEqual(['interrupted', 'SIGTERM']);
    const plain = made(0);
    plain.interrupt.abort();
    expect([plain.stop.reason, plain.stop.signal]).toEqual(['interrupted', undefined]);
    const timed = made(1000);
    timed.stop.timedPhaseStarted();
    vi.advanceTimersByTime(1000);
    timed.interrupt.abort('SIGINT'); // after the time limit stopped it: not interrupted
    expect([timed.stop.reason, timed.stop.signal]).toEqual(['test-max-time', undefined]);
  });

  it('stops the work when an operation reached no node, and keeps that reason over a later Ctrl-C', () => {
    const { interrupt, stopWork, stop } = made(0);
    stop.unreachable();
    interrupt.abort();
    expect([stopWork.mock.calls.length, stop.reason]).toEqual([1, 'unreachable']);
  });

  it('stops the work --test-max-time after the timed phase started, not after it was made', () => {
    const { stopWork, stop } = made(1000);
    vi.advanceTimersByTime(5000); // warm-up
    expect(stop.stopped).toBe(false);
    stop.timedPhaseStarted();
    vi.advanceTimersByTime(999);
    expect(stopWork).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect([stopWork.mock.calls.length, stop.reason]).toEqual([1, 'test-max-time']);
  });

  it('without --test-max-time only Ctrl-C stops it; after dispose neither does', () => {
    const { interrupt, stopWork, stop } = made(0);
    stop.timedPhaseStarted();
    vi.advanceTimersByTime(1e9);
    stop.dispose();
    interrupt.abort();
    expect(stopWork).not.toHaveBeenCalled();
    expect(stop.reason).toBeUndefined();
  });

  it('made after Ctrl-C (pressed while the run was prepared): stopped at once', () => {
    const interrupt = new AbortController();
    interrupt.abort();
    const stopWork = vi.fn();
    expect(new RunStop(stopWork, 0, interrupt.signal).reason).toBe('interrupted');
    expect(stopWork).toHaveBeenCalledTimes(1);
  });
});
