/** Compiles a function from its parameter names and body (`new Function`); throws where that is refused. */
export type Compile = (params: readonly string[], body: string) => (...args: never[]) => unknown;

export const compileFunction: Compile = (params, body) =>
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- callers' bodies hold only positions, escaped names and fixed code
  new Function(...params, body) as (...args: never[]) => unknown;

/**
 * Functions generated for one shape of data (a result's column layout, a writer's row shape) and kept for every
 * later block or row of that shape: code written out for one shape has a load per column that sees one kind of
 * value, where a loop over the columns meets them all at one load and V8 makes it slow for every one of them.
 * Bodies must hold nothing from the data but positions and escaped names. Where code generation from strings
 * is refused (`node --disallow-code-generation-from-strings`) the first attempt says so and `get` gives null
 * from then on: callers take their general path.
 */
export class CompiledFunctions<F> {
  readonly #compiled = new Map<string, F>();
  #refused = false;

  constructor(
    /** shapes kept; past this the cache starts again (a client meets a few shapes of data, not hundreds) */
    private readonly max: number,
    private readonly compile: Compile = compileFunction,
  ) {}

  /** The function of `shape`, made by `make` with the compiler on first use; null where compiling is refused. */
  get(shape: string, make: (compile: Compile) => F): F | null {
    if (this.#refused) return null;
    let f = this.#compiled.get(shape);
    if (f === undefined) {
      try {
        f = make(this.compile);
      } catch {
        this.#refused = true;
        return null;
      }
      if (this.#compiled.size >= this.max) this.#compiled.clear();
      this.#compiled.set(shape, f);
    }
    return f;
  }
}
