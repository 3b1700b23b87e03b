// Before/after for a decoder or row change: decodeTsBlock, rows through rowBatches() and `for await` of two built
// checkouts, in one process, alternating, on the 5000 x 50 anchor block and on the same block with a third of its
// cells null, the anchor block's rows with int64As 'number' and through `for await` with a query's signal, a 5000 x 10
// block's rows through `for await` and hasNext()/next(), and the decode of the block sizes the server sends (at most
// 1000 rows; 400 in the anchor's ALIGN BY DEVICE result).
// Prints each checkout's median µs per block and the ratio old/new of every round:
//   node scripts/decode-ab.mjs /path/to/old-checkout .
// (the blocks are built by the second checkout's bench package, so the first needs no nullEvery of its own).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const ROWS = 5000;
const SENSORS = 50;
const ROUNDS = 8;
const CALLS = 100;
const [oldRepo, newRepo] = [resolve(process.argv[2] ?? '.'), resolve(process.argv[3] ?? '.')];
const load = async (repo, path) => import(pathToFileURL(`${repo}/packages/${path}`).href);
const checkouts = {};
for (const [name, repo] of [
  ['old', oldRepo],
  ['new', newRepo],
]) {
  const fs = await load(repo, 'fast-serializer/dist/index.js');
  const client = await load(repo, 'client/dist/index.js');
  checkouts[name] = { decodeTsBlock: fs.decodeTsBlock, SessionDataSet: client.SessionDataSet };
}
const { anchorQueryReply, noServerContext } = await load(newRepo, 'bench/dist/workload/anchor-reply.js');
const ctx = noServerContext(ROWS);

/** Rows through `for await` (a query's signal given or not: the iterator checks it at every row). */
async function forAwait(c, { block, reply }, signal) {
  let n = 0;
  const ds = new c.SessionDataSet({ ...ctx, signal }, { ...reply, queryResult: [block] });
  for await (const row of ds) for (const v of row.values) if (v !== null) n++;
  return n;
}

/** Rows the Java way: `while (await ds.hasNext()) await ds.next()`. */
async function hasNextNext(c, { block, reply }) {
  let n = 0;
  const ds = new c.SessionDataSet(ctx, { ...reply, queryResult: [block] });
  while (await ds.hasNext()) for (const v of (await ds.next()).values) if (v !== null) n++;
  return n;
}

async function rowBatches(c, { block, reply }, int64As = 'bigint') {
  let n = 0;
  const numbers = int64As === 'number' ? { int64As, timestampAs: 'number' } : {};
  const ds = new c.SessionDataSet({ ...ctx, ...numbers }, { ...reply, queryResult: [block] });
  for await (const rows of ds.rowBatches()) for (const row of rows) for (const v of row.values) if (v !== null) n++;
  return n;
}

const dense = anchorQueryReply(ROWS, SENSORS);
const tasks = [];
for (const [label, result] of [
  ['dense', dense],
  ['a third null', anchorQueryReply(ROWS, SENSORS, 3)],
]) {
  tasks.push([`decodeTsBlock, ${label}`, (c) => () => c.decodeTsBlock(result.block, result.types)]);
  tasks.push([`rowBatches(), ${label}`, (c) => () => rowBatches(c, result)]);
}
tasks.push([`rowBatches(), int64As 'number'`, (c) => () => rowBatches(c, dense, 'number')]);
tasks.push([`for await, dense`, (c) => () => forAwait(c, dense)]);
const signal = new AbortController().signal;
tasks.push([`for await, dense, a signal`, (c) => () => forAwait(c, dense, signal)]);
const narrow = anchorQueryReply(ROWS, 10);
tasks.push([`for await, ${ROWS} x 10`, (c) => () => forAwait(c, narrow)]);
tasks.push([`hasNext()/next(), ${ROWS} x 10`, (c) => () => hasNextNext(c, narrow)]);
for (const rows of [1000, 400]) {
  const { block, types } = anchorQueryReply(rows, SENSORS);
  tasks.push([`decodeTsBlock, ${rows} x ${SENSORS}`, (c) => () => c.decodeTsBlock(block, types)]);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const results = new Map(tasks.map(([name]) => [name, { old: [], new: [] }]));
for (let round = 0; round < ROUNDS; round++)
  for (const [name, make] of tasks)
    for (const which of ['old', 'new']) {
      const fn = make(checkouts[which]);
      for (let i = 0; i < 20; i++) await fn();
      const times = [];
      for (let i = 0; i < CALLS; i++) {
        const start = process.hrtime.bigint();
        await fn();
        times.push(Number(process.hrtime.bigint() - start) / 1e3);
      }
      results.get(name)[which].push(median(times));
    }
for (const [name, r] of results) {
  const ratios = r.old.map((o, i) => o / r.new[i]).sort((a, b) => a - b);
  console.log(
    `${name.padEnd(30)} old ${median(r.old).toFixed(0)} us, new ${median(r.new).toFixed(0)} us; ` +
      `old/new per round ${ratios.map((x) => x.toFixed(2)).join(' ')}`,
  );
}
