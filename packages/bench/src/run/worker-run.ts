import { IoTDBBatchError } from '@iotdb/client';
import { FAILED_PREFIX, START_LAG, TRACED_PREFIX, UNCORRECTED_PREFIX } from '../latency-rows.js';
import type { ClientActivity, WorkerResult, WorkerTask } from '../types.js';
import { readsOnly, type QueryKind } from '../workload/operations.js';
import { querySensors, type QuerySensor } from '../workload/query-sql.js';
import type { RowsRead } from './read-pass.js';
import { StartBarrier } from './barrier.js';
import { clientOperations, warmupOperations, type ClientWrite } from './client-operations.js';
import type { Clock } from './clock.js';
import { clientDevices, deviceGroups, groupSize, operationShare } from './device-shares.js';
import { IntervalLatency } from './interval-latency.js';
import { liveSlot } from './live-counters.js';
import { OperationStats } from './operation-stats.js';
import { NextDueTimes, OpenLoopSchedule, PauseBetween, PointRateLimit, latencies, turn } from './pacing.js';
import { describeError, keepErrors, reachedNoNode, RunError, warmupQueryError } from './run-error.js';
import type { Send } from './write-ops.js';

/** What a worker's clients do their operations with: the real pools, or a test's stand-ins. */
export interface Backend {
  /** One client's write of a group of devices for a round (-1: the 1-row schema warm-up), through `send`. */
  writer(groupSize: number, send: Send): (devices: number[], round: number) => Promise<void>;
  /** --method writer: one client's rounds, row by row, through `send`. */
  rowWriter(devices: number[], send: Send): { round(round: number): Promise<void>; close(): Promise<void> };
  /** Runs a query (`sql`, of type `kind`) and reads its rows to the end, every value; its rows and sensor values. */
  query(sql: string, kind: QueryKind): Promise<RowsRead>;
  /** What the client did besides the operations so far: retries, connects, failovers, redirects. */
  activity(): ClientActivity;
}

/**
 * One worker's run: `clients` clients over its share of the devices. Per client: the untimed 1-row schema
 * warm-up per device, `warmupRounds` rounds, the start barrier with the other workers, then loop x (its
 * device groups) timed operations, each a write (the next group of the next round) or a query as drawn by
 * operationProportion. Progress goes to the shared counters; latency to one histogram per operation.
 */
export class WorkerRun {
  readonly #c: WorkerTask['config'];
  readonly #stats = new OperationStats();
  readonly #overTime: IntervalLatency;
  readonly #counters: BigInt64Array;
  readonly #barrier: StartBarrier;
  readonly #rateLimit: PointRateLimit;
  /** the run was stopped (Ctrl-C, --test-max-time) or a worker failed: waits for a turn end early */
  readonly #ended = (): boolean => this.#barrier.ended;
  readonly #sensors: QuerySensor[];
  readonly #errors: string[] = [];
  /** rows and non-null values read per query type, timed phase */
  readonly #rowsRead: Record<string, number> = {};
  readonly #pointsRead: Record<string, number> = {};
  readonly #nextDue = new NextDueTimes();
  #points = 0;
  #writtenPoints = 0;
  /** per client with devices: the rounds its every device was written in so far */
  readonly #fullRounds = new Map<number, number>();
  #okOps = 0;
  #failedOps = 0;

  constructor(
    private readonly task: WorkerTask,
    private readonly backend: Backend,
    private readonly clock: Clock,
  ) {
    this.#c = task.config;
    this.#counters = new BigInt64Array(task.counters);
    this.#barrier = new StartBarrier(task.barrier, this.#c.workers, this.#c.clients, clock);
    // each worker at its devices' share of the points/s (the workers' shares differ by a device when uneven)
    this.#rateLimit = new PointRateLimit(
      clock,
      (this.#c.rateLimit * task.deviceCount) / this.#c.deviceCount,
      this.#ended,
    );
    this.#sensors = querySensors(this.#c);
    this.#overTime = new IntervalLatency(this.#c.reportIntervalMs);
  }

  /** Records traced durations (`--trace`: a write's phases, a query's) while timed. */
  traced(latencies: readonly [kind: string, ms: number][]): void {
    if (!this.#barrier.timed) return;
    for (const [kind, ms] of latencies) this.#stats.record(TRACED_PREFIX + kind, ms * 1e6);
  }

  async run(): Promise<WorkerResult> {
    const { workerId } = this.task;
    try {
      const clients = Array.from({ length: this.#c.clients }, (_, k) =>
        this.#client(k).finally(() => this.#nextDueIs(this.#clientId(k), undefined)),
      );
      await Promise.all(clients);
      this.publishActivity();
      return {
        state: 'done',
        workerId,
        points: this.#points,
        writtenPoints: this.#writtenPoints,
        fullRounds: Math.min(...this.#fullRounds.values(), this.#c.warmupRounds + this.#c.loop),
        okOps: this.#okOps,
        failedOps: this.#failedOps,
        latency: this.#stats.histograms(),
        slowestClientNs: this.#stats.slowestClientNs(),
        ...this.#overTime.tally(),
        rowsRead: this.#rowsRead,
        pointsRead: this.#pointsRead,
        errors: this.#errors,
        client: this.backend.activity(),
        timedStartMs: this.#barrier.timedStartMs,
        timedEndMs: this.clock.now() / 1e6,
      };
    } catch (e) {
      this.#barrier.abort();
      return { state: 'failed', workerId, error: describeError(e) };
    }
  }

  /** Client `k` of this worker's id, unique over all workers. */
  #clientId(k: number): number {
    return this.task.workerId * this.#c.clients + k;
  }

  async #client(k: number): Promise<void> {
    const c = this.#c;
    const id = this.#clientId(k);
    const mine = clientDevices(c, { first: this.task.firstDevice, count: this.task.deviceCount }, k);
    const groups = deviceGroups(c, mine);
    // its timed operations (clientOperations'); --method writer's rows are not counted, its flush says it is last
    const send = this.#sender(id, c.method === 'writer' ? undefined : c.loop * groups.length);
    const write = this.backend.writer(Math.min(groupSize(c), Math.max(1, mine.length)), send);
    // queries only: nothing written (rows written again would land beside the stored ones and change what the
    // queries read); they range over the rows an earlier write run with these knobs stored
    if (!readsOnly(c.operationProportion)) for (const d of mine) await write([d], -1); // schema warm-up row, untimed
    if (mine.length > 0) this.#fullRounds.set(k, 0);
    if (c.method === 'writer') return this.#rowWriterClient(k, mine, send);
    for (const o of warmupOperations(c, groups, this.#sensors)) {
      if (this.#barrier.ended) break;
      if (o.op !== 'INGESTION') await this.#warmupQuery(o.op, o.sql);
      else await this.#write(k, write, o);
    }
    await this.#barrier.arrive();
    for (const o of clientOperations(c, groups, this.#sensors)) {
      if (this.#barrier.ended) break;
      if (o.op !== 'INGESTION') await this.#query(send, o.op, o.sql);
      else await this.#write(k, write, o);
    }
  }

  /** Client `k`'s write of a group's round; the round done once every group of the client has it. */
  async #write(k: number, write: ReturnType<Backend['writer']>, o: ClientWrite): Promise<void> {
    await write(o.devices, o.round);
    if (o.completesRound) this.#roundDone(k, o.round);
  }

  /**
   * Client `k` has written `round` to every one of its devices (whether the server took every write or not); not
   * counted once the run is stopped: a write waiting for its turn then returns without writing.
   */
  #roundDone(k: number, round: number): void {
    if (!this.#barrier.ended) this.#fullRounds.set(k, round + 1);
  }

  /** --method writer: every round row by row through one batching writer per client. */
  async #rowWriterClient(k: number, mine: number[], send: Send): Promise<void> {
    const c = this.#c;
    const w = this.backend.rowWriter(mine, send);
    for (let round = 0; round < c.warmupRounds && !this.#barrier.ended; round++) {
      await w.round(round);
      this.#roundDone(k, round);
    }
    await this.#barrier.arrive();
    for (let round = c.warmupRounds; round < c.warmupRounds + c.loop && !this.#barrier.ended; round++) {
      await w.round(round);
      this.#roundDone(k, round);
    }
    await w.close();
  }

  /**
   * A query of the untimed warm-up, read to the end. One that fails is kept among the run's errors, named as the
   * warm-up's, and the warm-up goes on: the timed queries of its type count their own failures (a write of the
   * warm-up that fails ends the run, as the timed operations build on what it stores; nothing builds on a query).
   */
  async #warmupQuery(kind: QueryKind, sql: string): Promise<void> {
    try {
      await this.backend.query(sql, kind);
    } catch (e) {
      keepErrors(this.#errors, `${warmupQueryError(kind)}: ${(e as Error).message}`);
    }
  }

  #query(send: Send, kind: QueryKind, sql: string): Promise<void> {
    return send(kind, 0, async () => {
      const { rows, points } = await this.backend.query(sql, kind);
      if (this.#barrier.timed) {
        this.#rowsRead[kind] = (this.#rowsRead[kind] ?? 0) + rows;
        this.#pointsRead[kind] = (this.#pointsRead[kind] ?? 0) + points;
      }
      return 0;
    });
  }

  /**
   * The Send of client `id`, which has `timedOps` timed operations (undefined: not counted): paced (rate limit or
   * open-loop schedule), timed, counted; never throws in the timed phase (a failed write of the warm-up ends the run).
   */
  #sender(id: number, timedOps: number | undefined): Send {
    const c = this.#c;
    const clients = c.workers * c.clients;
    // each client at its share of the target rate (--method writer: an operation is one row of each of the
    // client's devices, loop x batchSize of them for every client: an equal share)
    const share = c.method === 'writer' ? 1 / clients : operationShare(c, id);
    const intervalNs = c.targetRate > 0 && share > 0 ? 1e9 / (share * c.targetRate) : 0;
    let schedule: OpenLoopSchedule | undefined;
    let scheduled = 0; // operations started on the schedule
    const pause = new PauseBetween(this.clock, c.batchIntervalMs, this.#ended); // between timed operations
    return async (kind, pts, fn, opts) => {
      if (intervalNs > 0 && this.#barrier.timed)
        // the clients' schedules are staggered so that operations arrive evenly
        schedule ??= new OpenLoopSchedule(
          this.clock,
          intervalNs,
          this.clock.now() + (intervalNs * id) / clients,
          this.#ended,
        );
      // the untimed warm-up runs unpaced by the rate limit, as by the open loop
      const due = await turn({ schedule, rateLimit: this.#barrier.timed ? this.#rateLimit : undefined, pause }, pts);
      // the last one has no operation due behind it
      if (schedule !== undefined)
        this.#nextDueIs(id, ++scheduled === timedOps || opts?.last === true ? undefined : schedule.nextDue);
      if (this.#barrier.ended && opts?.evenWhenStopped !== true) return; // stopped before its turn came
      const t0 = this.clock.now();
      const { ok, error } = await this.#attempt(pts, fn);
      const end = this.clock.now();
      const failed = error !== undefined;
      this.#writtenPoints += ok;
      // the warm-up writes the schema and the rows the timed operations build on: a write that failed there (its
      // retries spent) ends the run at once, rather than each of the others spending theirs, unseen, before timing
      if (failed && !this.#barrier.timed)
        throw new RunError(`a write of the untimed warm-up failed: ${describeError(error)}`);
      if (failed && reachedNoNode(error, c.retryMaxMs)) this.#barrier.unreachable();
      if (this.#barrier.timed) {
        const { latencyNs, uncorrectedNs } = latencies(due, t0, end);
        // a failure's latency (often an instant error, or a timeout) stays out of the operation's own row
        this.#stats.record(failed ? FAILED_PREFIX + kind : kind, latencyNs, id, end - t0);
        if (uncorrectedNs !== undefined && !failed) this.#stats.record(UNCORRECTED_PREFIX + kind, uncorrectedNs, id);
        const sinceStartMs = end / 1e6 - this.#barrier.timedStartMs;
        if (failed) this.#overTime.fail(sinceStartMs);
        else this.#overTime.record(latencyNs, sinceStartMs);
        // 0 for an operation let start early by the end of the run
        if (due !== undefined) this.#stats.record(START_LAG, Math.max(0, t0 - due));
        this.#count(ok, failed);
        pause.done(end);
      }
    };
  }

  async #attempt(pts: number, fn: () => number | Promise<number>): Promise<{ ok: number; error?: unknown }> {
    try {
      return { ok: await fn() };
    } catch (e) {
      keepErrors(this.#errors, (e as Error).message);
      const ok =
        e instanceof IoTDBBatchError
          ? Math.round((pts * e.succeeded.length) / (e.succeeded.length + e.failures.length))
          : 0;
      return { ok, error: e };
    }
  }

  /**
   * Client `id`'s next operation is due `at` (undefined: it has none left): the worker's earliest such due time goes
   * to its live slot, whence the progress line tells how far behind its schedule the run is.
   */
  #nextDueIs(id: number, at: number | undefined): void {
    this.#nextDue.set(id, at);
    const earliest = BigInt(Math.round(this.#nextDue.earliest()));
    Atomics.store(this.#counters, liveSlot(this.task.workerId, 'nextDueNs'), earliest);
  }

  #count(points: number, failed: boolean): void {
    const w = this.task.workerId;
    this.#points += points;
    if (failed) this.#failedOps++;
    else this.#okOps++;
    Atomics.add(this.#counters, liveSlot(w, 'points'), BigInt(points));
    Atomics.add(this.#counters, liveSlot(w, failed ? 'failedOps' : 'okOps'), 1n);
  }

  /** The client's retries so far, for the progress line (called on a timer: a retrying operation ends late). */
  publishActivity(): void {
    const retries = BigInt(this.backend.activity().retries);
    Atomics.store(this.#counters, liveSlot(this.task.workerId, 'retries'), retries);
  }
}
