/** The int64 range (Java's long): what INT64 and TIMESTAMP cells and row times must fit. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
