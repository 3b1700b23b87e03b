import { describe, expect, it } from 'vitest';
import { CompiledFunctions, compileFunction, type Compile } from './compiled-functions.js';

type Add = (a: number) => number;

describe('CompiledFunctions', () => {
  it('compiles once per shape and gives the same function for it after', () => {
    let compiles = 0;
    const counting: Compile = (params, body) => {
      compiles++;
      return compileFunction(params, body);
    };
    const functions = new CompiledFunctions<Add>(8, counting);
    const add = (n: number) => (compile: Compile) => compile(['a'], `return a + ${n};`) as Add;
    const one = functions.get('+1', add(1))!;
    expect(one(1)).toBe(2);
    expect(functions.get('+1', add(1))).toBe(one);
    expect(functions.get('+2', add(2))!(1)).toBe(3);
    expect(compiles).toBe(2);
  });

  it('starts again past its size: at most `max` shapes kept', () => {
    let compiles = 0;
    const functions = new CompiledFunctions<Add>(2, (params, body) => {
      compiles++;
      return compileFunction(params, body);
    });
    const make = (compile: Compile) => compile(['a'], 'return a;') as Add;
    for (const shape of ['a', 'b', 'c', 'a']) functions.get(shape, make);
    expect(compiles).toBe(4); // 'c' cleared the cache, so 'a' was compiled again
  });

  it('gives null once compiling is refused, and does not try again', () => {
    let tries = 0;
    const functions = new CompiledFunctions<Add>(8, () => {
      tries++;
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const make = (compile: Compile) => compile(['a'], 'return a;') as Add;
    expect(functions.get('x', make)).toBeNull();
    expect(functions.get('y', make)).toBeNull();
    expect(tries).toBe(1);
  });
});
