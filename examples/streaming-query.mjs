// Reads a query result as a stream, never holding it all: rows with `for await`, the same rows a block at a time
// with `ds.rowBatches()`, or columnar batches (one per block the server sends) with `ds.batches()`. More rows are
// fetched as you iterate (`fetchSize` per round trip), and breaking out of the loop releases the query on the server.
// A data set is an async iterable, so `Readable.from(ds)` makes it a Node stream for `pipeline` (here into a CSV
// file, with backpressure: no more rows are fetched than the file takes); a failing stage closes the data set too.
//
//   node examples/streaming-query.mjs      (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Session } from '@iotdb/client';

const database = 'root.example_stream';
const device = `${database}.meter1`;
const rows = 20_000;
const session = new Session(); // host, port and credentials from the IOTDB_* environment variables
await session.open();

try {
  const t0 = Date.now() - rows * 1000;
  await session.insertTablet({
    deviceId: device,
    measurements: ['power'],
    dataTypes: ['DOUBLE'],
    timestamps: Float64Array.from({ length: rows }, (_, i) => t0 + i * 1000),
    columns: [Float64Array.from({ length: rows }, (_, i) => 100 + 50 * Math.sin(i / 100))],
  });

  // Row by row: each row is a RowRecord (timestamp, values, getters by column name or position).
  const ds = await session.executeQueryStatement(`SELECT power FROM ${device}`, { fetchSize: 2000 });
  let count = 0;
  let peak = { power: -Infinity, at: null };
  for await (const row of ds) {
    const power = row.getDouble(`${device}.power`);
    if (power > peak.power) peak = { power, at: row.getTimestamp('Time') };
    count++;
  }
  console.log(`rows: ${count}, peak ${peak.power.toFixed(2)} at ${peak.at.toISOString()}`);

  // The same rows a block at a time: one await per block the server sent rather than one per row (the await
  // costs as much as a narrow row does), rows made as the batch is iterated.
  const byBlock = await session.executeQueryStatement(`SELECT power FROM ${device}`, { fetchSize: 5000 });
  let above120 = 0;
  for await (const rows of byBlock.rowBatches()) {
    for (const row of rows) if (row.getDouble(2) > 120) above120++;
  }
  console.log(`rows above 120: ${above120}`);

  // Batch by batch: typed-array columns, no object per row.
  const byBatch = await session.executeQueryStatement(`SELECT power FROM ${device}`, { fetchSize: 5000 });
  let batches = 0;
  let sum = 0;
  for await (const batch of byBatch.batches()) {
    const power = batch.values[0]; // Float64Array
    for (let i = 0; i < batch.rowCount; i++) sum += power[i];
    batches++;
  }
  console.log(`batches: ${batches}, mean power ${(sum / rows).toFixed(2)}`);

  // Stopping early: leaving the loop closes the data set and frees the query on the server.
  const firstFew = await session.executeQueryStatement(`SELECT power FROM ${device}`);
  for await (const row of firstFew) {
    if (row.getDouble(2) > 120) break; // by position: 1 is Time, 2 the first value column
  }
  console.log('stopped early, data set closed:', firstFew.isClosed);

  // Into a file through stream.pipeline: rows in, CSV lines out.
  const file = join(tmpdir(), `power-${process.pid}.csv`);
  const forFile = await session.executeQueryStatement(`SELECT power FROM ${device}`, { fetchSize: 5000 });
  const toCsv = new Transform({
    writableObjectMode: true,
    transform(row, _encoding, done) {
      done(null, `${row.getTimestamp('Time').toISOString()},${row.getDouble(2)}\n`);
    },
  });
  await pipeline(Readable.from(forFile), toCsv, createWriteStream(file));
  const lines = (await readFile(file, 'utf8')).split('\n').length - 1;
  await rm(file);
  if (lines !== rows) throw new Error(`the file has ${lines} lines for ${rows} rows`);
  console.log(`csv lines: ${lines}, data set closed: ${forFile.isClosed}`);
  console.log('streaming query ok');
} finally {
  await session.deleteDatabase(database); // leave the server as we found it
  await session.close();
}
