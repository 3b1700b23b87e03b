import type { Logger } from './logger.js';
import { emptyStats, type SessionStats } from './stats.js';

/** What a log line says about an error: its code (`IOTDB_*`, a Node code), IoTDB status code, and the error. */
export function errorFields(error: unknown): { code?: string; statusCode?: number; err: unknown } {
  const e = error as { code?: unknown; statusCode?: unknown } | null | undefined;
  return {
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    ...(typeof e?.statusCode === 'number' ? { statusCode: e.statusCode } : {}),
    err: error,
  };
}

/**
 * One session's counters and logger: the code that sees an event calls the method named for it, which
 * counts it and, only when a logger is set, builds the log line. Nothing else reads the options.
 */
export class Recorder {
  readonly stats: SessionStats = emptyStats();
  readonly logger: Logger | undefined;
  /** calls longer than this are logged; 0 when nothing would log them (no logger), so nobody times calls */
  readonly slowCallMs: number;

  constructor(logger: Logger | undefined, slowCallMs: number) {
    this.logger = logger;
    this.slowCallMs = logger === undefined ? 0 : slowCallMs;
  }

  connected(endpoint: string, durationMs: number): void {
    this.stats.connects++;
    this.logger?.info({ event: 'connect', endpoint, durationMs }, `iotdb: connected to ${endpoint}`);
  }

  connectFailed(endpoint: string, error: unknown): void {
    this.stats.connectFailures++;
    this.logger?.warn(
      { event: 'connect-failed', endpoint, ...errorFields(error) },
      `iotdb: could not connect to ${endpoint}`,
    );
  }

  failedOver(from: string | undefined, to: string): void {
    this.stats.failovers++;
    this.logger?.info({ event: 'failover', from, to }, `iotdb: default node is now ${to}`);
  }

  retrying(operation: string, attempt: number, delayMs: number, error: unknown): void {
    this.stats.retries++;
    this.logger?.warn(
      { event: 'retry', operation, attempt, delayMs: Math.round(delayMs), ...errorFields(error) },
      `iotdb: ${operation}: attempt ${attempt} failed, trying again in ${Math.round(delayMs)} ms`,
    );
  }

  gaveUp(operation: string, attempts: number, error: unknown): void {
    this.logger?.error(
      { event: 'gave-up', operation, attempts, ...errorFields(error) },
      `iotdb: ${operation}: failed after ${attempts} attempts`,
    );
  }

  redirected(device: string, endpoint: string): void {
    this.stats.redirects++;
    this.logger?.debug(
      { event: 'redirect', device, endpoint },
      `iotdb: ${device}: its writes and one-device queries go to ${endpoint}`,
    );
  }

  queryNodes(endpoints: readonly string[]): void {
    this.logger?.info({ event: 'query-nodes', endpoints }, `iotdb: queries take turns on ${endpoints.join(', ')}`);
  }

  discoveryFailed(error: unknown): void {
    this.logger?.warn(
      { event: 'discovery-failed', ...errorFields(error) },
      'iotdb: could not learn the DataNodes (SHOW DATANODES); queries take turns on the nodes known so far',
    );
  }

  /** A statement's release (its finished queries' ids), or the new statement id before it, failed (StatementIds). */
  releaseFailed(operation: string, error: unknown): void {
    this.logger?.warn(
      { event: 'release-failed', operation, ...errorFields(error) },
      `iotdb: ${operation} failed: the finished queries' ids stay in the server session until a later release or its close`,
    );
  }

  slowCall(operation: string, durationMs: number, endpoint: string | undefined): void {
    this.logger?.warn(
      { event: 'slow-call', operation, durationMs: Math.round(durationMs), endpoint, slowCallMs: this.slowCallMs },
      `iotdb: ${operation} took ${Math.round(durationMs)} ms`,
    );
  }
}
