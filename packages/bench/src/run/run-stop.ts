import type { InterruptSignal, StopReason } from '../types.js';

/** A progress line's `timeLeftS`: what --test-max-time leaves of a timed phase `elapsedS` in (nothing without it). */
export function timeLimitLeft(maxTimeMs: number, elapsedS: number): { timeLeftS?: number } {
  return maxTimeMs > 0 ? { timeLeftS: Math.max(0, maxTimeMs / 1000 - elapsedS) } : {};
}

/**
 * What ends a run's timed phase early: the operator's Ctrl-C (`interrupt` aborts), --test-max-time after the
 * phase started, or an operation that reached no node (`unreachable()`). Each calls `stopWork` (for workers,
 * StartBarrier.stop): no operation starts after it, those under way finish. `reason` says which came first;
 * undefined while none did. `signal`: what interrupted it, when the interrupt says (its abort reason: interrupt.ts).
 */
export class RunStop {
  reason: StopReason | undefined;
  signal: InterruptSignal | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #onInterrupt = () => this.#interrupted();

  constructor(
    private readonly stopWork: () => void,
    private readonly maxTimeMs: number,
    private readonly interrupt: AbortSignal,
  ) {
    interrupt.addEventListener('abort', this.#onInterrupt, { once: true });
    if (interrupt.aborted) this.#interrupted(); // Ctrl-C while the run was being prepared
  }

  /** The timed phase starts: --test-max-time counts from now. */
  timedPhaseStarted(): void {
    if (this.maxTimeMs > 0) this.#timer = setTimeout(() => this.#stop('test-max-time'), this.maxTimeMs);
  }

  /** An operation reached no node for its whole retry budget (run-error.ts reachedNoNode): the rest would alike. */
  unreachable(): void {
    this.#stop('unreachable');
  }

  get stopped(): boolean {
    return this.reason !== undefined;
  }

  /** The run is over: no timer or listener outlives it. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.interrupt.removeEventListener('abort', this.#onInterrupt);
  }

  #interrupted(): void {
    if (this.reason !== undefined) return;
    const by: unknown = this.interrupt.reason;
    if (by === 'SIGINT' || by === 'SIGTERM') this.signal = by;
    this.#stop('interrupted');
  }

  #stop(reason: StopReason): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.stopWork();
  }
}
