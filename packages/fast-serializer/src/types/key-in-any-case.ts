/**
 * The key of `table` that `name` spells in any case, as IoTDB's SQL reads type, category and function names (`float`,
 * `Tag`, `count`), or undefined. The exact spelling is looked up first: no upper-casing on the path every tablet takes.
 */
export function keyInAnyCase<T extends object>(table: T, name: string): keyof T | undefined {
  if (Object.prototype.hasOwnProperty.call(table, name)) return name as keyof T;
  const upper = name.toUpperCase();
  return Object.prototype.hasOwnProperty.call(table, upper) ? (upper as keyof T) : undefined;
}
