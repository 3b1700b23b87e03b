import { TSDataType, overflowsFloat32 } from '@iotdb/fast-serializer';
import { CompiledFunctions } from '../codegen/compiled-functions.js';
import type { Column } from './column.js';

/**
 * Puts a row's cells into its columns (nulls too), for rows that list the same names (with columns of the
 * same types) as the rows before: `o["s0"]` is a named load and each column's type check and store are inlined, no
 * lookup by name and no dispatch on the type per cell. This is the writer's per-cell cost, so it is
 * generated once per list of names and types and shared by every buffer with that list. Returns the
 * bytes the row takes, or ~k when cell k needs the general path (a missing name, a column still to be
 * made, a value the column refuses, which the general path then names in its error).
 * Names go into the code only as JSON string literals. Where code generation is not allowed
 * (--disallow-code-generation-from-strings), there is none and every row takes the general path.
 */
export type CompiledPut = (
  row: object,
  columns: readonly (Column | undefined)[],
  at: number,
  stage: Float64Array,
  base: number,
) => number;

type Factory = (overflowsFloat32: (v: number) => boolean) => CompiledPut;

const puts = new CompiledFunctions<CompiledPut>(1024);

/**
 * The compiled put of these names and their columns (undefined: no column yet; a staged column by its slot), or
 * null without code generation.
 */
export function compiledPut(
  names: readonly string[],
  columns: readonly (Column | undefined)[],
  masked: boolean,
): CompiledPut | null {
  const shape = `${masked}\u0002${names.map((n, k) => `${n}\u0000${columns[k]?.type ?? ''}\u0000${columns[k]?.slot ?? ''}`).join('\u0001')}`;
  // the body holds escaped names and column slots only; one function per row shape is what makes the put fast
  // (docs/PERFORMANCE.md)
  return puts.get(shape, (compile) => {
    const body = `return function put(o, c, at, st, base) {\n  let v, col, n, b = 0;\n${names.map((n, k) => cell(n, k, columns[k], masked)).join('')}  return b;\n};`;
    return (compile(['overflowsFloat32'], body) as Factory)(overflowsFloat32);
  });
}

/**
 * The code of cell k: the type's own check and store (into the stage for a staged column), or the column's
 * general put. `masked`: some column of the buffer has a null mask, which a value must clear (a failed row may
 * have set it); without, a staged value does not even load its column object (with a hundred devices buffering,
 * 5,000 of them: mostly cache misses).
 */
function cell(name: string, k: number, column: Column | undefined, masked: boolean): string {
  const load = `  v = o[${JSON.stringify(name)}];\n`;
  if (column === undefined) return `${load}  if (v !== null) return ${~k};\n`;
  const general = `{ col = c[${k}]; if (v === undefined || (n = col.put(at, v)) < 0) return ${~k}; else b += n; }`;
  const staged = column.slot >= 0 ? STAGED[column.type] : undefined;
  const fast = staged ?? CELLS[column.type];
  const target = staged !== undefined ? `st[base + ${column.slot}]` : `c[${k}].cells[at]`;
  const store =
    fast === undefined ? general : `if (${fast.check}) { ${target} = v; b += ${fast.bytes}; } else ${general}`;
  const clear = masked ? `\n    col = c[${k}]; if (col.mask !== null) col.mask[at] = 0;` : '';
  return `${load}  if (v !== null) {\n    ${store}${clear}\n  } else c[${k}].putNull(at);\n`;
}

const STAGED: Partial<Record<TSDataType, { check: string; bytes: string }>> = {
  [TSDataType.DOUBLE]: { check: `typeof v === 'number'`, bytes: '8' },
  [TSDataType.FLOAT]: { check: `typeof v === 'number' && !overflowsFloat32(v)`, bytes: '4' },
  [TSDataType.INT32]: { check: `typeof v === 'number' && (v | 0) === v`, bytes: '4' },
  [TSDataType.INT64]: { check: `typeof v === 'number' && Number.isSafeInteger(v)`, bytes: '8' },
  [TSDataType.TIMESTAMP]: { check: `typeof v === 'number' && Number.isSafeInteger(v)`, bytes: '8' },
};

const CELLS: Partial<Record<TSDataType, { check: string; bytes: string }>> = {
  [TSDataType.BOOLEAN]: { check: `typeof v === 'boolean'`, bytes: '1' },
  // a string UTF-8 cannot carry (a lone surrogate) takes the general path, which refuses it
  [TSDataType.TEXT]: { check: `typeof v === 'string' && v.isWellFormed()`, bytes: '4 + 3 * v.length' },
  [TSDataType.STRING]: { check: `typeof v === 'string' && v.isWellFormed()`, bytes: '4 + 3 * v.length' },
};
