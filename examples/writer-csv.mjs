// Streams a CSV of sensor readings into IoTDB through the batching writer, one row at a time, as an
// ingestion service fed by a file, MQTT or Kafka would: the writer groups rows per device into tablets,
// sends them as insertTablets, applies backpressure to the stream and reports every row it could not write.
//
//   node examples/writer-csv.mjs [file.csv]   (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; IOTDB_DEMO_DB, default root.demo)
//
// CSV columns: time (ISO 8601), site, sensor, then one column per measurement; an empty cell is a null.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { SessionPool } from '@iotdb/client';

const file = process.argv[2] ?? new URL('./data/sensors.csv', import.meta.url);
const database = process.env.IOTDB_DEMO_DB ?? 'root.demo';
const pool = new SessionPool(); // host, port and credentials from the IOTDB_* environment variables

const failed = [];
const writer = pool.writer({
  // declared types; a measurement not listed gets one from its first value (number: DOUBLE, string: TEXT, ...)
  types: { temperature: 'FLOAT', humidity: 'FLOAT', status: 'TEXT' },
  flushIntervalMs: 500,
  // a row the server refuses (after the session's retries) comes back here, with its device and values
  onError: (error, rows) => failed.push({ error: error.message, rows: rows.length }),
});

/** CSV lines to writer rows: `{ deviceId, timestamp, values }`. */
async function* rows(lines) {
  let header;
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const cells = line.split(',');
    if (header === undefined) {
      header = cells;
      continue;
    }
    const [time, site, sensor, ...measured] = cells;
    const values = {};
    header.slice(3).forEach((name, i) => {
      const cell = measured[i] ?? '';
      values[name] = cell === '' ? null : name === 'status' ? cell : Number(cell);
    });
    yield { deviceId: `${database}.${site}.${sensor}`, timestamp: new Date(time), values };
  }
}

try {
  await pipeline(createInterface({ input: createReadStream(file) }), rows, writer.stream());
  await writer.close();
  console.log(JSON.stringify({ ...writer.stats(), failedRows: failed }));
} finally {
  await pool.close();
}
