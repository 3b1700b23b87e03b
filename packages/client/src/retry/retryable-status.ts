import type { TSStatus } from '@iotdb/fast-serializer';
import { StatusCode, isSuccess } from '../protocol/status.js';

/**
 * Status codes after which a write is tried again: the server (or the region it needs) is not ready
 * yet, and the same request can succeed later. The list is IoTDB's own (StatusUtils.NEED_RETRY in
 * 2.x), plus what a restarting cluster was measured to answer: 301 EXECUTE_STATEMENT_ERROR ("Fail to
 * send plan node", "Connection refused", "All replicas not available") and 305 INTERNAL_SERVER_ERROR,
 * which IoTDB itself retries as "unknown errors" when so configured, plus the cluster codes for a
 * node or replica that cannot be reached or a leader that is changing. Any status the server marks
 * `needRetry` counts too. Writes are idempotent in IoTDB (the same timestamp overwrites), so
 * trying one again can never store anything twice.
 */
export const RETRYABLE_WRITE_CODES: ReadonlySet<number> = new Set([
  301, // EXECUTE_STATEMENT_ERROR (measured while a DataNode restarts)
  305, // INTERNAL_SERVER_ERROR
  306, // DISPATCH_ERROR
  600, // SYSTEM_READ_ONLY (a DataNode that just started)
  602, // STORAGE_ENGINE_NOT_READY
  605, // WRITE_PROCESS_ERROR
  606, // WRITE_PROCESS_REJECT
  610, // WAL_ERROR
  611, // DISK_SPACE_INSUFFICIENT
  708, // QUERY_PROCESS_ERROR
  712, // INTERNAL_REQUEST_TIME_OUT
  713, // INTERNAL_REQUEST_RETRY_ERROR
  717, // TOO_MANY_CONCURRENT_QUERIES_ERROR
  721, // PLAN_FAILED_NETWORK_PARTITION
  901, // CREATE_REGION_ERROR
  904, // CONSENSUS_NOT_INITIALIZED
  905, // REGION_LEADER_CHANGE_ERROR
  906, // NO_AVAILABLE_REGION_GROUP
  907, // LACK_PARTITION_ALLOCATION
  1003, // NO_ENOUGH_DATANODE
  1007, // CAN_NOT_CONNECT_DATANODE
  1012, // NO_AVAILABLE_REPLICA
  1103, // SYNC_CONNECTION_ERROR
]);

/**
 * 301 wraps whatever failed while the statement ran: the transient causes above, but also a request that can
 * never succeed, which trying again for the whole retry budget (60 s by default) would only delay. Measured on
 * 2.0.1-beta: a table-model write into a database that does not exist answers 301 "... Unknown database <name>",
 * a tree-model path the server cannot place "... <path> is not a legal path", a write by a user who may not create
 * its series (or database) "... No permissions for this operation, please add privilege WRITE_SCHEMA ...", and a
 * device above a database (root.a while root.a.b is one) "... Failed to get database Map" (the server gives that
 * after the ConfigNode answered, when no database can hold the device).
 */
const NEVER_SUCCEEDS_301 =
  /\bUnknown database\b|\bis not a legal path\b|\bNo permissions for this operation\b|\bFailed to get database Map\b/;

/**
 * A status the server wrapped in another, its message `TSStatus(code:600, message:...)`: measured on 2.0.1-beta
 * during a rolling restart, a 507 around a 600 SYSTEM_READ_ONLY from a DataNode that had just started.
 */
const WRAPPED_STATUS = /^TSStatus\(code:(\d+), message:(.*)\)$/s;

/**
 * A write that failed with this status may succeed when sent again (302: when every failed entry may; a wrapped
 * status: when the inner one may).
 */
export function isRetryableWriteStatus(
  status: Pick<TSStatus, 'code' | 'message' | 'needRetry' | 'subStatus'>,
): boolean {
  if (status.needRetry === true) return true;
  if (status.code === StatusCode.MULTIPLE_ERROR) {
    const subs = status.subStatus ?? [];
    return subs.length > 0 && subs.every((s) => isSuccess(s.code) || isRetryableWriteStatus(s));
  }
  if (status.code === StatusCode.EXECUTE_STATEMENT_ERROR && NEVER_SUCCEEDS_301.test(status.message ?? '')) return false;
  if (RETRYABLE_WRITE_CODES.has(status.code)) return true;
  const inner = WRAPPED_STATUS.exec(status.message ?? '');
  return inner !== null && isRetryableWriteStatus({ code: Number(inner[1]), message: inner[2] });
}

/**
 * Codes that say the server could not reach the node or replica a statement needed, and 301s that wrap that
 * (measured on 2.0.1-beta: a query on a live DataNode of a 1C3D whose data needed one just killed answered
 * "[301] Connection refused", and one already reading from it "[301] Source handle is aborted.": the server gives
 * that when the exchange from another node's part of the query failed without a cause of its own). A read answered
 * so is sent again: it changes nothing, and the cluster moves the dead node's regions to their other replicas
 * within seconds. Any other status is the read's answer.
 */
const UNREACHABLE_CODES: ReadonlySet<number> = new Set([
  306, // DISPATCH_ERROR
  721, // PLAN_FAILED_NETWORK_PARTITION
  1007, // CAN_NOT_CONNECT_DATANODE
  1012, // NO_AVAILABLE_REPLICA
]);
const UNREACHABLE_301 =
  /\bConnection refused\b|\bAll replicas not available\b|\bFail to send plan node\b|\bSource handle is aborted\b/;
/**
 * A DataNode that could not reach the ConfigNode for the schema a read needed: measured on 2.0.1-beta with the
 * ConfigNode down, a query answered "[305] ... Fail to connect to any config node. Please check status of
 * ConfigNodes ..." after a second (a write [301], retried as a write's 301 is), and the same query went through
 * once the ConfigNode was back.
 */
const CONFIG_NODE_UNREACHABLE = /\bFail to connect to any config node\b/;
/** Of the codes that wrap whatever failed, the messages that say a node the read needed could not be reached. */
const UNREACHABLE_MESSAGES: ReadonlyMap<number, RegExp> = new Map([
  [StatusCode.EXECUTE_STATEMENT_ERROR, new RegExp(`${UNREACHABLE_301.source}|${CONFIG_NODE_UNREACHABLE.source}`)],
  [StatusCode.INTERNAL_SERVER_ERROR, CONFIG_NODE_UNREACHABLE],
]);

/**
 * A read that failed with this status may succeed when sent again: the server could not reach a node it needed.
 * Not `needRetry`: IoTDB 2.0.1 marks a query it timed out (712 "Current query is time out") so, and a slow read
 * sent again would be as slow, until the retry budget.
 */
export function isRetryableReadStatus(status: Pick<TSStatus, 'code' | 'message'>): boolean {
  if (UNREACHABLE_CODES.has(status.code)) return true;
  return UNREACHABLE_MESSAGES.get(status.code)?.test(status.message ?? '') === true;
}
