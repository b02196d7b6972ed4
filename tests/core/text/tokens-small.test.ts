/**
 * Token helpers on small inputs, with expected values from independent sources: `TextEncoder` for UTF-8 lengths,
 * the documented byte bound recomputed with `TextEncoder`, and a brute-force cut that counts every candidate
 * prefix. Quick enough for the mutation run (vitest.mutate.config.ts), which leaves the long-text chunking
 * properties out.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random';
import { countTokens, countTokensUpTo, tokenPrefixEnd, utf8Length } from '../../../src/core/text/tokens';

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;
const isSpace = (ch: string) => /\s/.test(ch);

describe('utf8Length', () => {
  it('equals TextEncoder’s byte count at every boundary of the UTF-8 length classes', () => {
    const units = [
      0x00, 0x41, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x4e2d, 0xd7ff, 0xe000, 0xfffd, 0xffff,
      // Surrogates on their own (TextEncoder writes U+FFFD, 3 bytes, for each lone one).
      0xd800, 0xdbff, 0xdc00, 0xdfff,
    ];
    for (const u of units) {
      const text = String.fromCharCode(u);
      expect(utf8Length(text), `U+${u.toString(16)}`).toBe(bytesOf(text));
    }
  });

  it('equals TextEncoder’s byte count on surrogate pairs, lone and misordered surrogates and mixtures', () => {
    const texts = [
      '',
      'plain ASCII text',
      'naïve café',
      '中文字符',
      '😀',
      'a😀b',
      '𝔘𝔫𝔦',
      '\ud800\udc00',
      '\udbff\udfff',
      '\ud800', // a high surrogate at the end
      'a\ud800', // … after another character
      '\ud800a', // … followed by a non-surrogate
      '\ud800\ud800\udc00', // a lone high surrogate, then a pair
      '\udc00\ud800', // misordered halves: two lone surrogates
      '\ud7ff\udc00', // just below the high range, then a lone low surrogate
      '\ud800\ue000', // a high surrogate followed by a unit just above the low range
      '\ud800\udbff', // two high surrogates
      '👨‍👩‍👧 🇫🇷 é',
    ];
    for (const text of texts) expect(utf8Length(text), JSON.stringify(text)).toBe(bytesOf(text));
  });

  it('equals TextEncoder’s byte count on random strings of code units (seeded)', () => {
    const random = seededRandom(12);
    const pool = [0x20, 0x61, 0x7f, 0x80, 0x7ff, 0x800, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff];
    for (let trial = 0; trial < 200; trial++) {
      const length = Math.floor(random() * 12);
      const text = String.fromCharCode(
        ...Array.from({ length }, () => pool[Math.floor(random() * pool.length)]),
      );
      expect(utf8Length(text), JSON.stringify(text)).toBe(bytesOf(text));
    }
  });
});

describe('countTokensUpTo beyond the limit', () => {
  /** The documented bound: ⌈bytes / 128⌉ and ⌈letter bytes / 48⌉, whichever is larger (bytes by TextEncoder). */
  function documentedBound(text: string): number {
    const letterBytes = [...text.matchAll(/\p{L}+/gu)].reduce((sum, [run]) => sum + bytesOf(run), 0);
    return Math.max(Math.ceil(bytesOf(text) / 128), Math.ceil(letterBytes / 48));
  }

  it('returns the byte bound, a lower bound of the true count, when letters alone prove the text too long', () => {
    // 2,000 CJK letters: 6,000 bytes, so ⌈6000 / 48⌉ = 125 > 100 tokens without tokenizing.
    const cjk = '我'.repeat(2000);
    expect(documentedBound(cjk)).toBe(125);
    expect(countTokensUpTo(cjk, 100)).toBe(125);
    expect(countTokens(cjk)).toBeGreaterThanOrEqual(125);
  });

  it('returns the byte bound when the total bytes prove it (spaces, which are not letters)', () => {
    const spaced = 'a' + ' '.repeat(3000) + 'b';
    // 3,002 bytes: ⌈3002 / 128⌉ = 24 tokens at least; letters give only ⌈2 / 48⌉ = 1.
    expect(documentedBound(spaced)).toBe(24);
    expect(countTokensUpTo(spaced, 10)).toBe(24);
    expect(countTokens(spaced)).toBeGreaterThanOrEqual(24);
  });

  it('counts outright when the bound does not exceed the limit', () => {
    const text = 'word '.repeat(60); // 300 characters > 4 × 50, bound ⌈300 / 128⌉ = 3 ≤ 50
    expect(countTokensUpTo(text, 50)).toBe(countTokens(text));
    expect(countTokens(text)).toBeGreaterThan(50);
  });
});

/**
 * The cut rule written out by brute force: the whole range when it fits; else the largest fitting cut of the first
 * level that has one (word ends, Intl.Segmenter word boundaries, grapheme boundaries, code points), where each finer
 * level only looks before the first cut of the coarser level that had cuts but none fitting.
 */
function bruteForceCut(text: string, from: number, to: number, max: number): number {
  if (from >= to || max === 0) return from;
  const fits = (cut: number) => countTokens(text.slice(from, cut)) <= max;
  if (fits(to)) return to;
  const segmentBoundaries = (granularity: 'word' | 'grapheme') => (limit: number) =>
    [...new Intl.Segmenter('en', { granularity }).segment(text.slice(from, limit))]
      .map((s) => from + s.index)
      .filter((i) => i > from);
  const levels: ((limit: number) => number[])[] = [
    (limit) => range(from + 1, limit).filter((i) => isSpace(text[i]) && !isSpace(text[i - 1])),
    segmentBoundaries('word'),
    segmentBoundaries('grapheme'),
    (limit) => range(from + 1, limit).filter((i) => text.codePointAt(i - 1)! <= 0xffff || !isLow(text, i)),
  ];
  let limit = to;
  for (const level of levels) {
    const cuts = level(limit);
    if (cuts.length === 0) continue;
    const fitting = cuts.filter(fits);
    if (fitting.length > 0) return fitting[fitting.length - 1];
    limit = cuts[0];
  }
  return from;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}

/** Whether text[i] is the low half of a surrogate pair that starts at i − 1. */
function isLow(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
}

describe('tokenPrefixEnd against a brute-force cut on short mixed texts', () => {
  const atoms = [
    'word',
    ' ',
    'daughter',
    'naïve',
    '你好',
    '我们今天',
    '。',
    '😀',
    '👨‍👩‍👧',
    '🇫🇷',
    '\n',
    'extraordinarily',
    '𝔘𝔫𝔦',
    ', ',
    'e\u0301',
    'https://x.org/a_b',
    '  ',
  ];
  const random = seededRandom(2024);
  const texts = Array.from({ length: 24 }, () => {
    let text = '';
    const n = 1 + Math.floor(random() * 14);
    for (let i = 0; i < n; i++) text += atoms[Math.floor(random() * atoms.length)];
    return text;
  });

  /**
   * Whether the prefix counts of text.slice(from, cut) never decrease over the code point cuts. Where they do
   * ("extrao" can count more tokens than "extraordinarily"), a probe window that ends inside a word can hide a
   * longer fitting cut, and the cut is only guaranteed to fit (see the second test).
   */
  function countsNeverDecrease(text: string, from: number, to: number): boolean {
    let previous = 0;
    for (let cut = from + 1; cut <= to; cut++) {
      if (isLow(text, cut) && cut < to) continue;
      const tokens = countTokens(text.slice(from, cut));
      if (tokens < previous) return false;
      previous = tokens;
    }
    return true;
  }

  /** The whole range and one slice between inner code point boundaries of each text. */
  const ranges = texts.flatMap((text): [string, number, number][] => {
    const starts = range(1, text.length).filter((i) => !isLow(text, i));
    const out: [string, number, number][] = [[text, 0, text.length]];
    if (starts.length > 2) out.push([text, starts[0], starts[starts.length - 1]]);
    return out;
  });
  const monotone = ranges.filter(([text, from, to]) => countsNeverDecrease(text, from, to));
  const other = ranges.filter(([text, from, to]) => !countsNeverDecrease(text, from, to));

  it('has enough ranges of both kinds for the tests below to mean something', () => {
    expect(monotone.length).toBeGreaterThanOrEqual(15);
    expect(other.length).toBeGreaterThanOrEqual(5);
  });

  it('equals the brute-force cut, for every budget, where prefix counts never decrease', () => {
    for (const [text, from, to] of monotone) {
      const total = countTokens(text.slice(from, to));
      for (let max = 0; max <= total + 1; max++) {
        const where = `[${from}, ${to}) of ${JSON.stringify(text)}, budget ${max}`;
        expect(tokenPrefixEnd(text, from, to, max), where).toBe(bruteForceCut(text, from, to, max));
      }
    }
  });

  it('elsewhere returns a fitting code point boundary, the whole range exactly when it fits', () => {
    for (const [text, from, to] of other) {
      const total = countTokens(text.slice(from, to));
      for (let max = 0; max <= total + 1; max++) {
        const where = `[${from}, ${to}) of ${JSON.stringify(text)}, budget ${max}`;
        const cut = tokenPrefixEnd(text, from, to, max);
        expect(cut >= from && cut <= to, where).toBe(true);
        expect(countTokens(text.slice(from, cut)), where).toBeLessThanOrEqual(max);
        expect(cut === to, where).toBe(total <= max);
        expect(cut === to || !isLow(text, cut), where).toBe(true);
      }
    }
  });
});

describe('tokenPrefixEnd budget errors', () => {
  it('names the invalid budget in the message', () => {
    expect(() => tokenPrefixEnd('some text', 0, 9, -1)).toThrow(
      'maxTokens must be a whole number ≥ 0, got -1.',
    );
    expect(() => tokenPrefixEnd('some text', 0, 9, 2.5)).toThrow(
      'maxTokens must be a whole number ≥ 0, got 2.5.',
    );
  });
});

describe('tokenPrefixEnd at the end of its range', () => {
  it('never looks past `to`, even when the word `to` falls inside ends beyond it', () => {
    // No space until offset 36; `to` = 15 falls inside "there". The word segmenter cuts at every "/".
    const text = 'hello/world/there/again/people/thing x';
    const to = 15;
    for (let max = 1; max <= 8; max++) {
      const cut = tokenPrefixEnd(text, 0, to, max);
      expect(cut, `budget ${max}`).toBeLessThanOrEqual(to);
      expect(countTokens(text.slice(0, cut)), `budget ${max}`).toBeLessThanOrEqual(max);
      expect(cut === to, `budget ${max}`).toBe(countTokens(text.slice(0, to)) <= max);
    }
  });
});
