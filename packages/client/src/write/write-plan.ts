import type { ByteWriter, TSStatus } from '@iotdb/fast-serializer';
import type { Endpoint } from '../cluster/endpoint.js';
import type { TraceContext } from '../diagnostics/channels.js';
import type { Recorder } from '../diagnostics/recorder.js';

/**
 * One write call as the router sees it: `count` items (tablets, records or table rows), each with the
 * device it belongs to. Item k is the caller's items `indexesOf(k)` (one, or a device's records sent as its tablet).
 */
export interface WritePlan<N> {
  /** the call, for messages (`insertTablets`) */
  readonly what: string;
  readonly count: number;
  /** routing key of item k: the tree device path, or the table and its TAG values */
  deviceOf(k: number): string;
  /** what errors name item k by: its device or table */
  labelOf(k: number): string;
  /**
   * the caller's indexes of item k: one (table rows are sorted by time before they are split), or several when
   * it carries several (records sent as their device's tablet); read only when something failed
   */
  indexesOf(k: number): readonly number[];
  /**
   * Sends items `ks` (ascending) to one node; sub-status i of the reply is about ks[i]. `encoded`: their request's
   * argument as `encode` made it, sent as it is with the node's session id.
   */
  send(node: N, ks: readonly number[], encoded?: ByteWriter): Promise<TSStatus>;
  /** caller indexes done without a request (a record whose values are all null): reported as succeeded */
  readonly settled?: readonly number[];
  /**
   * Encodes the argument of the request of items `ks` (ascending) without sending it (with session id 0: `send`
   * puts its node's in), errors naming the caller's items. The first round of a call that splits its items over
   * nodes encodes every group before it reaches any node, so that bad input is refused whole with nothing sent and
   * each request is encoded once; without it every request checks as it encodes, before its bytes are written.
   * The buffer goes back to its pool once sent (or by the router, when it is not).
   */
  readonly encode?: (ks: readonly number[]) => ByteWriter;
}

/** Where writes go: the session's nodes and what it knows of them. */
export interface WriteTargets<N> {
  /** whether any redirect is known: without one every item goes to the default node, no key needed */
  routing(): boolean;
  /** the node a redirect named for this device, if any and available */
  route(device: string): Endpoint | undefined;
  /** 'host:port' of the default node, if any: the items routed there go with those of no route */
  defaultKey(): string | undefined;
  /** the session on `target`, or on the default node (with failover) for undefined */
  node(target: Endpoint | undefined, signal: AbortSignal | undefined): Promise<N>;
  /** `target` could not be reached (`node` rejected with a connection error) */
  unreachable(target: Endpoint): void;
  /** a call on `node` failed for a connection reason */
  failed(node: N): void;
  /** `node` answered: whatever failed there before is over */
  answered(node: N): void;
  /** learns from `node`'s successful status about `count` items: `deviceOf(i)` is item i's, which sub-status i answers */
  learn(node: N, status: TSStatus, deviceOf: (i: number) => string, count: number): void;
  /** runs `send`, counting the request it starts on `node` into `trace` (only while the channels are subscribed) */
  traced(node: N, trace: TraceContext, send: () => Promise<TSStatus>): Promise<TSStatus>;
}

/** Who hears of one write: the session's recorder (stats, retries logged) and, when traced, its trace. */
export interface WriteReport {
  readonly recorder: Recorder;
  readonly trace: TraceContext | null;
}
