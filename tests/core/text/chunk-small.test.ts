/**
 * The chunking properties of chunk-properties.test.ts on short inputs, and hand-worked cases for the packing and
 * splitting rules, quick enough for the mutation run (vitest.mutate.config.ts leaves the long-text properties
 * out). Expected values come from the documented rules, with token counts from countTokens (checked against
 * tiktoken in tokens.test.ts) and sentences from Intl.Segmenter (referenceSentences).
 */
import { describe, expect, it } from 'vitest';
import { chunkText, ChunkingError, splitSentences, type Chunk } from '../../../src/core/text/chunk';
import { countTokens } from '../../../src/core/text/tokens';
import {
  cinderella,
  CJK,
  EMOJI,
  ENDLESS,
  generatedMix,
  generatedProse,
  LONE_SURROGATE,
  LONG_URL,
  MARKDOWN,
  referenceSentences,
} from '../../support/chunk-inputs';

const SMALL_INPUTS: Record<string, string> = {
  'Cinderella, first paragraphs': cinderella.slice(0, cinderella.indexOf('.', 1400) + 1),
  'generated prose': generatedProse(4, 15),
  markdown: MARKDOWN,
  CJK,
  emoji: EMOJI.slice(0, EMOJI.indexOf('cake.', 300) + 5),
  'endless sentence': ENDLESS.slice(0, ENDLESS.indexOf(' ', 400)),
  'long URL': LONG_URL,
  'one long word': 'x'.repeat(300),
  'generated mix': generatedMix(3, 150),
};
/** Inputs whose sentences follow the plain paragraph rule (no markdown block openers). */
const PROSE = [
  'Cinderella, first paragraphs',
  'generated prose',
  'CJK',
  'emoji',
  'endless sentence',
  'long URL',
];
const BUDGETS = [5, 12, 40];

const nonWhitespace = (text: string) => text.replace(/\s+/g, '');
const shape = (chunks: Chunk[]) => chunks.map((c) => [c.text, c.tokens]);

/** Exact trimmed slices in order, within budget and counted exactly; nothing lost, nothing repeated. */
function expectTiling(text: string, chunks: Chunk[], max: number): void {
  let previousEnd = 0;
  for (const chunk of chunks) {
    expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.text).toBe(chunk.text.trim());
    expect(chunk.start).toBeGreaterThanOrEqual(previousEnd);
    expect(text.slice(previousEnd, chunk.start).trim()).toBe('');
    expect(chunk.tokens).toBe(countTokens(chunk.text));
    expect(chunk.tokens).toBeLessThanOrEqual(max);
    expect(LONE_SURROGATE.test(chunk.text)).toBe(false);
    previousEnd = chunk.end;
  }
  expect(text.slice(previousEnd).trim()).toBe('');
  expect(chunks.map((c) => nonWhitespace(c.text)).join('')).toBe(nonWhitespace(text));
}

describe('chunkText invariants on short inputs', () => {
  const cases = Object.keys(SMALL_INPUTS).flatMap((name) => BUDGETS.map((max) => [name, max] as const));

  it.each(cases)(
    '%s, maxTokens %i: exact trimmed slices, in order, within budget, nothing lost',
    (name, max) => {
      const text = SMALL_INPUTS[name];
      const chunks = chunkText(text, { maxTokens: max });
      expect(chunks.length).toBeGreaterThan(0);
      expectTiling(text, chunks, max);
    },
  );

  it.each(PROSE.flatMap((name) => BUDGETS.map((max) => [name, max] as const)))(
    '%s, maxTokens %i: a sentence that fits is never split, and moves on only when it does not fit',
    (name, max) => {
      const text = SMALL_INPUTS[name];
      const chunks = chunkText(text, { maxTokens: max });
      const sentences = referenceSentences(text);
      expect(splitSentences(text)).toEqual(sentences);
      const chunkAt = (offset: number) => chunks.findIndex((c) => c.start <= offset && offset < c.end);
      for (const s of sentences) {
        if (countTokens(text.slice(s.start, s.end)) > max) continue;
        const c = chunkAt(s.start);
        expect(c).toBeGreaterThanOrEqual(0);
        expect(s.end).toBeLessThanOrEqual(chunks[c].end);
        if (chunks[c].start === s.start && c > 0 && sentences.some((t) => t.end === chunks[c - 1].end)) {
          expect(countTokens(text.slice(chunks[c - 1].start, s.end))).toBeGreaterThan(max);
        }
      }
    },
  );
});

describe('packing counts each chunk exactly', () => {
  it('moves a sentence on when the join costs a token the per-sentence estimate misses', () => {
    // A space before digits is a token of its own in cl100k: "It was late!" (4) + "1999 came." (4) joined is 9.
    const text = 'It was late! 1999 came.';
    expect([countTokens('It was late!'), countTokens('1999 came.'), countTokens(text)]).toEqual([4, 4, 9]);
    expect(shape(chunkText(text, { maxTokens: 8 }))).toEqual([
      ['It was late!', 4],
      ['1999 came.', 4],
    ]);
    expect(shape(chunkText(text, { maxTokens: 9 }))).toEqual([[text, 9]]);
  });

  it('joins sentences whose line break costs nothing although the estimate charges one token for it', () => {
    // ".\n" is one token: "One.\nTwo." counts 4, not 2 + 2 + 1.
    const text = 'One.\nTwo.';
    expect([countTokens('One.'), countTokens('Two.'), countTokens(text)]).toEqual([2, 2, 4]);
    expect(shape(chunkText(text, { maxTokens: 4 }))).toEqual([[text, 4]]);
    expect(shape(chunkText(`${text}\nThree.`, { maxTokens: 4 }))).toEqual([
      [text, 4],
      ['Three.', 2],
    ]);
  });

  it('packs greedily in the middle of a text, not only at its end', () => {
    // Each sentence is 3 tokens and a joining space costs none: two per chunk at 6, three at 9.
    const text = 'I ran. We sat. He ate. She hid. They left.';
    const sentences = text.split(/(?<=\.) /);
    expect(sentences.map(countTokens)).toEqual([3, 3, 3, 3, 3]);
    expect(chunkText(text, { maxTokens: 6 }).map((c) => c.text)).toEqual([
      'I ran. We sat.',
      'He ate. She hid.',
      'They left.',
    ]);
    expect(chunkText(text, { maxTokens: 9 }).map((c) => c.text)).toEqual([
      'I ran. We sat. He ate.',
      'She hid. They left.',
    ]);
  });
});

describe('splitting an over-long sentence', () => {
  it('starts a chunk at its first clause, then packs its short clauses together', () => {
    const text = 'Hi. One two, three four, five six, seven eight, nine ten.';
    const clauses = ['One two,', 'three four,', 'five six,', 'seven eight,', 'nine ten.'];
    expect([countTokens('Hi.'), ...clauses.map(countTokens)]).toEqual([2, 3, 3, 3, 3, 3]);
    // "Hi." (2) and "One two," (3) would fit in 6 together, but the over-long sentence starts its own chunk.
    expect(chunkText(text, { maxTokens: 6 }).map((c) => c.text)).toEqual([
      'Hi.',
      'One two, three four,',
      'five six, seven eight,',
      'nine ten.',
    ]);
  });

  it('starts a chunk at the first piece of a clause cut between words', () => {
    const text = 'Hi. Alpha beta gamma delta epsilon zeta eta theta.';
    expect(countTokens('Hi. Alpha')).toBeLessThanOrEqual(4);
    const chunks = chunkText(text, { maxTokens: 4 });
    expect(chunks[0].text).toBe('Hi.');
    expectTiling(text, chunks, 4);
    // Every piece is the longest run of words that fits: the next word would not have.
    for (let i = 1; i + 1 < chunks.length; i++) {
      const nextWordEnd = text.indexOf(' ', chunks[i + 1].start);
      expect(
        countTokens(text.slice(chunks[i].start, nextWordEnd < 0 ? text.length : nextWordEnd)),
      ).toBeGreaterThan(4);
    }
  });

  it('does not join the first piece of a clause cut between words to the chunk before it', () => {
    // The long word (6 tokens) does not fit in 4, so the first piece is "Alpha" alone; "Hi." and "Alpha" would
    // fit together, but the piece starts a chunk.
    const text = 'Hi. Alpha antidisestablishmentarianism beta.';
    expect([
      countTokens('Hi.'),
      countTokens('Hi. Alpha'),
      countTokens('Alpha antidisestablishmentarianism'),
    ]).toEqual([2, 3, 7]);
    const chunks = chunkText(text, { maxTokens: 4 });
    expect(chunks.slice(0, 2).map((c) => c.text)).toEqual(['Hi.', 'Alpha']);
    expectTiling(text, chunks, 4);
  });

  it('splits a sentence that ends the text with a clause mark', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa:';
    const chunks = chunkText(text, { maxTokens: 4 });
    expect(chunks.length).toBeGreaterThan(1);
    expectTiling(text, chunks, 4);
  });

  it('keeps a clause mark that opens the next sentence out of the over-long one', () => {
    // Intl.Segmenter ends the first sentence at "!" and starts the second with "…".
    const text = 'Alpha beta gamma delta epsilon!…and then more.';
    expect(splitSentences(text).map((s) => text.slice(s.start, s.end))).toEqual([
      'Alpha beta gamma delta epsilon!',
      '…and then more.',
    ]);
    expectTiling(text, chunkText(text, { maxTokens: 3 }), 3);
  });
});

describe('sentences and blocks', () => {
  it('ends a block at a blank line and at U+2029 even without a full stop', () => {
    expect(splitSentences('Title line\n\nBody text')).toEqual([
      { start: 0, end: 10 },
      { start: 12, end: 21 },
    ]);
    expect(splitSentences('Title\u2029Body')).toEqual([
      { start: 0, end: 5 },
      { start: 6, end: 10 },
    ]);
  });

  it('finds a sentence longer than the segmenter’s first window and the sentences after it', () => {
    const long = `And ${'the pigeons flew over the hazel tree '.repeat(90)}away.`;
    expect(long.length).toBeGreaterThan(3000);
    const text = `${long} Then she went home. She slept.`;
    expect(splitSentences(text)).toEqual(referenceSentences(text));
    expect(splitSentences(text).length).toBe(3);
  });
});

describe('error messages', () => {
  it('name the invalid maxTokens, and the offset and tokens of a character that cannot fit', () => {
    expect(() => chunkText('Some text.', { maxTokens: 0 })).toThrow(
      /maxTokens must be a whole number ≥ 1, got 0/,
    );
    let error: unknown;
    try {
      chunkText('ab 𝔘', { maxTokens: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChunkingError);
    expect((error as ChunkingError).message).toBe(
      `The character at offset 3 alone needs ${countTokens('𝔘')} tokens, more than maxTokens 1.`,
    );
  });
});
