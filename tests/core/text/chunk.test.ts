import { describe, expect, it } from 'vitest';
import {
  chunkText,
  chunkTextAsync,
  ChunkingError,
  splitSentences,
  type Chunk,
} from '../../../src/core/text/chunk';
import { AerieError } from '../../../src/core/errors';
import { seededRandom } from '../../../src/core/random';
import { countTokens } from '../../../src/core/text/tokens';
import {
  cinderella,
  generatedProse,
  MARKDOWN,
  proseWithTitles,
  referenceSentences,
} from '../../support/chunk-inputs';

describe('chunkText stored results (hand-checked)', () => {
  const shape = (chunks: Chunk[]) => chunks.map((c) => [c.text, c.start, c.end, c.tokens]);

  it('packs whole sentences greedily', () => {
    // Hello|world|. = 3; This|is|a|test|! = 5; Is|it|?|Yes|. = 5, and "test! Is" would make 8.
    expect(shape(chunkText('Hello world. This is a test! Is it? Yes.', { maxTokens: 5 }))).toEqual([
      ['Hello world.', 0, 12, 3],
      ['This is a test!', 13, 28, 5],
      ['Is it? Yes.', 29, 40, 5],
    ]);
  });

  it('splits only the over-long sentence, at its clause punctuation', () => {
    const text = 'alpha beta gamma delta, epsilon zeta eta theta; iota kappa lambda mu. Short one.';
    // Clauses of 5, 6 and 6 tokens; each next clause would overflow 6, and "Short one." (3) cannot join "mu.".
    expect(shape(chunkText(text, { maxTokens: 6 }))).toEqual([
      ['alpha beta gamma delta,', 0, 23, 5],
      ['epsilon zeta eta theta;', 24, 47, 6],
      ['iota kappa lambda mu.', 48, 69, 6],
      ['Short one.', 70, 80, 3],
    ]);
  });

  it('treats a markdown heading and list items as sentences of their own', () => {
    const text = '# Title\nBody text here.\n\n- item one\n- item two';
    expect(shape(chunkText(text, { maxTokens: 4 }))).toEqual([
      ['# Title', 0, 7, 2],
      ['Body text here.', 8, 23, 4],
      ['- item one', 25, 35, 3],
      ['- item two', 36, 46, 3],
    ]);
    expect(shape(chunkText(text))).toEqual([[text, 0, 46, 14]]);
  });

  it('keeps CRLF line ends inside offsets and splits CJK at 。！？ and ，', () => {
    expect(shape(chunkText('One.\r\nTwo.\r\n\r\nThree.', { maxTokens: 2 }))).toEqual([
      ['One.', 0, 4, 2],
      ['Two.', 6, 10, 2],
      ['Three.', 14, 20, 2],
    ]);
    // 你好。= 3, 世界！= 4; the third sentence (17 tokens) splits at ，and then between words.
    expect(shape(chunkText('你好。世界！今天天气很好，我们去公园吧。', { maxTokens: 6 }))).toEqual([
      ['你好。', 0, 3, 3],
      ['世界！', 3, 6, 4],
      ['今天天气', 6, 10, 5],
      ['很好，', 10, 13, 4],
      ['我们去公园', 13, 18, 5],
      ['吧。', 18, 20, 3],
    ]);
  });
});

describe('splitSentences', () => {
  it('reads a line break inside a paragraph as a space, and a blank line as a boundary', () => {
    expect(splitSentences('The wife of a rich man\nfell sick. She died.\n\nNext')).toEqual([
      { start: 0, end: 33 },
      { start: 34, end: 43 },
      { start: 45, end: 49 },
    ]);
  });

  it('does not glue a heading, list item, table row or code line to what follows', () => {
    const lines = MARKDOWN.split('\n');
    const texts = splitSentences(MARKDOWN).map((s) => MARKDOWN.slice(s.start, s.end));
    for (const line of [
      '# Cinderella',
      '## The hazel tree',
      '- a white bird',
      '1. first evening',
      '2) second evening',
    ]) {
      expect(texts).toContain(line);
    }
    expect(texts).toContain('- a golden dress\n  with silver slippers');
    expect(texts).toContain('const slipper = find(foot)');
    expect(texts).toContain('***');
    expect(texts).toContain('The end');
    expect(lines.length).toBeGreaterThan(texts.length);
  });

  it('does not end a sentence at a title or an initial before a name', () => {
    const text =
      'Mrs. Bennet said to Mr. Bennet that Dr. Jones came. It was I. J. K. Rowling and St. Paul met. Etc.';
    expect(splitSentences(text).map((s) => text.slice(s.start, s.end))).toEqual([
      'Mrs. Bennet said to Mr. Bennet that Dr. Jones came.',
      'It was I.',
      'J. K. Rowling and St. Paul met.',
      'Etc.',
    ]);
    // A title that ends its paragraph still closes a sentence, and a title never reaches across a blank line.
    const ends = 'He spoke to the Rev.\n\nMrs. Smith left.';
    expect(splitSentences(ends).map((s) => ends.slice(s.start, s.end))).toEqual([
      'He spoke to the Rev.',
      'Mrs. Smith left.',
    ]);
  });

  it('keeps titles inside their sentences across its windows on a paragraph of 25,000 characters', () => {
    const paragraph = proseWithTitles(7, 1500).replace(/\n/g, ' ');
    expect(paragraph.length).toBeGreaterThan(25_000);
    const sentences = splitSentences(paragraph);
    expect(sentences).toEqual(referenceSentences(paragraph));
    for (const s of sentences) expect(paragraph.slice(s.start, s.end)).toMatch(/^Then /);
  });

  it('gives the same sentences as one Intl.Segmenter pass on a paragraph far longer than its windows', () => {
    const paragraph = generatedProse(3, 2000).replace(/\n/g, ' ');
    expect(paragraph.length).toBeGreaterThan(100_000);
    expect(splitSentences(paragraph)).toEqual(referenceSentences(paragraph));
  });
});

describe('chunkText edge cases and errors', () => {
  it('returns no chunk for empty or whitespace-only text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\r\n\t\u3000 ')).toEqual([]);
  });

  it('defaults to the paper’s 100 tokens', () => {
    const chunks = chunkText(cinderella);
    expect(Math.max(...chunks.map((c) => c.tokens))).toBeLessThanOrEqual(100);
    expect(Math.max(...chunks.map((c) => c.tokens))).toBeGreaterThan(90);
    expect(chunkText(cinderella, {})).toEqual(chunks);
  });

  it('rejects an invalid maxTokens with a typed error naming it', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      let error: unknown;
      try {
        chunkText('Some text.', { maxTokens: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ChunkingError);
      expect(error).toBeInstanceOf(AerieError);
      expect((error as ChunkingError).code).toBe('INVALID_MAX_TOKENS');
      expect((error as ChunkingError).details.maxTokens).toBe(bad);
    }
  });

  it('says which character cannot fit when maxTokens is below a single character’s tokens', () => {
    const text = 'ab 𝔘';
    expect(countTokens('𝔘')).toBeGreaterThan(1);
    let error: unknown;
    try {
      chunkText(text, { maxTokens: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChunkingError);
    expect((error as ChunkingError).code).toBe('MAX_TOKENS_TOO_SMALL');
    expect((error as ChunkingError).details).toEqual({ maxTokens: 1, offset: 3, tokens: countTokens('𝔘') });
  });
});

describe('chunkTextAsync', () => {
  /** 300,000 characters of one unbroken line of letters and digits: slow to chunk, as hostile files are. */
  const unbroken = (() => {
    const random = seededRandom(7);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    return Array.from({ length: 300_000 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  })();

  it('gives the chunks of chunkText, reporting how far it is up to the whole text, never going back', async () => {
    const text = `${unbroken.slice(0, 20_000)}\n\n${cinderella}`;
    const seen: number[] = [];
    const chunks = await chunkTextAsync(text, { maxTokens: 60, onProgress: (done) => seen.push(done) });
    expect(chunks).toEqual(chunkText(text, { maxTokens: 60 }));
    expect(seen.length).toBeGreaterThan(10);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeGreaterThanOrEqual(text.length - 1);
    expect(seen.every((d) => d >= 0 && d <= text.length)).toBe(true);
  });

  it('stops with an AbortError when its signal fires mid-way', async () => {
    const controller = new AbortController();
    let last = 0;
    const error = await chunkTextAsync(unbroken, {
      signal: controller.signal,
      onProgress: (done) => {
        last = done;
        if (done > 0) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(last).toBeLessThan(unbroken.length / 2);
  });
});
