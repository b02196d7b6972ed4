import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkText, ChunkingError, splitSentences, type Chunk } from '../../src/core/chunk';
import { AerieError } from '../../src/core/errors';
import { seededRandom } from '../../src/core/random';
import { countTokens } from '../../src/core/tokens';

const cinderella = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The documented sentence rule, computed independently with Intl.Segmenter for texts without markdown: blank
 * lines separate paragraphs, and inside a paragraph a line break reads as a space.
 */
function referenceSentences(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const paragraphBreak = /(?:\r\n|\r(?!\n)|\n)[ \t]*(?:\r\n|\r(?!\n)|\n)/g;
  let from = 0;
  for (const stop of [...[...text.matchAll(paragraphBreak)].map((m) => m.index), text.length]) {
    const flat = text.slice(from, stop).replace(/[\r\n]/g, ' ');
    for (const { segment, index } of sentenceSegmenter.segment(flat)) {
      const lead = segment.length - segment.trimStart().length;
      const body = segment.trim();
      if (body) out.push({ start: from + index + lead, end: from + index + lead + body.length });
    }
    from = stop;
  }
  return out;
}

function generatedProse(seed: number, sentences: number): string {
  const random = seededRandom(seed);
  const words = [
    'the',
    'prince',
    'slipper',
    'golden',
    'danced',
    'pigeons',
    'hazel',
    'tree',
    'ashes',
    'kitchen',
  ];
  const ends = ['.', '!', '?', '."', '…'];
  let text = '';
  for (let s = 0; s < sentences; s++) {
    const n = 1 + Math.floor(random() * 40);
    let sentence = 'And';
    for (let w = 0; w < n; w++)
      sentence +=
        (random() < 0.1 ? ', ' : random() < 0.1 ? '\n' : ' ') + words[Math.floor(random() * words.length)];
    text +=
      sentence +
      ends[Math.floor(random() * ends.length)] +
      (random() < 0.15 ? '\n\n' : random() < 0.2 ? '\n' : '  ');
  }
  return text;
}

function generatedMix(seed: number, atoms: number): string {
  const random = seededRandom(seed);
  const parts = [
    'word',
    ' ',
    '. ',
    '。',
    '你好',
    '，',
    '😀',
    '👨‍👩‍👧',
    '🇫🇷',
    '\n',
    '\r\n\r\n',
    '# ',
    '- ',
    'https://x.org/a_b',
    'é',
    '!',
    '𝔘𝔫𝔦',
  ];
  let text = '';
  for (let i = 0; i < atoms; i++) text += parts[Math.floor(random() * parts.length)];
  return text;
}

const MARKDOWN = [
  '# Cinderella',
  '',
  '## The hazel tree',
  'Cinderella planted the branch on her mother’s grave. It grew into a handsome tree',
  '',
  '- a white bird',
  '- a golden dress',
  '  with silver slippers',
  '1. first evening',
  '2) second evening',
  '',
  '| night | dress |',
  '|---|---|',
  '```',
  'const slipper = find(foot)',
  'return bride',
  '```',
  '***',
  'The end',
].join('\n');

const ENDLESS = Array.from(
  { length: 3000 },
  (_, i) => ['and', 'the', 'pigeons', 'flew', 'over', 'hazel'][i % 6],
).join(' ');
const LONG_URL = `Read https://example.org/${'segment-name/'.repeat(120)}index.html?id=42 before the ball.`;
const CJK =
  '从前有一个富人，他的妻子病了。她觉得自己快要死了，就把独生女儿叫到床前说：“亲爱的孩子，要虔诚善良！”' +
  '灰姑娘每天都去母亲的坟上哭泣。冬天来了，雪在坟上盖了一块白布。' +
  '没有标点的长句子从这里开始一直写下去'.repeat(20) +
  '。';
const EMOJI = Array.from({ length: 200 }, (_, i) => ['👨‍👩‍👧', ' 🎉', '🇫🇷', ' 👍🏽', ' cake. '][i % 5]).join('');

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
