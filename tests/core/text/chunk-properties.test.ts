/**
 * Chunking properties on long and awkward inputs (the Cinderella text, generated prose and mixtures, CJK, emoji,
 * an endless sentence) at three budgets. Slow under mutation testing's instrumentation, so the mutation run
 * (vitest.mutate.config.ts) leaves this file out and relies on chunk.test.ts; `npm test` runs both.
 */
import { describe, expect, it } from 'vitest';
import { chunkText, splitSentences, type Chunk } from '../../../src/core/text/chunk';
import { countTokens } from '../../../src/core/text/tokens';
import {
  cinderella,
  CJK,
  EMOJI,
  ENDLESS,
  generatedMix,
  generatedProse,
  graphemeSegmenter,
  LONE_SURROGATE,
  LONG_URL,
  MARKDOWN,
  referenceSentences,
} from '../../support/chunk-inputs';

const INPUTS: Record<string, string> = {
  cinderella,
  'cinderella with CRLF': cinderella.replace(/\n/g, '\r\n'),
  'generated prose': generatedProse(1, 300),
  markdown: MARKDOWN,
  CJK,
  emoji: EMOJI,
  'endless sentence': ENDLESS,
  'long URL': LONG_URL,
  'one long word': 'x'.repeat(20_000),
  'generated mix': generatedMix(2, 3000),
};
/** Inputs whose sentences follow the plain paragraph rule (no markdown block openers). */
const PROSE = [
  'cinderella',
  'cinderella with CRLF',
  'generated prose',
  'CJK',
  'emoji',
  'endless sentence',
  'long URL',
];
const BUDGETS = [20, 100, 512];

function nonWhitespace(text: string): string {
  return text.replace(/\s+/g, '');
}

const cache = new Map<string, Chunk[]>();
function chunksOf(name: string, maxTokens: number): Chunk[] {
  const key = `${name}/${maxTokens}`;
  if (!cache.has(key)) cache.set(key, chunkText(INPUTS[name], { maxTokens }));
  return cache.get(key)!;
}

const CASES = Object.keys(INPUTS).flatMap((name) => BUDGETS.map((max) => [name, max] as const));

describe('chunkText invariants', () => {
  it.each(CASES)('%s, maxTokens %i: exact trimmed slices, in order, within budget', (name, max) => {
    const text = INPUTS[name];
    const chunks = chunksOf(name, max);
    expect(chunks.length).toBeGreaterThan(0);
    let previousEnd = 0;
    for (const chunk of chunks) {
      expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
      expect(chunk.text.length).toBeGreaterThan(0);
      expect(chunk.text).toBe(chunk.text.trim());
      expect(chunk.start).toBeGreaterThanOrEqual(previousEnd);
      // Between chunks lies whitespace only: nothing is lost.
      expect(text.slice(previousEnd, chunk.start).trim()).toBe('');
      expect(chunk.tokens).toBe(countTokens(chunk.text));
      expect(chunk.tokens).toBeLessThanOrEqual(max);
      expect(LONE_SURROGATE.test(chunk.text)).toBe(false);
      previousEnd = chunk.end;
    }
    expect(text.slice(previousEnd).trim()).toBe('');
  });

  it.each(CASES)(
    '%s, maxTokens %i: every non-whitespace character once, in order, punctuation kept',
    (name, max) => {
      const text = INPUTS[name];
      const chunks = chunksOf(name, max);
      expect(chunks.map((c) => nonWhitespace(c.text)).join('')).toBe(nonWhitespace(text));
      const punctuation = (s: string) => s.match(/[.!?。！？]/g)?.length ?? 0;
      expect(chunks.reduce((sum, c) => sum + punctuation(c.text), 0)).toBe(punctuation(text));
    },
  );

  it.each(PROSE.flatMap((name) => BUDGETS.map((max) => [name, max] as const)))(
    '%s, maxTokens %i: a sentence that fits is never split, and moves on only when it does not fit',
    (name, max) => {
      const text = INPUTS[name];
      const chunks = chunksOf(name, max);
      const sentences = referenceSentences(text);
      expect(splitSentences(text)).toEqual(sentences);
      const chunkAt = (offset: number) => chunks.findIndex((c) => c.start <= offset && offset < c.end);
      for (const s of sentences) {
        if (countTokens(text.slice(s.start, s.end)) > max) continue;
        const c = chunkAt(s.start);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(s.end).toBeLessThanOrEqual(chunks[c].end);
        // A fitting sentence that opens a chunk did not fit at the end of the chunk before it.
        if (chunks[c].start === s.start && c > 0 && sentences.some((t) => t.end === chunks[c - 1].end)) {
          expect(countTokens(text.slice(chunks[c - 1].start, s.end))).toBeGreaterThan(max);
        }
      }
    },
  );

  it('keeps emoji and other grapheme clusters whole when they fit', () => {
    for (const max of [20, 100]) {
      const boundaries = new Set([...graphemeSegmenter.segment(EMOJI)].map((g) => g.index));
      for (const chunk of chunksOf('emoji', max)) {
        expect(boundaries.has(chunk.start)).toBe(true);
        expect(chunk.end === EMOJI.length || boundaries.has(chunk.end)).toBe(true);
      }
    }
  });

  it('fills the pieces of an over-long sentence: the next word would not have fitted', () => {
    for (const max of [20, 100]) {
      const chunks = chunksOf('endless sentence', max);
      expect(chunks.length).toBeGreaterThan(1);
      for (let i = 0; i + 1 < chunks.length; i++) {
        const nextWordEnd = ENDLESS.indexOf(' ', chunks[i + 1].start);
        expect(
          countTokens(ENDLESS.slice(chunks[i].start, nextWordEnd < 0 ? ENDLESS.length : nextWordEnd)),
        ).toBeGreaterThan(max);
      }
    }
  });

  it('splits a grapheme longer than the budget between code points, never inside a surrogate pair', () => {
    const tagFlag = '🏴' + '󠁧󠁢󠁳󠁣󠁴'.repeat(8) + '󠁿';
    expect([...graphemeSegmenter.segment(tagFlag)].length).toBe(1);
    const chunks = chunkText(`Flag: ${tagFlag} done.`, { maxTokens: 8 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(LONE_SURROGATE.test(c.text)).toBe(false);
      expect(c.tokens).toBeLessThanOrEqual(8);
    }
    expect(
      chunks
        .map((c) => c.text)
        .join('')
        .replace(/\s/g, ''),
    ).toBe(`Flag:${tagFlag}done.`);
  });
});
