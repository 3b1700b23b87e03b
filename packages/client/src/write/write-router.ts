import type { ByteWriter, TSStatus } from '@iotdb/fast-serializer';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import type { TraceContext } from '../diagnostics/channels.js';
import { IoTDBConnectionError } from '../errors.js';
import { withAttemptsNote } from '../retry/attempts-note.js';
import { decideRetry, type ResolvedRetryOptions } from '../retry/retry-policy.js';
import { sleep } from '../retry/sleep.js';
import { allFailed, mergeStatus, outcomeError, type ItemErrors } from './item-outcome.js';
import type { WritePlan, WriteReport, WriteTargets } from './write-plan.js';

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
  const call: WriteCall<N> = { plan, targets, signal, trace: report.trace };
  const final: ItemErrors = new Map();
  let pending = Array.from({ length: plan.count }, (_, k) => k);
  let attempt = 1;
  for (; pending.length > 0; attempt++) {
    const errors = await sendOnce(call, pending, attempt === 1);
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
  throw withAttemptsNote(error, attempt - 1, performance.now() - started);
}

/** What every round of one write call sends with: the items' plan, the nodes, the caller's signal and trace. */
interface WriteCall<N> {
  readonly plan: WritePlan<N>;
  readonly targets: WriteTargets<N>;
  readonly signal: AbortSignal | undefined;
  readonly trace: TraceContext | null;
}

/** Items going to one node: the node a redirect named, or undefined for the default node. */
interface Group {
  readonly target: Endpoint | undefined;
  readonly ks: number[];
}

/** One round: every pending item `ks` sent once. Returns the items that failed, with why. */
async function sendOnce<N>(call: WriteCall<N>, ks: number[], first: boolean): Promise<ItemErrors> {
  const { plan, targets } = call;
  // no redirect known (one node, redirection off, the first write): one group, and no device key per item
  if (!targets.routing()) return sendGroup(call, { target: undefined, ks });
  if (ks.length === 1) return sendGroup(call, { target: targets.route(plan.deviceOf(ks[0])), ks });
  const groups = new Map<string, Group>();
  const home = targets.defaultKey();
  // the routes of a node's devices are one object (RedirectCache): its key built once, not once an item
  const keys = new Map<Endpoint | undefined, string>([[undefined, '']]);
  for (const k of ks) {
    let target = targets.route(plan.deviceOf(k));
    let key = keys.get(target);
    if (key === undefined) keys.set(target, (key = endpointKey(target!)));
    // the default node's own devices (a failover made it theirs) go in its request with those of no route
    if (key === home) [target, key] = [undefined, ''];
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { target, ks: [] }));
    g.ks.push(k);
  }
  // later rounds resend items whose cells were encoded once already
  if (first && groups.size > 1 && plan.encode !== undefined) {
    return sendEncoded(call, plan.encode, [...groups.values()]);
  }
  const results = await Promise.all([...groups.values()].map((g) => sendGroup(call, g)));
  return results.length === 1 ? results[0] : new Map(results.flatMap((r) => [...r]));
}

/**
 * Items split over nodes: every group's request encoded (by `encode`, the plan's) before any node is reached (a
 * refused cell throws with nothing sent, no node reached), then each group sent as encoded as soon as its own node
 * is reached.
 */
async function sendEncoded<N>(
  call: WriteCall<N>,
  encode: NonNullable<WritePlan<N>['encode']>,
  groups: readonly Group[],
): Promise<ItemErrors> {
  const { trace } = call;
  const started = trace === null ? 0 : performance.now();
  const encoded: ByteWriter[] = [];
  try {
    for (const g of groups) encoded.push(encode(g.ks));
  } catch (e) {
    for (const w of encoded) w.release();
    throw e;
  }
  if (trace !== null) trace.serializeMs += performance.now() - started;
  const results = await Promise.all(
    groups.map(async (g, i) => {
      try {
        return await sendGroup(call, g, encoded[i]);
      } finally {
        encoded[i].release(); // given back once copied into its request (withSessionId); here if it never was
      }
    }),
  );
  return new Map(results.flatMap((r) => [...r]));
}

/**
 * A group's items to its node, and which of them failed: `encoded`, their request encoded ahead, if any.
 */
async function sendGroup<N>(call: WriteCall<N>, group: Group, encoded?: ByteWriter): Promise<ItemErrors> {
  const { plan, targets, trace } = call;
  const { target, ks } = group;
  let node: N;
  try {
    node = await targets.node(target, call.signal);
  } catch (e) {
    if (target !== undefined && e instanceof IoTDBConnectionError) targets.unreachable(target);
    return allFailed(ks, e);
  }
  const send = () => plan.send(node, ks, encoded);
  let status: TSStatus;
  try {
    status = await (trace === null ? send() : targets.traced(node, trace, send));
  } catch (e) {
    if (e instanceof IoTDBConnectionError) targets.failed(node);
    return allFailed(ks, e);
  }
  targets.answered(node);
  return mergeStatus(plan, targets, node, ks, status);
}
