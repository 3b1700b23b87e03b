import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import type { NodeRegistry } from '../cluster/node-registry.js';
import type { RpcConnection } from '../connection/rpc-connection.js';
import type { Recorder } from '../diagnostics/recorder.js';
import { CONNECT_STAGGER_MS, connectFirst } from './connect-first.js';
import { NodeSession, type SessionContext, type TimestampPrecision } from './node-session.js';
import type { ResolvedSessionOptions } from './options.js';

/**
 * The server sessions of one user Session: one on its default node (the first available of
 * `nodeUrls`, failing over to the next when it breaks) and one per node a redirect sent a device's writes
 * or queries to, or queries take turns on.
 * Each is opened on first use and re-opened after its connection broke.
 */
export class NodeSessions {
  readonly #options: ResolvedSessionOptions;
  readonly #registry: NodeRegistry;
  readonly #context: () => SessionContext;
  readonly #lifetime: () => AbortSignal;
  readonly #recorder: Recorder;
  #default: NodeSession | null = null;
  /** the server's time unit, from the last login (kept while reconnecting) */
  #precision: TimestampPrecision | undefined;
  /** 'host:port' of the node the default session was last on: reconnects try it first */
  #defaultAt: string | undefined;
  #connecting: Promise<NodeSession> | null = null;
  readonly #others = new Map<string, Promise<NodeSession>>();
  /** the sessions of #others that opened, by key: what openedAt() hands out without waiting */
  readonly #ready = new Map<string, NodeSession>();
  /** the address a node given by name resolved to (its connection's peer) -> the key its session is kept under */
  readonly #aliases = new Map<string, string>();
  /** sessions closeOthers() left open for a result still read on them: closed once the last such result is */
  readonly #retired = new Set<NodeSession>();

  /** `lifetime`: the owning session's signal, which close() aborts; opens are shared between calls and end with it. */
  constructor(
    options: ResolvedSessionOptions,
    registry: NodeRegistry,
    context: () => SessionContext,
    lifetime: () => AbortSignal,
    recorder: Recorder,
  ) {
    this.#recorder = recorder;
    this.#options = options;
    this.#lifetime = lifetime;
    this.#registry = registry;
    this.#context = context;
  }

  /** The server's time unit as the last login reported it; undefined before the first. */
  get precision(): TimestampPrecision | undefined {
    return this.#precision;
  }

  /** 'host:port' of the default node (also while its connection is broken and not yet re-established). */
  get defaultKey(): string | undefined {
    return this.#default?.key;
  }

  /** The default node's session when its connection works now. */
  get current(): NodeSession | null {
    return this.#default?.isOpen ? this.#default : null;
  }

  /** The working default node session: reconnects (same node first, then the others) when it broke. */
  defaultSession(signal?: AbortSignal): Promise<NodeSession> {
    if (this.#default?.isOpen) return Promise.resolve(this.#default);
    this.#connecting ??= this.#connectDefault(this.#lifetime()).finally(() => (this.#connecting = null));
    return abortable(this.#connecting, signal);
  }

  /** The session on `target` (a node a redirect named), or the default node's when `target` is undefined. */
  sessionAt(target: Endpoint | undefined, signal?: AbortSignal): Promise<NodeSession> {
    if (target === undefined) return this.defaultSession(signal);
    const key = this.#keyOf(endpointKey(target));
    if (this.#isDefault(key)) return Promise.resolve(this.#default!);
    let p = this.#others.get(key);
    if (p === undefined) {
      const opening = NodeSession.open(target, this.#options, this.#context(), this.#recorder, this.#lifetime());
      opening.then(
        (ns) => {
          if (this.#others.get(key) !== opening) return;
          this.#ready.set(key, ns);
          const peer = ns.connection.peerKey;
          if (peer !== undefined && peer !== key) this.#aliases.set(peer, key);
        },
        () => this.#others.delete(key),
      );
      this.#others.set(key, (p = opening));
    }
    const opened = p;
    return abortable(opened, signal).then((ns) => {
      if (ns.isOpen) return ns;
      if (this.#others.get(key) === opened) this.#forget(key);
      return this.sessionAt(target, signal);
    });
  }

  /**
   * The open session on `target` (the default node's, when it is that node) if there is one now; else
   * undefined, and a session on it is opened for later calls: a node that cannot be reached or refuses
   * the login is quarantined. Never waits for a connect (a query is not held up by a node it has not met).
   */
  openedAt(target: Endpoint): NodeSession | undefined {
    const key = this.#keyOf(endpointKey(target));
    if (this.#isDefault(key)) return this.#default!;
    const ready = this.#ready.get(key);
    if (ready?.isOpen) return ready;
    if (ready === undefined && this.#others.has(key)) return undefined; // being opened
    const lifetime = this.#lifetime();
    this.sessionAt(target).catch(() => {
      if (!lifetime.aborted) this.#registry.markFailed(target);
    });
    return undefined;
  }

  /** `ns`'s connection failed: quarantine its node and let the next call reconnect. */
  failed(ns: NodeSession): void {
    this.#registry.markFailed(ns.endpoint);
    ns.connection.close();
    if (this.#others.has(ns.key)) this.#forget(ns.key);
  }

  /**
   * Closes the other nodes' sessions (they reopen lazily, e.g. in a new database); one a result is still read on
   * (`reading`) is closed once that result is (resultClosed), so that a USE does not cut off a result being read.
   */
  async closeOthers(reading: (ns: NodeSession) => boolean = () => false): Promise<void> {
    const nodes = [...this.#others.values()];
    this.#others.clear();
    this.#aliases.clear();
    this.#ready.clear();
    const close = (ns: NodeSession) => (reading(ns) ? void this.#retired.add(ns) : ns.close());
    await Promise.all(nodes.map((p) => p.then(close, () => undefined).catch(() => undefined)));
  }

  /** A result read on `connection` closed: a session closeOthers() left open for it closes unless another is read there. */
  resultClosed(connection: RpcConnection, reading: (ns: NodeSession) => boolean): void {
    if (this.#retired.size === 0) return;
    for (const ns of this.#retired) {
      if (ns.connection !== connection || reading(ns)) continue;
      this.#retired.delete(ns);
      void ns.close().catch(() => undefined);
    }
  }

  /** Logs out of every node and closes every connection. */
  async closeAll(): Promise<void> {
    await this.#connecting?.catch(() => undefined);
    await this.closeOthers();
    const retired = [...this.#retired];
    this.#retired.clear();
    await Promise.all(retired.map((ns) => ns.close().catch(() => undefined)));
    const d = this.#default;
    this.#default = null;
    await d?.close().catch(() => undefined);
  }

  /** `key` names the default node, whose connection works: as it was given, or as the address it reached. */
  #isDefault(key: string): boolean {
    const d = this.#default;
    return d !== null && d.isOpen && (d.key === key || d.connection.peerKey === key);
  }

  #forget(key: string): void {
    this.#others.delete(key);
    this.#ready.delete(key);
    for (const [peer, k] of this.#aliases) if (k === key) this.#aliases.delete(peer);
  }

  /**
   * The key `key`'s session is kept under: its own, or, for the address a node given by name resolved to, that
   * name's (a cluster lists its nodes by address: the node is not connected to twice).
   */
  #keyOf(key: string): string {
    const named = this.#aliases.size === 0 ? undefined : this.#aliases.get(key);
    return named !== undefined && this.#others.has(named) ? named : key;
  }

  /** The default node's session: the preferred node (the last one used) first, the others after it (connectFirst). */
  async #connectDefault(signal: AbortSignal): Promise<NodeSession> {
    this.#default?.connection.close();
    this.#default = null;
    const preferred = this.#defaultAt ?? endpointKey(this.#registry.seeds[0]);
    const context = this.#context();
    const ns = await connectFirst(
      this.#registry.candidates(preferred),
      (endpoint, attempt) => NodeSession.open(endpoint, this.#options, context, this.#recorder, attempt),
      {
        staggerMs: CONNECT_STAGGER_MS,
        signal,
        failed: (endpoint) => this.#registry.markFailed(endpoint),
        discard: (late) => void late.close().catch(() => undefined),
      },
    );
    if (ns.key !== preferred) this.#recorder.failedOver(preferred, ns.key);
    this.#registry.markHealthy(ns.endpoint);
    this.#defaultAt = ns.key;
    this.#default = ns;
    this.#precision = ns.precision;
    return ns;
  }
}

/** `p`, or the signal's reason as soon as it aborts (p goes on for whoever else waits on it). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}
