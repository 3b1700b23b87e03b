// What goes wrong and how to tell: every error is an IoTDBError with a stable string `code`; subclasses say
// what kind of failure it was. Bad input is refused before anything is sent (IoTDBValidationError, `field`
// names the culprit); a refusal by the server carries IoTDB's status code (IoTDBServerError, `statusCode`);
// a connection that cannot be made is an IoTDBConnectionError (`reason`, `endpoint`).
//
//   node examples/error-handling.mjs       (IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD; default 127.0.0.1:6667)
import { IoTDBConnectionError, IoTDBError, IoTDBServerError, IoTDBValidationError, Session } from '@iotdb/client';

const database = 'root.example_errors';
const session = new Session(); // host, port and credentials from the IOTDB_* environment variables
await session.open();

try {
  // 1. Bad input: two timestamps but one row of values. Refused on the client, nothing goes on the wire,
  //    and the session stays usable.
  try {
    await session.insertTablet({
      deviceId: `${database}.d1`,
      measurements: ['temperature'],
      dataTypes: ['FLOAT'],
      timestamps: [Date.now(), Date.now() + 1000],
      values: [[21.5]],
    });
  } catch (e) {
    if (!(e instanceof IoTDBValidationError)) throw e;
    console.log(`validation: code=${e.code} field=${e.field}: ${e.message}`);
  }

  // 2. The server refuses: a SQL syntax error is status 700 (other codes: 507 type mismatch, 801 wrong password, ...).
  try {
    await session.executeNonQueryStatement(`SELEKT * FROM ${database}.d1`);
  } catch (e) {
    if (!(e instanceof IoTDBServerError)) throw e;
    console.log(`server: code=${e.code} statusCode=${e.statusCode}`);
  }

  // 3. A type mismatch: temperature is FLOAT once written; a TEXT value for it is refused by the server.
  await session.insertRecord({
    deviceId: `${database}.d1`,
    timestamp: Date.now(),
    measurements: ['temperature'],
    dataTypes: ['FLOAT'],
    values: [21.5],
  });
  try {
    await session.executeNonQueryStatement(`INSERT INTO ${database}.d1(time, temperature) VALUES (now(), 'warm')`);
  } catch (e) {
    // Switch on `code` (a string, stable across versions) when you do not need the class's fields.
    if (!(e instanceof IoTDBError)) throw e;
    console.log(`mismatch: code=${e.code} statusCode=${e.statusCode ?? '-'}`);
  }

  // 4. Nothing listening: refused at once (a silent host fails after connectTimeoutMs instead).
  const nowhere = new Session({ nodeUrls: ['127.0.0.1:1'], connectTimeoutMs: 2000 });
  try {
    await nowhere.open();
  } catch (e) {
    if (!(e instanceof IoTDBConnectionError)) throw e;
    console.log(`connection: code=${e.code} reason=${e.reason} endpoint=${e.endpoint}`);
  } finally {
    await nowhere.close();
  }

  console.log('error handling ok');
} finally {
  await session.deleteDatabase(database); // leave the server as we found it
  await session.close();
}
