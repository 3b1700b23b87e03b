import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The declarations the package publishes for its channels must compile for a user on any @types/node: version 20
 * declares `TracingChannel<StoreType, ContextType extends object>`, version 26 `TracingChannel<ContextType extends
 * object, StoreType>`, so a declaration naming its type arguments (`TracingChannel<unknown, Ctx>`) fails under one
 * of them (a user with skipLibCheck off saw TS2344 in channels.d.ts).
 */
describe('the channels as published', () => {
  it('declare no TracingChannel type arguments, whose order @types/node changed', () => {
    const source = readFileSync(new URL('./channels.ts', import.meta.url), 'utf8');
    const { outputText } = ts.transpileDeclaration(source, {
      compilerOptions: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
    });
    expect(outputText).toContain('queryChannel');
    expect(outputText).not.toMatch(/TracingChannel</);
    // the documented subscription names no type arguments either
    expect(source).not.toMatch(/tracingChannel</);
  });
});
