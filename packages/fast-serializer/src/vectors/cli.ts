#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { checkVectorFile } from './check-vectors.js';
import { parseVectorFile } from './vector-file.js';

/**
 * `pnpm vectors FILE...`: checks vector files (insert-tablet or tsblock, told apart by content)
 * against this codec. One line per case, then `N passed, M failed`; exit code 1 on any failure.
 */
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: pnpm vectors FILE...   (insert-tablet or tsblock vector files)');
  process.exit(2);
}
let passed = 0;
let failed = 0;
for (const file of files) {
  let results;
  try {
    results = checkVectorFile(parseVectorFile(readFileSync(file, 'utf8')));
  } catch (e) {
    console.log(`FAIL ${file}: ${(e as Error).message}`);
    failed++;
    continue;
  }
  for (const r of results) {
    const label = files.length > 1 ? `${file}:${r.name}` : r.name;
    if (r.problem === undefined) {
      console.log(`ok ${label}`);
      passed++;
    } else {
      console.log(`FAIL ${label}: ${r.problem}`);
      failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
