import type { CellValue } from '@iotdb/fast-serializer';

type Typed = Float64Array | Float32Array | Int32Array | BigInt64Array | Uint8Array;
type TypedClass<T extends Typed> = new (length: number) => T;

const MAX_FREE_PER_KIND = 4096;

/**
 * The column arrays of a writer, reused once the request that carried them is settled: a flush of 100
 * devices x 50 columns would otherwise leave 5,000 typed arrays to the garbage collector each time.
 */
export class StorePool {
  readonly #free = new Map<TypedClass<Typed>, Map<number, Typed[]>>();
  readonly #cells: CellValue[][] = [];

  /** A typed array of `length` elements; a reused one holds old values (masks: see `zeroed`). */
  typed<T extends Typed>(cls: TypedClass<T>, length: number): T {
    return (this.#free.get(cls)?.get(length)?.pop() as T | undefined) ?? new cls(length);
  }

  zeroed(length: number): Uint8Array {
    return this.typed(Uint8Array, length).fill(0);
  }

  /** A cell array; a reused one keeps its old cells (and backing store): a column writes rows 0.. in order and truncates at take. */
  cells(): CellValue[] {
    return this.#cells.pop() ?? [];
  }

  /** Takes back arrays nothing refers to any more. */
  give(a: Typed | CellValue[] | null): void {
    if (a === null) return;
    if (Array.isArray(a)) {
      if (this.#cells.length < MAX_FREE_PER_KIND) this.#cells.push(a);
      return;
    }
    const cls = a.constructor as TypedClass<Typed>;
    let byLength = this.#free.get(cls);
    if (byLength === undefined) this.#free.set(cls, (byLength = new Map<number, Typed[]>()));
    let list = byLength.get(a.length);
    if (list === undefined) byLength.set(a.length, (list = []));
    if (list.length < MAX_FREE_PER_KIND) list.push(a);
  }
}
