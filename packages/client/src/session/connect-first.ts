import type { Endpoint } from '../cluster/endpoint.js';
import { IoTDBConnectionError, IoTDBProtocolError } from '../errors.js';

/**
 * How long a node's connect and login may take before the next node is tried beside it. A working node answers in
 * milliseconds; one whose packets are dropped would hold a sequential failover for the whole connect timeout.
 */
export const CONNECT_STAGGER_MS = 1_000;

export interface RaceOptions<T> {
  readonly staggerMs: number;
  /** ends every attempt (the session's close) */
  readonly signal: AbortSignal;
  /** `e` could not be reached or did not speak IoTDB's protocol (not: given up on) */
  readonly failed: (e: Endpoint, error: IoTDBConnectionError | IoTDBProtocolError) => void;
  /** an attempt that succeeded after another had won: to be closed */
  readonly discard: (value: T) => void;
}

/**
 * The first of `nodes` that `open` reaches. They are tried in order, the next as soon as the previous failed or
 * `staggerMs` after it started while it has not settled (as clients race a host's addresses, RFC 8305), so that a
 * node that does not answer costs `staggerMs`, not a connect timeout, and a working first node keeps its place.
 * Once one opens, the others are given up on (aborted; closed if they open all the same). A node that cannot be
 * reached or does not speak IoTDB's protocol (another service at that port) is passed over; any other failure (the
 * server refusing the login: the next node would say the same; the session closing) ends the race with that error.
 * When every node failed, rejects with the last failure.
 */
export function connectFirst<T>(
  nodes: readonly Endpoint[],
  open: (e: Endpoint, signal: AbortSignal) => Promise<T>,
  o: RaceOptions<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const race = new AbortController();
    const signal = AbortSignal.any([race.signal, o.signal]);
    let next = 0;
    let running = 0;
    let done = false;
    let last: unknown = new Error('no node to connect to');
    let timer: NodeJS.Timeout | undefined;
    const end = () => {
      done = true;
      clearTimeout(timer);
      race.abort(); // the others: given up on
    };
    const win = (value: T) => (end(), resolve(value));
    const lose = (error: unknown) => (end(), reject(error));
    const start = (): void => {
      clearTimeout(timer);
      if (done) return;
      if (next >= nodes.length) {
        if (running === 0) lose(last);
        return;
      }
      const e = nodes[next++];
      running++;
      open(e, signal).then(
        (value) => {
          running--;
          if (done) o.discard(value);
          else win(value);
        },
        (error: unknown) => {
          running--;
          if (done) return;
          if (!(error instanceof IoTDBConnectionError || error instanceof IoTDBProtocolError)) return lose(error);
          o.failed(e, error);
          last = error;
          start();
        },
      );
      if (next < nodes.length) timer = setTimeout(start, o.staggerMs);
    };
    start();
  });
}
