import { TSDataType, overflowsFloat32 } from '@iotdb/fast-serializer';
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
export type CompiledPut = (row: object, columns: readonly (Column | undefined)[], at: number) => number;

type Factory = (overflowsFloat32: (v: number) => boolean) => CompiledPut;

const MAX_COMPILED = 1024;
const compiled = new Map<string, CompiledPut>();
let codegen = true;

/** The compiled put of these names and column types (undefined: no column yet), or null without code generation. */
export function compiledPut(names: readonly string[], types: readonly (TSDataType | undefined)[]): CompiledPut | null {
  if (!codegen) return null;
  const key = names.map((n, k) => `${n}\u0000${types[k] ?? ''}`).join('\u0001');
  let put = compiled.get(key);
  if (put === undefined) {
    try {
      const body = `return function put(o, c, at) {\n  let v, col, n, b = 0;\n${names.map((n, k) => cell(n, k, types[k])).join('')}  return b;\n};`;
      put = (new Function('overflowsFloat32', body) as Factory)(overflowsFloat32);
    } catch {
      codegen = false;
      return null;
    }
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, put);
  }
  return put;
}

/** The code of cell k: the type's own check and store, or the column's general put. */
function cell(name: string, k: number, type: TSDataType | undefined): string {
  const load = `  v = o[${JSON.stringify(name)}];\n`;
  if (type === undefined) return `${load}  if (v !== null) return ${~k};\n`;
  const fast = FAST[type];
  const general = `if (v === undefined || (n = col.put(at, v)) < 0) return ${~k}; else b += n;`;
  const store = fast === undefined ? general : `if (${fast.check}) { ${fast.store}; b += ${fast.bytes}; } else ${general}`;
  // a value clears the row's mask bit (a failed row may have set it); a null sets it
  return `${load}  col = c[${k}];\n  if (v !== null) {\n    ${store}\n    if (col.mask !== null) col.mask[at] = 0;\n  } else col.putNull(at);\n`;
}

const FAST: Partial<Record<TSDataType, { check: string; store: string; bytes: string }>> = {
  [TSDataType.DOUBLE]: { check: `typeof v === 'number'`, store: 'col.f64[at] = v', bytes: '8' },
  [TSDataType.FLOAT]: { check: `typeof v === 'number' && !overflowsFloat32(v)`, store: 'col.f32[at] = v', bytes: '4' },
  [TSDataType.INT32]: { check: `typeof v === 'number' && (v | 0) === v`, store: 'col.i32[at] = v', bytes: '4' },
  [TSDataType.INT64]: { check: `typeof v === 'number' && col.f64 !== null && Number.isSafeInteger(v)`, store: 'col.f64[at] = v', bytes: '8' },
  [TSDataType.BOOLEAN]: { check: `typeof v === 'boolean'`, store: 'col.cells[at] = v', bytes: '1' },
  [TSDataType.TEXT]: { check: `typeof v === 'string'`, store: 'col.cells[at] = v', bytes: '4 + 3 * v.length' },
  [TSDataType.STRING]: { check: `typeof v === 'string'`, store: 'col.cells[at] = v', bytes: '4 + 3 * v.length' },
};
