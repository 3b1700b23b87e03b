import { IoTDBServerError } from '@iotdb/client';

/** The IoTDB status codes the benchmark acts on, as IoTDB 2.0.1-beta answers them. */
export const SERVER_CODE = {
  /** CREATE DATABASE of one there already (a user granted nothing on it does not see it in SHOW DATABASES) */
  DATABASE_EXISTS: 501,
  /** DELETE DATABASE or DELETE TIMESERIES of a path not there */
  PATH_NOT_EXIST: 508,
  /** a query the server cannot run as asked (an aggregate given what it does not take) */
  SEMANTIC_ERROR: 701,
  /** the user lacks a privilege the statement needs (the message names it) */
  NO_PERMISSION: 803,
} as const;

/** Whether `e` is the server's refusal with status `code`. */
export function refusedWith(e: unknown, code: number): e is IoTDBServerError {
  return e instanceof IoTDBServerError && e.statusCode === code;
}

/** `p`, where the server's refusal with status `code` counts as done (a database there already, a path not there). */
export async function ignoreCode(p: Promise<void>, code: number): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!refusedWith(e, code)) throw e;
  }
}
