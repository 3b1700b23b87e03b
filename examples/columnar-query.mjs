// Reads a whole query result as columns with `toColumnar()`: one typed array per value column (Float32Array for
// FLOAT, Int32Array for INT32, BigInt64Array for INT64 and the times, ...) and a null mask where a column has nulls.
// The shape for analytics, charts, or handing the arrays to another library without building row objects.
//
//   node examples/columnar-query.mjs       (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { Session } from '@iotdb/client';

const database = 'root.example_columnar';
const device = `${database}.line1`;
const session = new Session(); // host, port and credentials from the IOTDB_* environment variables
await session.open();

try {
  const t0 = Date.now() - 3_600_000;
  const n = 1000;
  await session.insertTablet({
    deviceId: device,
    measurements: ['speed', 'parts', 'note'],
    dataTypes: ['FLOAT', 'INT32', 'TEXT'],
    timestamps: Float64Array.from({ length: n }, (_, i) => t0 + i * 1000),
    columns: [
      Float32Array.from({ length: n }, (_, i) => 1.5 + (i % 10) / 10),
      Int32Array.from({ length: n }, (_, i) => i),
      Array.from({ length: n }, (_, i) => (i % 100 === 0 ? `checkpoint ${i / 100}` : null)),
    ],
  });

  const ds = await session.executeQueryStatement(`SELECT speed, parts, note FROM ${device}`);
  const { columnNames, columnTypes, timestamps, values, nulls, rowCount } = await ds.toColumnar();
  console.log('columns:', columnNames.map((name, i) => `${name} ${columnTypes[i]}`).join(', '));

  const [speed, parts, note] = values; // Float32Array, Int32Array, (string | null)[]
  const mean = speed.reduce((a, v) => a + v, 0) / rowCount;
  const span = Number(timestamps[rowCount - 1] - timestamps[0]) / 1000; // times are a BigInt64Array
  console.log(
    `${rowCount} rows over ${span} s: mean speed ${mean.toFixed(3)}, last parts count ${parts[rowCount - 1]}`,
  );

  // A column with nulls has a mask (1 = null); a column without has none.
  const notes = nulls[2] ? nulls[2].reduce((a, isNull) => a + (isNull ? 0 : 1), 0) : rowCount;
  console.log(`notes: ${notes}, first "${note[0]}", null mask on speed: ${nulls[0] !== null}`);
  console.log('columnar query ok');
} finally {
  await session.deleteDatabase(database); // leave the server as we found it
  await session.close();
}
