// Before/after for the TEXT decode: decodeTsBlock of a 1000-row block (the server's block size) of one TEXT column,
// for three kinds of text (non-ASCII, CJK, ASCII), two built checkouts in one process, alternating, median of 40
// rounds of 500 decodes each. Prints each checkout's median µs per block and new/old:
//   node scripts/text-decode-ab.mjs /path/to/old-checkout .
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [oldRepo, newRepo] = [resolve(process.argv[2] ?? '.'), resolve(process.argv[3] ?? '.')];
const load = (repo) => import(pathToFileURL(`${repo}/packages/fast-serializer/dist/index.js`).href);
const sides = { old: await load(oldRepo), new: await load(newRepo) };
const TEXT = [sides.new.TSDataType.TEXT];

/** A TsBlock of a time column and one TEXT column (protocol.md 6.1), no nulls. */
function textBlock(values) {
  const i32 = (n) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  const times = Buffer.alloc(8 * values.length);
  values.forEach((_, i) => times.writeBigInt64BE(BigInt(i), 8 * i));
  const cells = values.flatMap((v) => [i32(Buffer.byteLength(v)), Buffer.from(v, 'utf8')]);
  const header = [i32(1), Buffer.from([5]), i32(values.length), Buffer.from([2, 3])];
  return Buffer.concat([...header, Buffer.from([0]), times, Buffer.from([0]), ...cells]);
}

const shapes = {
  'non-ASCII, 12 characters': Array.from({ length: 1000 }, (_, i) => `température${i % 10}`),
  'CJK, 7-8 characters': Array.from({ length: 1000 }, (_, i) => `传感器温度值${i % 100}`),
  'ASCII, 8 characters': Array.from({ length: 1000 }, (_, i) => `sensor${i % 100}`.padEnd(8, 'x')),
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [name, values] of Object.entries(shapes)) {
  const block = textBlock(values);
  const usPerBlock = ({ decodeTsBlock }) => {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < 500; k++) decodeTsBlock(block, TEXT);
    return Number(process.hrtime.bigint() - t0) / 500 / 1000;
  };
  for (let w = 0; w < 20; w++) for (const side of Object.values(sides)) usPerBlock(side);
  const times = { old: [], new: [] };
  for (let r = 0; r < 40; r++)
    for (const side of r % 2 ? ['old', 'new'] : ['new', 'old']) times[side].push(usPerBlock(sides[side]));
  const [o, n] = [median(times.old), median(times.new)];
  console.log(`${name}: old ${o.toFixed(1)} us, new ${n.toFixed(1)} us a block; new/old ${(n / o).toFixed(3)}`);
}
