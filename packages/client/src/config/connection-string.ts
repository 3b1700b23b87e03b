import { connectionParams, nameElsewhere, type ConfigTarget, type ParamType } from './known-options.js';
import { unknownNameHint, type IssueList } from './issues.js';

/** One host of a connection string; a host without a port takes the port the other layers give. */
export interface UrlHost {
  readonly host: string;
  readonly port?: number;
}

/** What a connection string says: its hosts, user, database and parameters (options by name). */
export interface ConnectionStringParts {
  readonly hosts: readonly UrlHost[];
  readonly username?: string;
  readonly password?: string;
  readonly database?: string;
  /** the parameters, typed (`retry.x` gathered into `retry`) */
  readonly params: Readonly<Record<string, unknown>>;
}

const SCHEME = /^iotdb:\/\//i;

/**
 * Parses `iotdb://[user[:password]@][host[:port][,host[:port]...]][/database][?name=value[&...]]`.
 * Problems go to `issues`, named `url` (or the parameter); they never quote the string or its user
 * part, which may hold a password.
 */
export function parseConnectionString(url: string, target: ConfigTarget, issues: IssueList): ConnectionStringParts {
  if (!SCHEME.test(url)) {
    issues.add('url', "needs a connection string starting with 'iotdb://'");
    return { hosts: [], params: {} };
  }
  const rest = url.slice('iotdb://'.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const tail = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
  if (tail.includes('@')) {
    // a '/', '?' or '#' in the password ended the host part early: what follows is no path or query
    issues.add('url', "an '@' after the host: percent-encode '/', '?' and '#' in the user and password");
    return { hosts: [], params: {} };
  }
  const at = authority.lastIndexOf('@');
  const user = at < 0 ? {} : userOf(authority.slice(0, at), issues);
  const hosts = hostsOf(authority.slice(at + 1), issues);
  const { path, query } = splitTail(tail, issues);
  const params = paramsOf(query, connectionParams(target), issues);
  const database = databaseOf(path, params, target, issues);
  return { hosts, ...user, ...(database === undefined ? {} : { database }), params };
}

function userOf(userInfo: string, issues: IssueList): { username?: string; password?: string } {
  const colon = userInfo.indexOf(':');
  const username = decoded(colon < 0 ? userInfo : userInfo.slice(0, colon));
  const password = colon < 0 ? undefined : decoded(userInfo.slice(colon + 1));
  if (username === null) issues.add('url', 'the user name is not valid percent-encoding');
  if (password === null) issues.add('url', 'the password is not valid percent-encoding');
  return {
    ...(username ? { username } : {}),
    ...(typeof password === 'string' ? { password } : {}),
  };
}

/** `host`, `host:port`, `[ipv6]`, `[ipv6]:port`, separated by commas; nothing at all is no host. */
function hostsOf(list: string, issues: IssueList): UrlHost[] {
  if (list === '') return [];
  const hosts: UrlHost[] = [];
  list.split(',').forEach((text, i) => {
    const m = /^(?:\[([^\][]+)\]|([^:\][]+))(?::(\d{1,5}))?$/.exec(text);
    const port = m?.[3] === undefined ? undefined : Number(m[3]);
    if (m === null || (port !== undefined && (port < 1 || port > 65535))) {
      // the text is not quoted: it could be the user and a part of a badly encoded password
      issues.add('url', `host ${i + 1} needs 'host', 'host:port' (port 1-65535) or '[ipv6]:port' (IPv6 in brackets)`);
      return;
    }
    hosts.push({ host: m[1] ?? m[2], ...(port === undefined ? {} : { port }) });
  });
  return hosts;
}

function splitTail(tail: string, issues: IssueList): { path: string; query: string } {
  const hash = tail.indexOf('#');
  if (hash >= 0) issues.add('url', "a fragment ('#...') has no meaning in a connection string");
  const body = hash < 0 ? tail : tail.slice(0, hash);
  const q = body.indexOf('?');
  return q < 0 ? { path: body, query: '' } : { path: body.slice(0, q), query: body.slice(q + 1) };
}

function databaseOf(
  path: string,
  params: Record<string, unknown>,
  target: ConfigTarget,
  issues: IssueList,
): string | undefined {
  const name = path === '' || path === '/' ? undefined : decoded(path.slice(1));
  if (name === undefined) return undefined;
  if (name === null || name.includes('/')) {
    issues.add('url', 'the path holds at most a database name (percent-encoded)');
  } else if (!target.table) {
    issues.add('url', 'a database in the path needs a TableSession or a TableSessionPool');
  } else if (params.database !== undefined) {
    issues.add('database', 'given twice in the connection string (path and parameter)');
  } else {
    return name;
  }
  return undefined;
}

/** The query's parameters, each checked against the options the target takes and parsed to its type. */
function paramsOf(
  query: string,
  known: ReadonlyMap<string, Exclude<ParamType, null>>,
  issues: IssueList,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const retry: Record<string, unknown> = {};
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decoded(eq < 0 ? pair : pair.slice(0, eq));
    const text = eq < 0 ? '' : decoded(pair.slice(eq + 1));
    if (name === null || text === null) {
      issues.add('url', 'a parameter is not valid percent-encoding');
      continue;
    }
    const type = known.get(name);
    if (type === undefined) {
      issues.add(name, unknownParam(name, known));
      continue;
    }
    const value = typed(name, text, type, issues);
    if (value === undefined) continue;
    const [into, key] = name.startsWith('retry.') ? [retry, name.slice('retry.'.length)] : [params, name];
    if (key in into) issues.add(name, 'given twice in the connection string');
    into[key] = value;
  }
  if (Object.keys(retry).length > 0) params.retry = retry;
  return params;
}

function unknownParam(name: string, known: ReadonlyMap<string, unknown>): string {
  if (['host', 'port', 'username', 'password', 'nodeUrls'].includes(name)) {
    return "not a connection string parameter: the user and the hosts go before the path ('iotdb://user:password@host:port')";
  }
  return `unknown connection string parameter${unknownNameHint(name, new Set(known.keys()), nameElsewhere)}`;
}

function typed(name: string, text: string, type: Exclude<ParamType, null>, issues: IssueList): unknown {
  if (type === 'string') return text;
  if (type === 'boolean') {
    if (text === 'true' || text === 'false') return text === 'true';
    issues.add(name, `needs true or false, got '${text}'`);
    return undefined;
  }
  if (/^-?\d+$/.test(text)) return Number(text);
  issues.add(name, `needs an integer, got '${text}'`);
  return undefined;
}

/** Percent-decoded text, or null when it is not valid percent-encoding ('+' stays '+': `timeZone=+08:00`). */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
