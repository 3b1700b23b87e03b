/**
 * The flat YAML subset config files may use: one `key: value` per line, `#` comments, plain or
 * quoted ('...' with '' for a quote, "..." with \" \\ \n \t \r) scalars, `[a, b]` inline lists and
 * `null`/`~` for "not set". Anything nested (indentation, `- item`, `{...}`, `|`, `>`, `key:` without
 * a value) or any other YAML feature is an error naming the line. Scalars stay strings: the knobs parse them.
 */
import { ConfigError } from './errors.js';

export type YamlValue = string | string[] | null;

export interface YamlEntry {
  key: string;
  value: YamlValue;
  line: number;
}

const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/;

export function parseYamlSubset(text: string, path: string): YamlEntry[] {
  const entries: YamlEntry[] = [];
  const firstLine = new Map<string, number>();
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((source, i) => {
      const line = i + 1;
      const fail = (why: string, knob = 'config'): never => {
        throw new ConfigError(knob, `${path}:${line}: ${why}`);
      };
      if (source.trim() === '' || source.trimStart().startsWith('#')) return;
      if (/^\s/.test(source)) fail('nested YAML is not supported (indented line); write flat "key: value" lines');
      if (source.startsWith('-')) fail('block lists ("- item") are not supported; write [a, b] after the key');
      const m = KEY_LINE.exec(source.trimEnd());
      if (m === null) return fail('expected "key: value"');
      const key = m[1];
      const first = firstLine.get(key);
      if (first !== undefined) fail(`duplicate key "${key}" (first on line ${first})`, key);
      firstLine.set(key, line);
      try {
        entries.push({ key, value: parseValue(m[2] ?? ''), line });
      } catch (e) {
        if (e instanceof SyntaxError) fail(`${key}: ${e.message}`, key);
        throw e;
      }
    });
  return entries;
}

/** The value after `key:`, comment included; throws SyntaxError. */
function parseValue(rest: string): YamlValue {
  const s = new Scanner(rest);
  if (s.atEnd()) throw new SyntaxError('has no value; nested YAML is not supported (write null for "not set")');
  const c = s.peek();
  if (c === '{' || c === '|' || c === '>') throw new SyntaxError(`nested YAML ("${c}") is not supported`);
  if (c === '&' || c === '*' || c === '!' || c === '%' || c === '@' || c === '`')
    throw new SyntaxError(`"${c}" (YAML anchors, tags and the like) is not supported`);
  const plain = c !== '[' && c !== '"' && c !== "'";
  const value = c === '[' ? s.list() : s.scalar(true);
  s.end();
  return plain && (value === 'null' || value === '~') ? null : value;
}

class Scanner {
  #s: string;
  #i = 0;

  constructor(s: string) {
    this.#s = s;
    this.#skipSpace();
  }

  peek(): string {
    return this.#s[this.#i] ?? '';
  }

  /** End of input, or only a comment left. */
  atEnd(): boolean {
    return this.#i >= this.#s.length || this.peek() === '#';
  }

  end(): void {
    this.#skipSpace();
    if (!this.atEnd()) throw new SyntaxError(`unexpected "${this.#s.slice(this.#i)}" after the value`);
  }

  list(): string[] {
    this.#i++; // [
    const items: string[] = [];
    this.#skipSpace();
    if (this.peek() === ']') {
      this.#i++;
      return items;
    }
    for (;;) {
      this.#skipSpace();
      const c = this.peek();
      if (c === '[' || c === '{') throw new SyntaxError('nested lists and maps are not supported');
      if (c === ',' || c === ']' || c === '') throw new SyntaxError('empty list entry');
      items.push(this.scalar(false));
      this.#skipSpace();
      const sep = this.peek();
      this.#i++;
      if (sep === ']') return items;
      if (sep !== ',') throw new SyntaxError('unterminated list: expected "," or "]"');
    }
  }

  /** A quoted or plain scalar; plain ones end at ` #` (and, in a list, at `,` or `]`). */
  scalar(topLevel: boolean): string {
    const q = this.peek();
    if (q === '"' || q === "'") return this.#quoted(q);
    const start = this.#i;
    while (this.#i < this.#s.length) {
      const c = this.#s[this.#i];
      if (!topLevel && (c === ',' || c === ']' || c === '[' || c === '{' || c === '}')) break;
      if (c === '#' && /\s/.test(this.#s[this.#i - 1] ?? '')) break;
      if (c === ':' && /\s/.test(this.#s[this.#i + 1] ?? ' '))
        throw new SyntaxError('nested maps ("a: b: c") are not supported');
      this.#i++;
    }
    return this.#s.slice(start, this.#i).trim();
  }

  #quoted(q: string): string {
    let out = '';
    for (this.#i++; this.#i < this.#s.length; this.#i++) {
      const c = this.#s[this.#i];
      if (c === q && q === "'" && this.#s[this.#i + 1] === "'") {
        out += "'";
        this.#i++;
      } else if (c === q) {
        this.#i++;
        return out;
      } else if (c === '\\' && q === '"') {
        const e = this.#s[++this.#i];
        const escaped = ({ '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r' } as Record<string, string>)[e ?? ''];
        if (escaped === undefined) throw new SyntaxError(`unsupported escape "\\${e ?? ''}"`);
        out += escaped;
      } else {
        out += c;
      }
    }
    throw new SyntaxError(`unterminated ${q}-quoted string`);
  }

  #skipSpace(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.#i++;
  }
}
