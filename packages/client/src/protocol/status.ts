import type { TSStatus } from '@iotdb/fast-serializer';
import { IoTDBServerError } from '../errors.js';

/** The TSStatus codes the client acts on (service-rpc TSStatusCode). */
export const StatusCode = {
  SUCCESS: 200,
  INCOMPATIBLE_VERSION: 201,
  EXECUTE_STATEMENT_ERROR: 301,
  MULTIPLE_ERROR: 302,
  INTERNAL_SERVER_ERROR: 305,
  REDIRECTION_RECOMMEND: 400,
  METADATA_ERROR: 507,
  DATA_TYPE_MISMATCH: 614,
  WRONG_LOGIN_PASSWORD: 801,
} as const;

/** 200 SUCCESS, or 400 REDIRECTION_RECOMMEND: done, and another node is recommended for next time. */
export function isSuccess(code: number): boolean {
  return code === StatusCode.SUCCESS || code === StatusCode.REDIRECTION_RECOMMEND;
}

/**
 * As Java's RpcUtils.verifySuccess: 200 and 400 (the write succeeded, the server recommends another
 * node) are success; anything else, 302 MULTIPLE_ERROR included, throws with code and message.
 */
export function verifySuccess(status: TSStatus, context: string): void {
  if (isSuccess(status.code)) return;
  throw new IoTDBServerError(status, context);
}
