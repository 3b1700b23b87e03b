import type { Logger } from '../diagnostics/logger.js';
import { collectPoolOptions, type ResolvedPoolOptions } from '../pool/pool-options.js';
import type { ResolvedRetryOptions } from '../retry/retry-policy.js';
import { collectSessionOptions, type ResolvedSessionOptions, type SessionModel } from '../session/options.js';
import { IssueList } from './issues.js';
import { layerOptions } from './layers.js';

/** A pool's configuration: the options of each of its sessions, and the pool's own. */
export interface PoolConfig {
  /** handed as they are to every session the pool opens (resolved once) */
  readonly session: ResolvedSessionOptions;
  readonly pool: ResolvedPoolOptions & { readonly retry: ResolvedRetryOptions; readonly logger: Logger | undefined };
}

/**
 * A pool's options object or connection string (which may carry pool options as parameters, like
 * `?maxSize=4`), resolved as a session's are; every problem, session's and pool's, in one
 * IoTDBValidationError at construction rather than when the first session opens.
 */
export function resolvePoolConfig(
  input: unknown,
  model: SessionModel,
  env: NodeJS.ProcessEnv = process.env,
): PoolConfig {
  const issues = new IssueList();
  const layered = layerOptions(input, { table: model === 'table', pool: true }, issues, env);
  const session = collectSessionOptions(layered, issues);
  const pool = collectPoolOptions(layered, issues);
  issues.throwIfAny();
  return { session, pool: { ...pool, retry: session.retry, logger: session.logger } };
}
