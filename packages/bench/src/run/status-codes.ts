import { IoTDBServerError } from '@iotdb/client';

/** Whether `e` is the server's refusal with status `code` (a StatusCode of @iotdb/client). */
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
