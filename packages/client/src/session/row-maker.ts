import { TSDataType, decodeDate, type DecodedColumn } from '@iotdb/fast-serializer';
import { cellValue, int64WordToNumber, int64Words, type IoTDBValue } from './cell-value.js';
import { CompiledFunctions, type Compile } from '../codegen/compiled-functions.js';
import type { Int64Mode } from './options.js';

/** Makes row r's `values` of one block (a new array each call; an unsafe INT64 as number throws for its row). */
export type RowMaker = (r: number) => IoTDBValue[];

/** Makes the RowMaker of one block from its columns' arrays: compiled once per column layout. */
export type RowFactory = (
  values: readonly DecodedColumn['values'][],
  nulls: readonly (Uint8Array | null)[],
  helpers: typeof HELPERS,
) => RowMaker;

const HELPERS = { toNumber: int64WordToNumber, words: int64Words, date: decodeDate };

/** Wider results are made cell by cell: a bound on the size of what is compiled (results this wide are rare). */
const MAX_GENERATED_COLUMNS = 1024;
/**
 * Row makers for blocks of columns. For each column layout (types, which columns have nulls, `int64As`) a
 * function is compiled once that makes a row as one array literal with one load per cell from its column's own
 * array: V8 allocates the row once with its values, and every load sees one array kind. Making the rows column
 * by column into runs of rows took 2-3x the time, cell by cell through `cellValue`'s switch 4-5x
 * (docs/PERFORMANCE.md, "Rows made by a compiled function"). The source compiled holds nothing from the server:
 * column positions and fixed code chosen by type. Where compiling is refused
 * (`node --disallow-code-generation-from-strings`), rows are made cell by cell.
 */
export class RowMakers {
  readonly #factories: CompiledFunctions<RowFactory>;

  constructor(compile?: Compile) {
    this.#factories = new CompiledFunctions<RowFactory>(256, compile);
  }

  /** The row maker of a block's columns. */
  of(columns: readonly DecodedColumn[], int64As: Int64Mode): RowMaker {
    if (columns.length > MAX_GENERATED_COLUMNS) return cellByCell(columns, int64As);
    const layout = `${int64As}:${columns.map((c) => (c.nulls === null ? c.type : `${c.type}?`)).join(',')}`;
    const factory = this.#factories.get(
      layout,
      (compile) => compile(['values', 'nulls', 'helpers'], rowSource(columns, int64As)) as RowFactory,
    );
    if (factory === null) return cellByCell(columns, int64As);
    return factory(
      columns.map((c) => c.values),
      columns.map((c) => c.nulls),
      HELPERS,
    );
  }
}

const rowMakers = new RowMakers();

/** The row maker of a block's columns (compiled once per layout for the whole process). */
export function rowMaker(columns: readonly DecodedColumn[], int64As: Int64Mode): RowMaker {
  return rowMakers.of(columns, int64As);
}

/** Row r cell by cell, through `cellValue`. */
export function cellByCell(columns: readonly DecodedColumn[], int64As: Int64Mode): RowMaker {
  return (r) => {
    const out = new Array<IoTDBValue>(columns.length);
    for (let k = 0; k < columns.length; k++) out[k] = cellValue(columns[k], r, int64As);
    return out;
  };
}

/**
 * The factory's body: each column's arrays in locals, and the row function over them. INT64 asked for as number
 * is read from the column's 32-bit words, without a BigInt per value (int64WordToNumber).
 */
export function rowSource(columns: readonly DecodedColumn[], int64As: Int64Mode): string {
  const locals = columns.map((c, k) => {
    const values = asWords(c.type, int64As) ? `words(values[${k}])` : `values[${k}]`;
    return `const c${k} = ${values}${c.nulls === null ? '' : `, n${k} = nulls[${k}]`};`;
  });
  const cells = columns.map((c, k) => {
    const value = cellSource(c.type, `c${k}`, int64As);
    return c.nulls === null ? value : `n${k}[r] === 1 ? null : ${value}`;
  });
  return [
    'const toNumber = helpers.toNumber, words = helpers.words, date = helpers.date;',
    ...locals,
    `return function row(r) { return [${cells.join(', ')}]; };`,
  ].join('\n');
}

/** INT64 and TIMESTAMP asked for as number: read from the column's 32-bit words. */
function asWords(type: TSDataType, int64As: Int64Mode): boolean {
  return int64As === 'number' && (type === TSDataType.INT64 || type === TSDataType.TIMESTAMP);
}

/** Row r's value from its column's local, as `cellValue` gives it. */
function cellSource(type: TSDataType, column: string, int64As: Int64Mode): string {
  if (asWords(type, int64As)) return `toNumber(${column}, r)`;
  switch (type) {
    case TSDataType.BOOLEAN:
      return `${column}[r] === 1`;
    case TSDataType.DATE:
      return `date(${column}[r])`;
    default:
      return `${column}[r]`;
  }
}
