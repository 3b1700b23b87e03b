import { LatencyHistogram } from '../report/histogram.js';
import type { HistogramData } from '../types.js';

/**
 * One worker's latency per operation kind, and per kind the time each of its clients spent in it (the
 * slowest client's total is iot-benchmark's SLOWEST_THREAD).
 */
export class OperationStats {
  readonly #latency = new Map<string, LatencyHistogram>();
  /** kind -> client -> total ns */
  readonly #clientTotals = new Map<string, Map<number, number>>();

  /**
   * One operation of latency `ns` by `client` (undefined: not a client's, e.g. a traced sub-operation), which spent
   * `spentNs` in it: in an open loop the latency counts from when it was due, the time spent from its start.
   */
  record(kind: string, ns: number, client?: number, spentNs = ns): void {
    let h = this.#latency.get(kind);
    if (h === undefined) this.#latency.set(kind, (h = new LatencyHistogram()));
    h.record(ns);
    if (client === undefined) return;
    let totals = this.#clientTotals.get(kind);
    if (totals === undefined) this.#clientTotals.set(kind, (totals = new Map<number, number>()));
    totals.set(client, (totals.get(client) ?? 0) + spentNs);
  }

  histograms(): Record<string, HistogramData> {
    return Object.fromEntries([...this.#latency].map(([kind, h]) => [kind, h.toData()]));
  }

  /** Per kind, the largest total of one client, ns. */
  slowestClientNs(): Record<string, number> {
    return Object.fromEntries([...this.#clientTotals].map(([kind, totals]) => [kind, Math.max(...totals.values())]));
  }
}

/** Several workers' or machines' slowest-client times as one: the largest per kind. */
export function slowestOf(sources: readonly Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const source of sources) for (const [kind, t] of Object.entries(source)) out[kind] = Math.max(out[kind] ?? 0, t);
  return out;
}
