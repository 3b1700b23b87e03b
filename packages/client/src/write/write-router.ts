import type { ByteWriter, TSStatus } from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import type { TraceContext } from '../diagnostics/channels.js';
import type { Recorder } from '../diagnostics/recorder.js';
import { IoTDBBatchError, IoTDBConnectionError, IoTDBServerError, type BatchFailure } from '../errors.js';
import { StatusCode, isSuccess } from '../protocol/status.js';
import { decideRetry, type ResolvedRetryOptions } from '../retry/retry-policy.js';
import { sleep } from '../retry/sleep.js';

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
   * argument as `encode` made it for this node, sent as it is.
   */
  send(node: N, ks: readonly number[], encoded?: ByteWriter): Promise<TSStatus>;
  /** caller indexes done without a request (a record whose values are all null): reported as succeeded */
  readonly settled?: readonly number[];
  /**
   * Encodes the argument of the request of items `ks` (ascending) for `node` without sending it, errors naming the
   * caller's items; `node` null: only to check their cells (their node could not be reached). The first round of a
   * call that splits its items over nodes encodes every group before it sends any, so that bad input is refused
   * whole and each request is encoded once; without it every request checks as it encodes, before its bytes are
   * written. The router gives the buffer back.
   */
  readonly encode?: (node: N | null, ks: readonly number[]) => ByteWriter;
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
  /** learns redirects from a successful status: `device` for its own redirectNode, `deviceOf(i)` for sub-status i */
  learn(status: TSStatus, device: string | null, deviceOf: (i: number) => string | null): void;
  /** runs `send`, counting the request it starts on `node` into `trace` (only while the channels are subscribed) */
  traced(node: N, trace: TraceContext, send: () => Promise<TSStatus>): Promise<TSStatus>;
}

/** Who hears of one write: the session's recorder (stats, retries logged) and, when traced, its trace. */
export interface WriteReport {
  readonly recorder: Recorder;
  readonly trace: TraceContext | null;
}

type ItemErrors = Map<number, Error>;

/**
 * The write path shared by Session and TableSession: groups the items by the node that leads their
 * device, sends the groups in parallel, merges each reply's statuses back onto the caller's items,
 * and sends the items that failed for a transient reason again (to whichever node is available then)
 * as the retry policy decides. Resolves when every item was acknowledged. Otherwise throws: the
 * item's error for a single-item call or when one error failed the whole call, else an
 * IoTDBBatchError that lists every failed item by its caller index, with its device and status code;
 * an item it does not list was acknowledged.
 */
export async function routeWrite<N>(
  plan: WritePlan<N>,
  targets: WriteTargets<N>,
  retry: ResolvedRetryOptions,
  signal: AbortSignal | undefined,
  report: WriteReport,
): Promise<void> {
  const started = performance.now();
  const final: ItemErrors = new Map();
  let pending = Array.from({ length: plan.count }, (_, k) => k);
  let attempt = 1;
  for (; pending.length > 0; attempt++) {
    const errors = await sendOnce(plan, targets, pending, signal, report.trace, attempt === 1);
    pending = [];
    let delayMs = 0;
    let retried: unknown;
    for (const [k, error] of errors) {
      const d = decideRetry(
        retry,
        { kind: 'write', error, attempt, elapsedMs: performance.now() - started },
        Math.random(),
      );
      if (d.retry) {
        pending.push(k);
        delayMs = Math.max(delayMs, d.delayMs);
        retried ??= error;
      } else {
        final.set(k, error);
      }
    }
    if (pending.length > 0) {
      report.recorder.retrying(plan.what, attempt, delayMs, retried);
      if (report.trace !== null) report.trace.attempts = attempt + 1;
      await sleep(delayMs, signal);
    }
    pending.sort((a, b) => a - b);
  }
  if (final.size === 0) return;
  const error = outcomeError(plan, final);
  if (attempt > 2) report.recorder.gaveUp(plan.what, attempt - 1, error);
  throw error;
}

/** One round: every pending item sent once. Returns the items that failed, with why. */
async function sendOnce<N>(
  plan: WritePlan<N>,
  targets: WriteTargets<N>,
  ks: readonly number[],
  signal: AbortSignal | undefined,
  trace: TraceContext | null,
  first: boolean,
): Promise<ItemErrors> {
  // no redirect known (one node, redirection off, the first write): one group, and no device key per item
  if (!targets.routing()) return sendGroup(plan, targets, undefined, ks, signal, trace);
  if (ks.length === 1) return sendGroup(plan, targets, targets.route(plan.deviceOf(ks[0])), ks, signal, trace);
  const groups = new Map<string, { target: Endpoint | undefined; ks: number[] }>();
  const home = targets.defaultKey();
  for (const k of ks) {
    let target = targets.route(plan.deviceOf(k));
    let key = target === undefined ? '' : endpointKey(target);
    // the default node's own devices (a failover made it theirs) go in its request with those of no route
    if (key === home) [target, key] = [undefined, ''];
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { target, ks: [] }));
    g.ks.push(k);
  }
  // later rounds resend items whose cells were encoded once already
  if (first && groups.size > 1 && plan.encode !== undefined) {
    return sendEncoded(plan, plan.encode, targets, [...groups.values()], signal, trace);
  }
  const results = await Promise.all(
    [...groups.values()].map((g) => sendGroup(plan, targets, g.target, g.ks, signal, trace)),
  );
  return results.length === 1 ? results[0] : new Map(results.flatMap((r) => [...r]));
}

/** A group's node, or why it could not be reached (its items failed with that). */
type Reached<N> = { readonly node: N } | { readonly failed: ItemErrors };

/**
 * Items split over nodes: every group's request encoded for its node before any is sent (a refused cell throws
 * with nothing sent), then each sent as encoded.
 */
async function sendEncoded<N>(
  plan: WritePlan<N>,
  encode: NonNullable<WritePlan<N>['encode']>,
  targets: WriteTargets<N>,
  groups: readonly { target: Endpoint | undefined; ks: number[] }[],
  signal: AbortSignal | undefined,
  trace: TraceContext | null,
): Promise<ItemErrors> {
  const reached = await Promise.all(groups.map((g) => reach(targets, g.target, g.ks, signal)));
  const started = trace === null ? 0 : performance.now();
  const encoded: ByteWriter[] = [];
  try {
    groups.forEach((g, i) => encoded.push(encode(nodeOf(reached[i]), g.ks)));
  } catch (e) {
    for (const w of encoded) w.release();
    throw e;
  }
  if (trace !== null) trace.serializeMs += performance.now() - started;
  const results = await Promise.all(
    groups.map(async (g, i) => {
      const r = reached[i];
      try {
        if ('failed' in r) return r.failed;
        return await sendTo(plan, targets, r.node, g.ks, () => plan.send(r.node, g.ks, encoded[i]), trace);
      } finally {
        encoded[i].release(); // once the call is over: its bytes were copied into the request (or never will be)
      }
    }),
  );
  return new Map(results.flatMap((r) => [...r]));
}

const nodeOf = <N>(r: Reached<N>): N | null => ('node' in r ? r.node : null);

async function sendGroup<N>(
  plan: WritePlan<N>,
  targets: WriteTargets<N>,
  target: Endpoint | undefined,
  ks: readonly number[],
  signal: AbortSignal | undefined,
  trace: TraceContext | null,
): Promise<ItemErrors> {
  const r = await reach(targets, target, ks, signal);
  if ('failed' in r) return r.failed;
  return sendTo(plan, targets, r.node, ks, () => plan.send(r.node, ks), trace);
}

async function reach<N>(
  targets: WriteTargets<N>,
  target: Endpoint | undefined,
  ks: readonly number[],
  signal: AbortSignal | undefined,
): Promise<Reached<N>> {
  try {
    return { node: await targets.node(target, signal) };
  } catch (e) {
    if (target !== undefined && e instanceof IoTDBConnectionError) targets.unreachable(target);
    return { failed: allFailed(ks, e) };
  }
}

/** Sends items `ks` to `node` by `send`, and says which of them failed. */
async function sendTo<N>(
  plan: WritePlan<N>,
  targets: WriteTargets<N>,
  node: N,
  ks: readonly number[],
  send: () => Promise<TSStatus>,
  trace: TraceContext | null,
): Promise<ItemErrors> {
  let status: TSStatus;
  try {
    status = await (trace === null ? send() : targets.traced(node, trace, send));
  } catch (e) {
    if (e instanceof IoTDBConnectionError) targets.failed(node);
    return allFailed(ks, e);
  }
  targets.answered(node);
  return mergeStatus(plan, targets, ks, status);
}

/** A reply's status, spread over the items it answers. */
function mergeStatus<N>(
  plan: WritePlan<N>,
  targets: WriteTargets<N>,
  ks: readonly number[],
  status: TSStatus,
): ItemErrors {
  const errors: ItemErrors = new Map();
  if (isSuccess(status.code)) {
    targets.learn(status, ks.length === 1 ? plan.deviceOf(ks[0]) : null, (i) =>
      i < ks.length ? plan.deviceOf(ks[i]) : null,
    );
    return errors;
  }
  const subs = status.subStatus;
  if (status.code === StatusCode.MULTIPLE_ERROR && subs !== undefined && subs.length === ks.length) {
    ks.forEach((k, i) => {
      const sub = subs[i];
      if (!isSuccess(sub.code)) errors.set(k, new IoTDBServerError(sub, `${plan.what} ${plan.labelOf(k)}`));
    });
    return errors;
  }
  return allFailed(ks, new IoTDBServerError(status, statusLabel(plan, ks)));
}

/** What a status answering items `ks` is about: the operation, and their label when they share one. */
function statusLabel<N>(plan: WritePlan<N>, ks: readonly number[]): string {
  const label = plan.labelOf(ks[0]);
  // the caller's items: records sent as their devices' tablets count as the records
  const items = ks.reduce((n, k) => n + plan.indexesOf(k).length, 0);
  if (items === 1) return `${plan.what} ${label}`;
  return ks.every((k) => plan.labelOf(k) === label)
    ? `${plan.what} ${label} (${items} items)`
    : `${plan.what} (${items} items)`;
}

function allFailed(ks: readonly number[], error: unknown): ItemErrors {
  const e = error instanceof Error ? error : new Error(String(error));
  return new Map(ks.map((k) => [k, e]));
}

function outcomeError<N>(plan: WritePlan<N>, final: ItemErrors): Error {
  const distinct = new Set(final.values());
  if (plan.count === 1 || (final.size === plan.count && distinct.size === 1)) return distinct.values().next().value!;
  const failures: BatchFailure[] = [...final].flatMap(([k, error]) =>
    plan.indexesOf(k).map((index) => ({
      index,
      error,
      device: plan.labelOf(k),
      ...(error instanceof IoTDBServerError ? { statusCode: error.statusCode } : {}),
    })),
  );
  failures.sort((a, b) => a.index - b.index);
  const succeeded: number[] = [];
  for (let k = 0; k < plan.count; k++) if (!final.has(k)) succeeded.push(...plan.indexesOf(k));
  succeeded.push(...(plan.settled ?? []));
  succeeded.sort((a, b) => a - b);
  return new IoTDBBatchError(plan.what, failures, succeeded);
}
