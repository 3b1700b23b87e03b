/**
 * Parsers for knob values. A value comes as a string (flag, environment, YAML) or as a JSON value
 * (config file); a parser accepts both forms and throws InvalidValue saying what it needs.
 */
import { InvalidValue } from './errors.js';

/** A JSON value: what a config file can hold. Flags and the environment always give strings. */
export type RawValue = string | number | boolean | null | RawValue[] | { [key: string]: RawValue };

export type Parser<T> = (raw: RawValue) => T;

const DIGITS = /^\d+(?:_\d+)*$/; // 10_000_000 is allowed
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A safe integer in [min, max]; strings may group digits with `_`. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  const needs = max === Number.MAX_SAFE_INTEGER ? `needs an integer >= ${min}` : `needs an integer in [${min}, ${max}]`;
  return (raw) => {
    const n =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && DIGITS.test(raw.trim())
          ? Number(raw.trim().replaceAll('_', ''))
          : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidValue(needs);
    return n;
  };
}

/** A non-negative finite number, or undefined when the raw value is not one. */
export function nonNegativeNumber(raw: RawValue): number | undefined {
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && DECIMAL.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Any finite number, negative too. */
export const finiteNumber: Parser<number> = (raw) => {
  const s = typeof raw === 'string' ? raw.trim() : undefined;
  const n = typeof raw === 'number' ? raw : s !== undefined && s !== '' ? Number(s) : NaN;
  if (!Number.isFinite(n)) throw new InvalidValue('needs a number');
  return n;
};

/** A share in [0, 1]. */
export const ratio: Parser<number> = (raw) => {
  const n = nonNegativeNumber(raw);
  if (n === undefined || n > 1) throw new InvalidValue('needs a number in [0, 1]');
  return n;
};

export function oneOf<T extends string>(values: readonly T[]): Parser<T> {
  return (raw) => {
    const s = typeof raw === 'string' ? raw.trim() : undefined;
    const found = values.find((v) => v === s);
    if (found === undefined) throw new InvalidValue(`needs one of ${values.join(', ')}`);
    return found;
  };
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

export const bool: Parser<boolean> = (raw) => {
  if (typeof raw === 'boolean') return raw;
  const s = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (s !== undefined && TRUE.includes(s)) return true;
  if (s !== undefined && FALSE.includes(s)) return false;
  throw new InvalidValue('needs true or false');
};

/** A non-empty string matching `pattern`; `needs` says what that is. */
export function text(pattern = /\S/, needs = 'needs a non-empty string'): Parser<string> {
  return (raw) => {
    if (typeof raw !== 'string' || !pattern.test(raw)) throw new InvalidValue(needs);
    return raw;
  };
}

/**
 * A list: a JSON/YAML array, or a comma-separated string (`''` is the empty list). Entries are
 * distinct; `minLength` entries at least.
 */
export function listOf<T>(item: Parser<T>, minLength = 0): Parser<T[]> {
  return (raw) => {
    if (!Array.isArray(raw) && typeof raw !== 'string') throw new InvalidValue('needs a comma-separated list');
    const entries: RawValue[] = Array.isArray(raw) ? raw : splitList(raw);
    if (entries.length < minLength)
      throw new InvalidValue(`needs at least ${minLength} comma-separated entr${minLength === 1 ? 'y' : 'ies'}`);
    const out = entries.map((e) => {
      try {
        return item(e);
      } catch (err) {
        if (err instanceof InvalidValue) throw new InvalidValue(`entry ${JSON.stringify(e)} ${err.message}`);
        throw err;
      }
    });
    const dup = entries.find((e, i) => entries.findIndex((f) => JSON.stringify(f) === JSON.stringify(e)) !== i);
    if (dup !== undefined) throw new InvalidValue(`lists ${JSON.stringify(dup)} twice`);
    return out;
  };
}

function splitList(s: string): string[] {
  return s.trim() === '' ? [] : s.split(',').map((e) => e.trim());
}

const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[^:\s[\]]+):(\d+)$/;

/** `host:port`, IPv6 hosts in brackets (`[::1]:6667`). */
export const hostPort: Parser<string> = (raw) => {
  const m = typeof raw === 'string' ? HOST_PORT.exec(raw.trim()) : null;
  const port = m === null ? 0 : Number(m[2]);
  if (m === null || port < 1 || port > 65535) throw new InvalidValue('needs host:port');
  return `${m[1]}:${port}`;
};

/** The host (IPv6 without its brackets) and port of a `host:port` that `hostPort` took. */
export function endpointOf(hostAndPort: string): { host: string; port: number } {
  const [, host, port] = HOST_PORT.exec(hostAndPort)!;
  return { host: host.replace(/^\[(.*)\]$/, '$1'), port: Number(port) };
}
