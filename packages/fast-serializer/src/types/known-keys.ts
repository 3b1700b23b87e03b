import { IoTDBValidationError } from '../errors.js';
import { describe } from './describe.js';
import { nearestName } from './nearest-name.js';

/** The most keys an error names as the object expected. */
const MAX_KEYS_SHOWN = 8;

/**
 * The keys an input object (a tablet, a record, a writer's row) may have. A key that none of them is would be
 * dropped without a word (`aligned` for `isAligned`, `nullMask` for `nulls`: rows written unaligned, nulls written
 * as 0), so it is refused, naming the nearest known key. The objects of one call mostly have the same keys in the
 * same order: the last order that fitted is kept and compared key by key (about 20 ns a record; a set lookup per
 * key cost 60).
 */
export class KnownKeys {
  readonly known: readonly string[];
  readonly #known: ReadonlySet<string>;
  #last: readonly string[] = [];

  /** `noun`: what the object is ('tablet', 'record'), for an error on the object itself */
  private constructor(
    readonly noun: string,
    known: readonly string[],
  ) {
    this.known = known;
    this.#known = new Set(known);
  }

  /**
   * The keys of T, every one listed: `KnownKeys.of<Tablet>('tablet')('deviceId', ...)`. A name T does not have, or a
   * key of T left out (it would be refused at run time), fails to compile (the argument list becomes `never`).
   */
  static of<T extends object>(noun: string) {
    return <const K extends readonly (keyof T & string)[]>(
      ...known: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never)
    ): KnownKeys => new KnownKeys(noun, known);
  }

  /** Whether `key` is one of the known keys. */
  has(key: string): boolean {
    return this.#known.has(key);
  }

  /** The known keys, in the order listed. */
  [Symbol.iterator](): Iterator<string> {
    return this.known[Symbol.iterator]();
  }

  /** Whether every own enumerable key of `o` is known. */
  fits(o: object): boolean {
    const last = this.#last;
    let i = 0;
    for (const k in o) {
      if (last[i] !== k) return this.#learn(o);
      i++;
    }
    return i === last.length || this.#learn(o);
  }

  /**
   * Throws IoTDBValidationError at `${field}.${key}` (the key alone when `field` is '') for an unknown key, and at
   * `field` (or the noun) for what is not an object, or an array given for one (insertTablet([a, b])).
   */
  check(o: unknown, field: string): asserts o is object {
    if (o === null || typeof o !== 'object') {
      throw new IoTDBValidationError(field === '' ? this.noun : field, `expected ${this.#shape()}, got ${describe(o)}`);
    }
    if (Array.isArray(o)) {
      throw new IoTDBValidationError(field === '' ? this.noun : field, `needs an object, got an array of ${o.length}`);
    }
    if (this.fits(o)) return;
    for (const k in o) {
      if (this.#known.has(k) || !Object.hasOwn(o, k)) continue;
      const near = nearestName(k, this.known);
      throw new IoTDBValidationError(
        field === '' ? k : `${field}.${k}`,
        near === undefined ? `unknown key; known: ${this.known.join(', ')}` : `unknown key (did you mean ${near}?)`,
      );
    }
  }

  /**
   * The object expected, its keys named when they are few (a record's, a tablet's: what a caller porting the Java
   * Session's `insertRecord(deviceId, time, ...)` needs to read; TLS options' dozens would bury the message).
   */
  #shape(): string {
    return this.known.length <= MAX_KEYS_SHOWN ? `an object { ${this.known.join(', ')} }` : 'an object';
  }

  #learn(o: object): boolean {
    const keys: string[] = [];
    let inherited = false;
    for (const k in o) {
      // an inherited enumerable key (a method set on a prototype) is not the caller's data: let through
      if (!Object.hasOwn(o, k)) inherited = true;
      else if (!this.#known.has(k)) return false;
      else keys.push(k);
    }
    if (!inherited) this.#last = keys; // such an object's for...in never matches the own keys alone
    return true;
  }
}
