import type { ValidationIssue } from '@iotdb/fast-serializer';
import { endpointKey, parseEndpoint } from '../cluster/endpoint.js';

/** A variable's value, or why it cannot be used (reported only if nothing above it gives the option). */
export type EnvValue<T> = { readonly value: T } | { readonly issue: ValidationIssue };

/** What the environment says, per option; absent when its variable is unset or empty. */
export interface EnvOptions {
  readonly host?: EnvValue<string>;
  readonly port?: EnvValue<number>;
  readonly username?: EnvValue<string>;
  readonly password?: EnvValue<string>;
  readonly nodeUrls?: EnvValue<string[]>;
}

/** The variables a session or pool reads, by the option each one gives. */
export const ENV_VARIABLES = Object.freeze({
  host: 'IOTDB_HOST',
  port: 'IOTDB_PORT',
  username: 'IOTDB_USER',
  password: 'IOTDB_PASSWORD',
  nodeUrls: 'IOTDB_NODE_URLS',
});

/**
 * Reads IOTDB_HOST, IOTDB_PORT, IOTDB_USER, IOTDB_PASSWORD and IOTDB_NODE_URLS (comma-separated
 * 'host:port'). An empty variable counts as unset. A bad value is not an error yet: only when it
 * would be used (Kubernetes, for one, sets `IOTDB_PORT=tcp://...` beside a service named iotdb).
 */
export function readEnv(env: NodeJS.ProcessEnv = process.env): EnvOptions {
  const text = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  const [host, port, username, password, nodeUrls] = [
    text(ENV_VARIABLES.host),
    text(ENV_VARIABLES.port),
    text(ENV_VARIABLES.username),
    text(ENV_VARIABLES.password),
    text(ENV_VARIABLES.nodeUrls),
  ];
  return {
    ...(host === undefined ? {} : { host: { value: host.trim() } }),
    ...(port === undefined ? {} : { port: portOf(port.trim()) }),
    ...(username === undefined ? {} : { username: { value: username } }),
    ...(password === undefined ? {} : { password: { value: password } }),
    ...(nodeUrls === undefined ? {} : { nodeUrls: nodeUrlsOf(nodeUrls) }),
  };
}

function portOf(text: string): EnvValue<number> {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (port >= 1 && port <= 65535) return { value: port };
  return { issue: { field: ENV_VARIABLES.port, message: `needs a port 1-65535, got '${text}'` } };
}

function nodeUrlsOf(text: string): EnvValue<string[]> {
  const urls = text.split(',').map((u) => u.trim());
  const bad = urls.filter((u) => !isEndpoint(u));
  if (bad.length === 0) return { value: urls.map((u) => endpointKey(parseEndpoint(u, ENV_VARIABLES.nodeUrls))) };
  const message = `needs comma-separated 'host:port' ('[ipv6]:port'), got ${bad.map((u) => `'${u}'`).join(', ')}`;
  return { issue: { field: ENV_VARIABLES.nodeUrls, message } };
}

function isEndpoint(url: string): boolean {
  try {
    parseEndpoint(url, ENV_VARIABLES.nodeUrls);
    return true;
  } catch {
    return false;
  }
}
