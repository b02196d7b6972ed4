/**
 * Texts and reference rules shared by the chunking tests (chunk.test.ts, chunk-properties.test.ts).
 */
import { readFileSync } from 'node:fs';
import { seededRandom } from '../../src/core/random';

export const cinderella = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');

export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
export const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The documented sentence rule, computed independently with Intl.Segmenter for texts without markdown: blank
 * lines separate paragraphs, and inside a paragraph a line break reads as a space.
 */
export function referenceSentences(text: string): { start: number; end: number }[] {
  return mergeAfterTitles(text, segmenterSentences(text));
}

/** Titles and initials written in the texts these tests generate; the rule says they never end a sentence. */
const TITLE_OR_INITIAL_AT_END = /(?:^|\s)(?:Mrs|Mr|Dr|St|[A-HJ-Z])\.$/;

/** Joins each sentence that ends with a title or an initial to the sentence after it. */
function mergeAfterTitles(
  text: string,
  sentences: { start: number; end: number }[],
): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let open: { start: number; end: number } | undefined;
  for (const sentence of sentences) {
    const joined = open ? { start: open.start, end: sentence.end } : sentence;
    if (TITLE_OR_INITIAL_AT_END.test(text.slice(sentence.start, sentence.end))) open = joined;
    else {
      out.push(joined);
      open = undefined;
    }
  }
  if (open) out.push(open);
  return out;
}

/** Intl.Segmenter's sentences, paragraph by paragraph, trimmed. */
function segmenterSentences(text: string): { start: number; end: number }[] {
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

/**
 * Prose whose sentences name people by title and initials ("Mrs. Ashes", "J. K. Hazel"), which the sentence
 * segmenter alone would break after.
 */
export function proseWithTitles(seed: number, sentences: number): string {
  const random = seededRandom(seed);
  const names = ['Mrs. Ashes', 'Mr. Hazel', 'Dr. Slipper', 'St. Pigeon', 'J. K. Tree', 'Mrs. A. Kitchen'];
  const words = ['the', 'prince', 'danced', 'golden', 'with', 'and'];
  let text = '';
  for (let s = 0; s < sentences; s++) {
    let sentence = 'Then';
    const n = 2 + Math.floor(random() * 20);
    for (let w = 0; w < n; w++) {
      sentence +=
        ' ' +
        (random() < 0.2
          ? names[Math.floor(random() * names.length)]
          : words[Math.floor(random() * words.length)]);
    }
    text += sentence + (random() < 0.1 ? ' Mrs. Ashes.' : '.') + (random() < 0.1 ? '\n' : ' ');
  }
  return text;
}

export function generatedProse(seed: number, sentences: number): string {
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

export function generatedMix(seed: number, atoms: number): string {
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

export const MARKDOWN = [
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

export const ENDLESS = Array.from(
  { length: 3000 },
  (_, i) => ['and', 'the', 'pigeons', 'flew', 'over', 'hazel'][i % 6],
).join(' ');
export const LONG_URL = `Read https://example.org/${'segment-name/'.repeat(120)}index.html?id=42 before the ball.`;
export const CJK =
  '从前有一个富人，他的妻子病了。她觉得自己快要死了，就把独生女儿叫到床前说：“亲爱的孩子，要虔诚善良！”' +
  '灰姑娘每天都去母亲的坟上哭泣。冬天来了，雪在坟上盖了一块白布。' +
  '没有标点的长句子从这里开始一直写下去'.repeat(20) +
  '。';
export const EMOJI = Array.from({ length: 200 }, (_, i) => ['👨‍👩‍👧', ' 🎉', '🇫🇷', ' 👍🏽', ' cake. '][i % 5]).join(
  '',
);
