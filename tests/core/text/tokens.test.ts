import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AerieError } from '../../../src/core/errors';
import { seededRandom } from '../../../src/core/random';
import {
  countTokens,
  countTokensUpTo,
  isPairMiddle,
  isWhitespaceCode,
  TokenBudgetError,
  tokenPrefixEnd,
  truncateToTokens,
} from '../../../src/core/text/tokens';

/** cl100k counts written by tests/fixtures/chunk/make-cl100k-counts.mjs with OpenAI's tiktoken. */
interface Cl100kFixture {
  cases: { label: string; text: string; tokens: number }[];
  officialTree: { id: number; tokens: number }[];
}
const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/chunk/cl100k-counts.json', import.meta.url), 'utf8'),
) as Cl100kFixture;
const officialTree = JSON.parse(
  readFileSync(new URL('../../fixtures/official-cinderella-tree.json', import.meta.url), 'utf8'),
) as { nodes: { id: number; text: string }[] };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const wordsOf = new Intl.Segmenter('en', { granularity: 'word' });

describe('countTokens', () => {
  it('matches the counts printed in OpenAI’s tiktoken cookbook for cl100k_base', () => {
    // "How to count tokens with tiktoken": the cookbook's examples and their cl100k_base token lists.
    expect(countTokens('tiktoken is great!')).toBe(6);
    expect(countTokens('antidisestablishmentarianism')).toBe(6);
    expect(countTokens('2 + 2 = 4')).toBe(7);
    expect(countTokens('お誕生日おめでとう')).toBe(9);
  });

  it.each(fixture.cases.map((c) => [c.label, c] as const))('equals tiktoken cl100k_base on %s', (_, c) => {
    expect(countTokens(c.text)).toBe(c.tokens);
  });

  it('equals tiktoken cl100k_base on every node text of the official Cinderella tree', () => {
    const expected = new Map(fixture.officialTree.map((n) => [n.id, n.tokens]));
    expect(officialTree.nodes.length).toBe(expected.size);
    for (const node of officialTree.nodes)
      expect(countTokens(node.text), `node ${node.id}`).toBe(expected.get(node.id));
  });

  it('is 0 for the empty string and counts special-token text as ordinary text', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });
});

describe('countTokensUpTo', () => {
  it('is exact when the count is within the limit', () => {
    for (const c of fixture.cases) expect(countTokensUpTo(c.text, c.tokens)).toBe(c.tokens);
  });

  it('exceeds the limit when the text does, including unbroken runs too long to tokenize quickly', () => {
    for (const c of fixture.cases)
      if (c.tokens > 1) expect(countTokensUpTo(c.text, c.tokens - 1)).toBeGreaterThan(c.tokens - 1);
    // A 200,000-letter word or CJK run: byte-pair merging it outright would take hours.
    expect(countTokensUpTo('x'.repeat(200_000), 100)).toBeGreaterThan(100);
    expect(countTokensUpTo('我们今天去公园吧天气很好'.repeat(20_000), 512)).toBeGreaterThan(512);
  });
});

describe('truncateToTokens', () => {
  const sentence = 'The quick brown fox jumps over the lazy dog.';

  it('returns the text itself when it fits, and stored cuts on a hand-checked sentence', () => {
    expect(truncateToTokens(sentence, 10)).toBe(sentence);
    expect(truncateToTokens(sentence, 100)).toBe(sentence);
    // The, quick, brown, fox, jumps | over, the, lazy, dog, . — one token per word.
    expect(truncateToTokens(sentence, 5)).toBe('The quick brown fox jumps');
    expect(truncateToTokens(sentence, 1)).toBe('The');
    expect(truncateToTokens(sentence, 0)).toBe('');
  });

  it('cuts English between words, at the longest prefix that fits', () => {
    const text = readFileSync(new URL('../../fixtures/cinderella.txt', import.meta.url), 'utf8').slice(
      0,
      3000,
    );
    for (const max of [1, 7, 20, 100, 333]) {
      const cut = truncateToTokens(text, max);
      expect(text.startsWith(cut)).toBe(true);
      expect(countTokens(cut)).toBeLessThanOrEqual(max);
      expect(/\s/.test(text[cut.length])).toBe(true);
      const nextWordEnd = text.slice(cut.length).search(/\S\s/) + cut.length + 1;
      expect(countTokens(text.slice(0, nextWordEnd))).toBeGreaterThan(max);
    }
  });

  it('cuts text without spaces between words (CJK) and never inside a grapheme that fits', () => {
    const chinese = '我们今天去公园吧天气很好所以大家都很开心'.repeat(5);
    const cut = truncateToTokens(chinese, 12);
    expect(cut.length).toBeGreaterThan(0);
    expect(countTokens(cut)).toBeLessThanOrEqual(12);
    const boundaries = [...wordsOf.segment(chinese)].map((s) => s.index);
    expect(boundaries).toContain(cut.length);

    const family = '👨‍👩‍👧'.repeat(10);
    const familyCut = truncateToTokens(family, 30);
    expect(familyCut.length).toBeGreaterThan(0);
    expect(familyCut.length % '👨‍👩‍👧'.length).toBe(0);
  });

  it('keeps every cut inside the budget and every surrogate pair whole (generated text)', () => {
    const random = seededRandom(7);
    const atoms = ['word', ' ', 'naïve', '你好', '。', '😀', '👨‍👩‍👧', '🇫🇷', '\n', 'x'.repeat(40), '𝔘𝔫𝔦', ', '];
    for (let trial = 0; trial < 60; trial++) {
      let text = '';
      const n = 1 + Math.floor(random() * 80);
      for (let i = 0; i < n; i++) text += atoms[Math.floor(random() * atoms.length)];
      for (const max of [1, 2, 5, 20, 100]) {
        const cut = truncateToTokens(text, max);
        expect(text.startsWith(cut)).toBe(true);
        expect(countTokens(cut)).toBeLessThanOrEqual(max);
        expect(LONE_SURROGATE.test(cut)).toBe(false);
        if (cut !== text) {
          // Not even the first code point fits, or the cut is non-empty.
          const first = String.fromCodePoint(text.codePointAt(0) ?? 0);
          expect(cut.length > 0 || countTokens(first) > max).toBe(true);
        }
      }
    }
  });

  it('splits a grapheme only when the grapheme alone exceeds the budget', () => {
    // Scotland's flag: a black flag and six tag characters, one grapheme of surrogate pairs.
    const flag = '🏴󠁧󠁢󠁳󠁣󠁴󠁿';
    expect([...graphemes.segment(flag)].length).toBe(1);
    expect(countTokens(flag)).toBeGreaterThan(5);
    const cut = truncateToTokens(flag + flag, 5);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(flag.length);
    expect(LONE_SURROGATE.test(cut)).toBe(false);
  });

  it('rejects a negative, fractional or NaN budget with a typed error', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      let error: unknown;
      try {
        truncateToTokens(sentence, bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TokenBudgetError);
      expect(error).toBeInstanceOf(AerieError);
      expect((error as TokenBudgetError).code).toBe('INVALID_MAX_TOKENS');
      expect((error as TokenBudgetError).details.maxTokens).toBe(bad);
    }
  });
});

describe('cuts against brute force (every word end counted)', () => {
  const cinderella = readFileSync(new URL('../../fixtures/cinderella.txt', import.meta.url), 'utf8');

  /** Every word end of `text` (whitespace after a non-space) and the text's end, with the prefix's count. */
  function prefixCounts(text: string): [number, number][] {
    const ends: [number, number][] = [];
    for (let i = 1; i < text.length; i++) {
      if (/\s/.test(text[i]) && !/\s/.test(text[i - 1])) ends.push([i, countTokens(text.slice(0, i))]);
    }
    ends.push([text.length, countTokens(text)]);
    return ends;
  }

  /** The longest prefix ending at a word end (or the whole text) with at most `max` tokens. */
  function bruteForceCut(text: string, counts: [number, number][], max: number): string | undefined {
    if (counts[counts.length - 1][1] <= max) return text;
    const fitting = counts.filter(([, tokens]) => tokens <= max);
    return fitting.length ? text.slice(0, fitting[fitting.length - 1][0]) : undefined;
  }

  it('truncateToTokens takes the longest word-end prefix that fits, for every budget 1 … 140', () => {
    for (const start of [0, 1500, 7000]) {
      const text = cinderella.slice(start, start + 700);
      const counts = prefixCounts(text);
      for (let max = 1; max <= 140; max++) {
        const expected = bruteForceCut(text, counts, max);
        if (expected === undefined) continue; // the first word alone is over budget: finer cuts apply
        expect(truncateToTokens(text, max), `offset ${start}, budget ${max}`).toBe(expected);
      }
    }
  });

  it('tokenPrefixEnd cuts text.slice(from, to) as truncateToTokens cuts that slice', () => {
    const text = cinderella.slice(0, 2000);
    for (const [from, to] of [
      [0, 2000],
      [37, 900],
      [501, 1203],
    ]) {
      for (const max of [0, 1, 3, 17, 60, 250, 1000]) {
        const cut = truncateToTokens(text.slice(from, to), max);
        expect(tokenPrefixEnd(text, from, to, max), `[${from}, ${to}), budget ${max}`).toBe(
          from + cut.length,
        );
      }
    }
    expect(tokenPrefixEnd(text, 40, 40, 5)).toBe(40);
  });
});

describe('character classes', () => {
  it('isWhitespaceCode agrees with JavaScript’s \\s on every UTF-16 code unit', () => {
    const disagree: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (isWhitespaceCode(c) !== /\s/.test(String.fromCharCode(c))) disagree.push(c);
    }
    expect(disagree).toEqual([]);
  });

  it('isPairMiddle is true exactly between the halves of a surrogate pair', () => {
    const text = 'a😀b\ud800c\udc00';
    // a | \ud83d \ude00 | b | \ud800 | c | \udc00
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => isPairMiddle(text, i))).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    // Boundary code units of each surrogate range.
    expect(isPairMiddle('\udbff\udfff', 1)).toBe(true);
    expect(isPairMiddle('\ud800\udc00', 1)).toBe(true);
    expect(isPairMiddle('\ud7ff\udc00', 1)).toBe(false);
    expect(isPairMiddle('\udc00\udc00', 1)).toBe(false);
    expect(isPairMiddle('\ud800\udbff', 1)).toBe(false);
    expect(isPairMiddle('\ud800\ue000', 1)).toBe(false);
  });
});
