import type { TSStatus } from '@iotdb/fast-serializer';
import type { Endpoint } from '../cluster/endpoint.js';
import type { NodeRegistry } from '../cluster/node-registry.js';
import type { QueryNodes } from '../cluster/query-nodes.js';
import type { Recorder } from '../diagnostics/recorder.js';
import { IoTDBSessionClosedError } from '../errors.js';
import type { NodeSession } from './node-session.js';
import type { NodeSessions } from './node-sessions.js';

/**
 * The one device a query reads (a structured query's paths, a tree SELECT's FROM). `named`: its reply tells where
 * the device's data lies (a fast last query's, as IoTDB answers it: a redirect naming the node that leads the
 * device, or none when the node that answered leads it; the other queries' replies name no node).
 */
export interface DeviceQuery {
  readonly device: string;
  readonly named: boolean;
}

/**
 * Where a session's next query goes. A query of one device goes to the node that leads the device's region when
 * a redirect named it (a write's, or a fast last query's: enableRedirection, as the Java Session routes
 * executeLastDataQueryForOneDevice) and a server session there is open: its coordinator then reads the data
 * where it lies. Other queries: with `spreadQueries`, queries take turns on the cluster's DataNodes (the
 * Java Session's default): each to the next available node whose server session is open; while it is not
 * (the first turn of a node, or after its connection broke) that session is opened in the background and the
 * query goes to the default node, so that no query waits on a node it has not met or that does not answer.
 * Without it (`nodes` null), every query goes to the default node.
 */
export class QueryRouter {
  readonly #nodes: QueryNodes | null;
  readonly #sessions: NodeSessions;
  readonly #registry: NodeRegistry;
  readonly #recorder: Recorder;
  /** asks the cluster for its DataNodes (null: `discoverNodes` off, the turn is `nodeUrls`) */
  readonly #discover: (() => Promise<Endpoint[]>) | null;
  /** enableRedirection: a device's queries go to its node */
  readonly #byDevice: boolean;
  #discoveryFailed = false;

  constructor(
    nodes: QueryNodes | null,
    sessions: NodeSessions,
    registry: NodeRegistry,
    recorder: Recorder,
    discover: (() => Promise<Endpoint[]>) | null,
    byDevice: boolean,
  ) {
    this.#byDevice = byDevice;
    this.#nodes = nodes;
    this.#sessions = sessions;
    this.#registry = registry;
    this.#recorder = recorder;
    this.#discover = discover;
  }

  /** 'host:port' of the nodes queries take turns on now (the default node's alone without spreadQueries). */
  get keys(): string[] {
    const d = this.#sessions.defaultKey;
    return this.#nodes?.keys ?? (d === undefined ? [] : [d]);
  }

  /** Whether queries take turns on more than one node now. */
  get spreads(): boolean {
    return this.#nodes !== null && this.#nodes.endpoints.length > 1;
  }

  /** The server session the next query goes out on; `q`: the one device the query reads, if it reads one. */
  node(signal: AbortSignal, q?: DeviceQuery): Promise<NodeSession> {
    const led = q === undefined ? undefined : this.#ledBy(q.device);
    if (led !== undefined) return Promise.resolve(led);
    if (this.#nodes === null) return this.#sessions.defaultSession(signal);
    this.#learnIfDue(this.#nodes);
    const target = this.#nodes.next((e) => this.#registry.isAvailable(e));
    const ns = target === undefined ? undefined : this.#sessions.openedAt(target);
    return ns !== undefined ? Promise.resolve(ns) : this.#sessions.defaultSession(signal);
  }

  /** A query's connection to `ns` failed: a node other than the default one leaves the turn for its quarantine. */
  failed(ns: NodeSession): void {
    if (ns.key !== this.#sessions.defaultKey) this.#sessions.failed(ns);
  }

  /** `ns` answered a query of one device with `status`: a fast last query's names the node leading the device. */
  learn(status: TSStatus, ns: NodeSession, q: DeviceQuery): void {
    if (!this.#byDevice || !q.named) return;
    this.#registry.lead(q.device, status.redirectNode, ns.endpoint);
    const led = this.#registry.routeOf(q.device);
    if (led !== undefined) this.#sessions.openedAt(led); // opened now, in the background, for the device's next query
  }

  /** The open server session on the node leading `device`'s region, when it is known (else one opens). */
  #ledBy(device: string): NodeSession | undefined {
    const led = this.#byDevice ? this.#registry.routeOf(device) : undefined;
    return led === undefined ? undefined : this.#sessions.openedAt(led);
  }

  /** Asks the cluster for its DataNodes in the background when the list is due (at the first query, then every refreshMs). */
  #learnIfDue(nodes: QueryNodes): void {
    if (this.#discover === null || !nodes.startLearning(performance.now())) return;
    this.#discover().then(
      (found) => {
        this.#discoveryFailed = false;
        if (nodes.learnt(found)) this.#recorder.queryNodes(nodes.keys);
      },
      (error: unknown) => {
        if (error instanceof IoTDBSessionClosedError) return nodes.abandoned(); // a pool's other sessions ask
        nodes.learnt(undefined);
        if (!this.#discoveryFailed) this.#recorder.discoveryFailed(error); // once until it works again
        this.#discoveryFailed = true;
      },
    );
  }
}
