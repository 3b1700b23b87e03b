import type { TSStatus } from '@iotdb/fast-serializer';
import { IoTDBServerError } from '../errors.js';

/**
 * The TSStatus codes the client acts on, and those an application commonly tells apart in an IoTDBServerError's
 * `statusCode` (service-rpc TSStatusCode's names).
 */
export const StatusCode = {
  SUCCESS: 200,
  INCOMPATIBLE_VERSION: 201,
  EXECUTE_STATEMENT_ERROR: 301,
  MULTIPLE_ERROR: 302,
  INTERNAL_SERVER_ERROR: 305,
  REDIRECTION_RECOMMEND: 400,
  /** CREATE DATABASE of one there already (a user granted nothing on it does not see it in SHOW DATABASES) */
  DATABASE_ALREADY_EXISTS: 501,
  METADATA_ERROR: 507,
  /** a path not there (DELETE DATABASE, DELETE TIMESERIES) */
  PATH_NOT_EXIST: 508,
  DATA_TYPE_MISMATCH: 614,
  /** a statement the server cannot run as asked (an aggregate given what it does not take) */
  SEMANTIC_ERROR: 701,
  WRONG_LOGIN_PASSWORD: 801,
  /** the user lacks a privilege the statement needs (the message names it) */
  NO_PERMISSION: 803,
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
