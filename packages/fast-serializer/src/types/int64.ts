/** 2^32: the weight of an int64's high 32-bit word, for splitting a number into its two words. */
export const TWO_32 = 4294967296;

/** Java's Long.MIN_VALUE: the int64 range's low end, and the null placeholder of INT64 and TIMESTAMP cells. */
export const INT64_MIN = -(2n ** 63n);

/** Java's Long.MAX_VALUE: the int64 range's high end (the latest nanosecond time a server can hold). */
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * Whether a bigint fits int64 (Java's long: what INT64 and TIMESTAMP cells and row times must fit; a
 * BigInt64Array would wrap a bigint beyond it silently). One BigInt.asIntN: cheaper than two bigint compares
 * with the range's ends (docs/PERFORMANCE.md).
 */
export function fitsInt64(v: bigint): boolean {
  return BigInt.asIntN(64, v) === v;
}
