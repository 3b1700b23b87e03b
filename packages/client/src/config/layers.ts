import { endpointKey } from '../cluster/endpoint.js';
import type { PoolOptions } from '../pool/pool-options.js';
import type { RetryOptions } from '../retry/retry-policy.js';
import type { TableSessionOptions } from '../session/options.js';
import { parseConnectionString, type ConnectionStringParts } from './connection-string.js';
import { readEnv, type EnvOptions, type EnvValue } from './env.js';
import { describe } from './checks.js';
import { checkKnownKeys, type IssueList } from './issues.js';
import { DEFAULT_PORT, RETRY_KEYS, knownOptions, nameElsewhere, type ConfigTarget } from './known-options.js';

/** Options as one plain object, every layer applied: what the per-field checks and defaults then take. */
export type LayeredOptions = Omit<TableSessionOptions, 'url'> & PoolOptions;

/**
 * Applies the documented precedence, per option: the options object, then its connection string
 * (`url`, or the string given instead of options), then the environment, then (later) the defaults.
 * The address is one choice: the first layer that names a host (`host`, `nodeUrls`, the URL's hosts,
 * IOTDB_NODE_URLS, IOTDB_HOST) gives the hosts; `port` is then looked up per option like any other.
 * Unknown options and connection string problems go to `issues`.
 */
export function layerOptions(
  input: unknown,
  target: ConfigTarget,
  issues: IssueList,
  env: NodeJS.ProcessEnv = process.env,
): LayeredOptions {
  const given = givenOptions(input, issues);
  checkKnownKeys(given, knownOptions(target), '', issues, nameElsewhere);
  if (isPlainObject(given.retry)) checkKnownKeys(given.retry, RETRY_KEYS, 'retry.', issues);
  const url = urlPartsOf(given.url, target, issues);
  const fromEnv = readEnv(env);
  const merged: Record<string, unknown> = { ...url.params };
  for (const [key, value] of Object.entries(given)) if (value !== undefined && key !== 'url') merged[key] = value;
  merged.retry = retryOf(given.retry, url.params.retry);
  if (url.database !== undefined) merged.database ??= url.database;
  merged.username = given.username ?? url.username ?? envValue(fromEnv.username, issues);
  merged.password = given.password ?? url.password ?? envValue(fromEnv.password, issues);
  Object.assign(merged, addressOf(given, url, fromEnv, issues));
  return merged;
}

/** The options object: a string stands for `{ url: string }`. */
function givenOptions(input: unknown, issues: IssueList): Record<string, unknown> {
  if (input === undefined) return {};
  if (typeof input === 'string') return { url: input };
  if (isPlainObject(input)) return input as Record<string, unknown>;
  issues.add('options', `needs an object or a connection string, got ${input === null ? 'null' : typeof input}`);
  return {};
}

function urlPartsOf(url: unknown, target: ConfigTarget, issues: IssueList): ConnectionStringParts {
  if (url === undefined) return { hosts: [], params: {} };
  if (typeof url === 'string') return parseConnectionString(url, target, issues);
  issues.add('url', `needs a connection string, got ${url === null ? 'null' : typeof url}`);
  return { hosts: [], params: {} };
}

/** `retry` merged per key (options over URL); anything but an object is left for its own check. */
function retryOf(given: unknown, fromUrl: unknown): unknown {
  if (fromUrl === undefined) return given;
  if (given === undefined) return fromUrl;
  if (!isPlainObject(given)) return given;
  const defined = Object.entries(given as RetryOptions).filter(([, v]) => v !== undefined);
  return { ...(fromUrl as RetryOptions), ...Object.fromEntries(defined) };
}

/** host, port and nodeUrls, from the first layer that names a host (see layerOptions). */
function addressOf(
  given: Record<string, unknown>,
  url: ConnectionStringParts,
  fromEnv: EnvOptions,
  issues: IssueList,
): Pick<LayeredOptions, 'host' | 'port' | 'nodeUrls'> {
  const single = url.hosts.length === 1 ? url.hosts[0] : undefined;
  const portOf = () => (given.port ?? single?.port ?? envValue(fromEnv.port, issues)) as number | undefined;
  if (given.nodeUrls !== undefined) {
    checkNotBesideNodeUrls(given, issues);
    return { nodeUrls: given.nodeUrls as string[] };
  }
  if (given.host !== undefined) return { host: given.host as string, port: portOf() };
  if (single !== undefined) return { host: single.host, port: portOf() };
  if (url.hosts.length > 1) {
    const withPorts = url.hosts.flatMap((h) =>
      h.port === undefined ? [] : [endpointKey({ host: h.host, port: h.port })],
    );
    if (withPorts.length === url.hosts.length) checkPortUsed(given, 'the connection string', withPorts, issues);
    const port = portOf() ?? DEFAULT_PORT;
    return { nodeUrls: url.hosts.map((h) => endpointKey({ host: h.host, port: h.port ?? port })), port };
  }
  if (fromEnv.nodeUrls !== undefined) {
    const nodeUrls = envValue(fromEnv.nodeUrls, issues);
    if (nodeUrls !== undefined) checkPortUsed(given, 'IOTDB_NODE_URLS', nodeUrls, issues);
    return { nodeUrls };
  }
  return { host: envValue(fromEnv.host, issues), port: portOf() };
}

/**
 * A `port` option where every node comes with its own port (IOTDB_NODE_URLS, a connection string of several
 * hosts) would not be used: refused, as beside nodeUrls, rather than dropped without a word.
 */
function checkPortUsed(
  given: Record<string, unknown>,
  source: string,
  nodeUrls: readonly string[],
  issues: IssueList,
): void {
  if (given.port === undefined) return;
  issues.add(
    'port',
    `${describe(given.port)} would not be used: the nodes come from ${source}, each with its port (${nodeUrls.join(',')}); give host beside port, or leave port out`,
  );
}

/**
 * `host` or `port` beside `nodeUrls` in the options would not be used (each entry names its node and port): refused,
 * as the Java Session's builder refuses them, rather than dropped without a word.
 */
function checkNotBesideNodeUrls(given: Record<string, unknown>, issues: IssueList): void {
  const unused = [
    ...(given.host === undefined ? [] : [`host ${describe(given.host)}`]),
    ...(given.port === undefined ? [] : [`port ${describe(given.port)}`]),
  ];
  if (unused.length > 0)
    issues.add(
      'nodeUrls',
      `give nodeUrls or host and port, not both: ${unused.join(' and ')} would not be used (each of nodeUrls names a node and its port)`,
    );
}

/** The variable's value; a bad one is reported now, as it is being used. */
function envValue<T>(v: EnvValue<T> | undefined, issues: IssueList): T | undefined {
  if (v === undefined) return undefined;
  if ('issue' in v) {
    issues.add(v.issue.field, v.issue.message);
    return undefined;
  }
  return v.value;
}

function isPlainObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
