import { describe, expect, it } from 'vitest';
import { utf8Length, writeUtf8 } from './utf8.js';

const samples = [
  '',
  'a',
  'value-07',
  'x'.repeat(64),
  'y'.repeat(65),
  'héllo',
  '中文字符',
  'emoji 🚀 "q"',
  '\u0080\u07ff\u0800\uffff',
  'lone high \ud800 here',
  'lone low \udc00',
  'pair at end \ud83d\ude80',
  'high at end \ud83d',
  'é'.repeat(80),
];

describe('utf8', () => {
  it.each(samples)('measures %j like Buffer.byteLength', (s) => {
    expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
  });

  it.each(samples.filter((s) => s.isWellFormed()))('writes %j like Buffer.from', (s) => {
    const out = Buffer.alloc(utf8Length(s) + 2, 0xee);
    const n = writeUtf8(out, 1, s);
    expect(n).toBe(Buffer.byteLength(s));
    expect(out.subarray(1, 1 + n)).toEqual(Buffer.from(s, 'utf8'));
    expect(out[0]).toBe(0xee);
    expect(out[1 + n]).toBe(0xee);
  });

  it.each(samples.filter((s) => !s.isWellFormed()))(
    'refuses %j, which UTF-8 cannot carry (Buffer would write U+FFFD for its lone surrogate)',
    (s) => {
      expect(writeUtf8(Buffer.alloc(utf8Length(s)), 0, s)).toBe(-1);
    },
  );

  it('agrees with Buffer on random UTF-16 (surrogates included), refusing what is not well-formed', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 2000; k++) {
      const len = Math.floor(rnd() * 20);
      let s = '';
      for (let i = 0; i < len; i++) {
        const pick = rnd();
        s += String.fromCharCode(
          pick < 0.5
            ? Math.floor(rnd() * 0x80)
            : pick < 0.7
              ? 0xd800 + Math.floor(rnd() * 0x800)
              : Math.floor(rnd() * 0x10000),
        );
      }
      expect(utf8Length(s)).toBe(Buffer.byteLength(s));
      const out = Buffer.alloc(utf8Length(s));
      if (!s.isWellFormed()) expect(writeUtf8(out, 0, s)).toBe(-1);
      else {
        expect(writeUtf8(out, 0, s)).toBe(out.length);
        expect(out).toEqual(Buffer.from(s));
      }
    }
  });
});
