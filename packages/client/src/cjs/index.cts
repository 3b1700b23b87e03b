// The `require` entry point. Node >= 20.19 loads the ES module build itself (require(esm)), so code that
// requires this package and code that imports it share one copy of every class (no dual-package hazard).
// Its types are the declarations built a second time as CommonJS by tsconfig.cjs.json (dist/cjs/*.d.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- require(esm) is what this file is for
import client = require('../index.js');
export = client;
