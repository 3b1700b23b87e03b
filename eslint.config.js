// ESLint: typescript-eslint's type-checked recommended rules over the TypeScript sources, the plain JS
// recommended rules over the examples and scripts; Prettier owns the formatting (eslint-config-prettier).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// The Node globals that plain JS files (examples, scripts) may use; TypeScript files get them from @types/node.
// Listed here rather than taken from the `globals` package, to keep the dev dependencies as they are.
const nodeGlobals = Object.fromEntries(
  [
    'AbortController',
    'AbortSignal',
    'Buffer',
    'TextDecoder',
    'TextEncoder',
    'URL',
    'URLSearchParams',
    'clearImmediate',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'performance',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);
const commonJsGlobals = {
  require: 'readonly',
  module: 'writable',
  exports: 'writable',
  __dirname: 'readonly',
  __filename: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'packages/bench/src/generated/**',
      'bench-results/**',
      'docs/api/**',
      // a user's app, type-checked by the packaging test against the installed tarballs (node16 and bundler)
      'packaging/app/**/*.{ts,cts,mts}',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project: './tsconfig.lint.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      // a leading underscore marks a binding that is there for its position only (`for await (const _row of ds)`)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // reject with what may be thrown (only-throw-error's defaults): an abort signal's `reason` (typed any) and a
      // caught `unknown` are passed on as they are, as `throw` would
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  {
    // Test callbacks stand in for user code, which passes `async (s) => ...` to execute()/on() with or without an
    // await, and a fake's `async` method keeps a throw a rejection, as in the real one.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: commonJsGlobals },
    // CommonJS loads with require(): that is what a .cjs file is for (the packaging test's CJS consumer)
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
