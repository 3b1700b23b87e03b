/**
 * The statement ids a server session's queries go under, and how their finished queries are released.
 *
 * IoTDB keeps every query's id in its session under the statement it was sent with until a closeOperation names it,
 * even once the server has sent its last rows and dropped the query itself (measured on 2.0.1-beta: 3,000 point queries
 * read to their end and not closed, `SHOW QUERIES` lists none of them). The Java Session sends that closeOperation
 * after each query: a round trip of some 80 us in a point query's 500 on loopback. Here a query read to its end is
 * left as it is, and once a statement holds RELEASE_EVERY such queries, the session asks for a new statement id
 * (queries go on under the old one meanwhile), and the old statement is closed in one closeOperation (which releases
 * every query id under it) as soon as no result of it is still open. A query closed with rows left on the server is
 * released at once, as ever (its data set's closeOperation names its query id). A statement that returns no rows
 * (executeUpdateStatementV2) leaves its id in the session too, and counts as a finished query: the Java Session never
 * releases those, so a session running SQL writes grows the server's set of ids until it closes.
 */

/** Finished queries a statement holds before the session moves to a new one (their ids held by the server session). */
export const RELEASE_EVERY = 100;

/** One statement id and what of it is on the server. */
export interface Statement {
  readonly id: bigint;
  /** queries sent under it whose data sets are not settled yet (a query in flight counts) */
  open: number;
  /** queries under it read to their end: their ids wait for the statement's release */
  finished: number;
}

/** How a server session asks for a statement id and closes a statement (not waited for: its failure is logged). */
export interface StatementCalls {
  readonly requestId: () => Promise<bigint>;
  readonly close: (id: bigint) => void;
  /** a new statement id could not be had: queries go on under the current one */
  readonly rotateFailed: (error: unknown) => void;
}

export class StatementIds {
  #current: Statement;
  #rotating = false;
  readonly #calls: StatementCalls;

  constructor(id: bigint, calls: StatementCalls) {
    this.#current = { id, open: 0, finished: 0 };
    this.#calls = calls;
  }

  /** The statement the next call goes under. */
  get currentId(): bigint {
    return this.#current.id;
  }

  /** The statement a query goes under, counted open until `settle` (a query in flight counts). */
  take(): Statement {
    const s = this.#current;
    s.open++;
    return s;
  }

  /**
   * A query under `s` is done with: `finished` when the server sent its last rows (its id waits for the statement's
   * release), else released by its own closeOperation, refused, or gone with its connection. The current statement
   * holding RELEASE_EVERY finished queries asks for a new id (queries go on under it meanwhile); a statement left
   * behind is closed once nothing of it is open.
   */
  settle(s: Statement, finished: boolean): void {
    s.open--;
    if (finished) s.finished++;
    if (s !== this.#current) {
      if (s.open === 0) this.#calls.close(s.id);
    } else if (s.finished >= RELEASE_EVERY && !this.#rotating) {
      this.#rotating = true;
      void this.#rotate().finally(() => (this.#rotating = false));
    }
  }

  async #rotate(): Promise<void> {
    const old = this.#current;
    let id: bigint;
    try {
      id = await this.#calls.requestId();
    } catch (e) {
      old.finished = 0; // tried again after as many more
      this.#calls.rotateFailed(e);
      return;
    }
    this.#current = { id, open: 0, finished: 0 };
    if (old.open === 0) this.#calls.close(old.id);
  }
}
