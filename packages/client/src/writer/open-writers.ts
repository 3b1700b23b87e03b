/** What an owner needs of a writer it made: its close() (flush, then refuse further rows). */
interface Closable {
  close(): Promise<void>;
}

/** Prunes the writers collected unclosed once the set has grown past this (then past twice what is left). */
const PRUNE_FROM = 64;

/**
 * The writers a session or a pool made and that were not closed. The owner's close() closes them first, while its
 * connections are open, so that the rows they hold are sent as the writer's own close() would send them, rather than
 * failed by a closed session and reported only to an onError or a later writer.close(). Writers are held weakly: one
 * its user dropped goes to the collector, as it did before (one holding rows is held by its flush timer, unless its
 * flushIntervalMs is 0).
 */
export class OpenWriters {
  readonly #open = new Set<WeakRef<Closable>>();
  /** closes under way that another closer reports (the writer's user, an earlier owner close()) */
  readonly #closing = new Set<Promise<void>>();
  #pruneAt = PRUNE_FROM;

  /** Makes a writer through `make`, which is given what the writer calls as its close() begins. */
  track<W extends Closable>(make: (closing: (settled: Promise<void>) => void) => W): W {
    const entry: { ref?: WeakRef<Closable> } = {}; // the writer's, once made
    const writer = make((settled) => {
      if (entry.ref !== undefined && this.#open.delete(entry.ref)) this.#wait(settled);
    });
    entry.ref = new WeakRef(writer);
    this.#open.add(entry.ref);
    if (this.#open.size >= this.#pruneAt) this.#prune();
    return writer;
  }

  /**
   * Closes every writer still open and waits for those being closed; resolves with the failures of the ones it
   * closed (rows no onError took), each reported once: a close begun elsewhere is its own caller's to report.
   */
  async closeAll(): Promise<unknown[]> {
    const closes = [...this.#open].flatMap((ref) => {
      const writer = ref.deref();
      // taken out first: the writer's close() telling us it began is not one begun elsewhere
      this.#open.delete(ref);
      if (writer === undefined) return [];
      const closed = writer.close();
      this.#wait(closed); // an owner's close() made meanwhile waits for it too
      return [closed];
    });
    const settled = await Promise.allSettled(closes);
    await Promise.all([...this.#closing]);
    return settled.flatMap((r): unknown[] => (r.status === 'rejected' ? [r.reason as unknown] : []));
  }

  #wait(settled: Promise<void>): void {
    const done = settled.then(
      () => undefined,
      () => undefined,
    );
    this.#closing.add(done);
    void done.then(() => this.#closing.delete(done));
  }

  #prune(): void {
    for (const ref of this.#open) if (ref.deref() === undefined) this.#open.delete(ref);
    this.#pruneAt = Math.max(PRUNE_FROM, 2 * this.#open.size);
  }
}

/** The error an owner's close() rejects with after closing: its writers' failures, one or an AggregateError. */
export function writersFailed(failures: readonly unknown[], owner: string): unknown {
  if (failures.length === 1) return failures[0];
  return new AggregateError(failures, `${owner}.close(): ${failures.length} writers had rows that failed`);
}
