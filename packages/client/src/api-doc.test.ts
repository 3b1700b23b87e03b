import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// docs/API.md is written by hand; this keeps it honest. Every name it shows in code (`Session`, `insertTablet(...)`,
// `isOpen: boolean`) must be an export of @iotdb/client or @iotdb/fast-serializer, or a member of one of their
// exported classes and types, as the TypeScript compiler sees the sources; and every exported class is on the page.

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const API_MD = readFileSync(root('docs/API.md'), 'utf8');

/** Words in code spans that are not names of this package: JavaScript's, SQL's, placeholders. */
const NOT_OURS = new Set([
  'require',
  'Date',
  'Float64Array',
  'BigInt64Array',
  'Int32Array',
  'Uint8Array',
  'USE',
  'Time',
  'fn',
  'Row',
]);

/** The error `code` strings, as the two errors.ts files spell them. */
const ERROR_CODES = new Set(
  ['packages/client/src/errors.ts', 'packages/fast-serializer/src/errors.ts']
    .map((path) => readFileSync(root(path), 'utf8'))
    .flatMap((source) => [...source.matchAll(/'(IOTDB_[A-Z_]+)'/g)].map((m) => m[1])),
);

interface PublicNames {
  /** every exported name of both packages */
  exports: Set<string>;
  /** exported classes of @iotdb/client */
  classes: string[];
  /** members (instance, static, properties of types) of every export */
  members: Set<string>;
}

function publicNames(): PublicNames {
  const entries = [root('packages/client/src/index.ts'), root('packages/fast-serializer/src/index.ts')];
  const program = ts.createProgram(entries, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'],
    types: ['node'],
    noEmit: true,
    paths: { '@iotdb/fast-serializer': [entries[1]], '@iotdb/client': [entries[0]] },
  });
  const checker = program.getTypeChecker();
  const names: PublicNames = { exports: new Set(), classes: [], members: new Set() };
  entries.forEach((entry, i) => {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      names.exports.add(exported.name);
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (i === 0 && symbol.flags & ts.SymbolFlags.Class) names.classes.push(exported.name);
      const declaration = symbol.declarations?.[0];
      if (declaration === undefined) continue;
      const types = [checker.getTypeOfSymbolAtLocation(symbol, declaration)];
      if (symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) {
        types.push(checker.getDeclaredTypeOfSymbol(symbol));
      }
      for (const type of types) for (const p of checker.getPropertiesOfType(type)) names.members.add(p.name);
    }
  });
  return names;
}

/** The names a code span shows: a lone identifier, `name(...)`, `name: type`, `new Name(...)`, calls in it. */
function namesIn(code: string): string[] {
  const lone = /^(?:new\s+)?([A-Za-z_$][\w$]*)(?:<[^>]*>)?(?:\(.*\))?(?::\s.*)?$/s.exec(code.trim());
  if (lone) return [lone[1]];
  // a call anywhere in a longer span: `session.writer(options?)`, `sql.id(name)`
  return [...code.matchAll(/(?:^|[\s.(,])([A-Za-z_$][\w$]*)\(/g)].map((m) => m[1]);
}

function codeSpans(markdown: string): string[] {
  const withoutBlocks = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...withoutBlocks.matchAll(/(`+)([^`][\s\S]*?)\1/g)].map((m) => m[2]);
}

describe('docs/API.md', () => {
  const names = publicNames();
  const known = (name: string) =>
    names.exports.has(name) || names.members.has(name) || ERROR_CODES.has(name) || NOT_OURS.has(name);
  const spans = codeSpans(API_MD);

  it('shows only names the packages have', () => {
    const shown = spans.flatMap(namesIn);
    expect(shown.length).toBeGreaterThan(100);
    expect([...new Set(shown.filter((name) => !known(name)))]).toEqual([]);
  });

  it('mentions every exported class of @iotdb/client', () => {
    expect(names.classes.length).toBeGreaterThan(10);
    const mentioned = (name: string) => spans.some((code) => new RegExp(`\\b${name}\\b`).test(code));
    expect(names.classes.filter((name) => !mentioned(name))).toEqual([]);
  });

  it('would catch a name that does not exist', () => {
    expect(codeSpans('`measureTablet(tablet)` and `Session`').flatMap(namesIn)).toEqual(['measureTablet', 'Session']);
    expect(known('measureTablet')).toBe(false);
    expect(known('IOTDB_NO_SUCH_CODE')).toBe(false);
  });
});
