/**
 * The long documents of `npm run bench build`, made deterministically from committed public-domain fixtures:
 * the collection (tests/fixtures/collection, in file order) and the RAPTOR paper's text, then — past their
 * ~90k tokens — seeded shuffles of their sentences, until the document holds the requested cl100k tokens
 * (cut at a sentence end). Paragraphs of a few sentences keep the chunker's input shaped like a real book.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitSentences, countTokens } from '../../src/core/text';
import { seededRandom } from '../../src/core/random';
import { ROOT, shuffled } from '../support';

const COLLECTION = join(ROOT, 'tests', 'fixtures', 'collection');
const PAPER = join(ROOT, 'tests', 'fixtures', 'raptor-paper.txt');
const SHUFFLE_SEED = 20241124;
/** Sentences per paragraph in the shuffled part. */
const PARAGRAPH_SENTENCES = 6;

/** The fixtures' texts, in a fixed order. */
function sources(): string[] {
  const files = readdirSync(COLLECTION)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  return [...files.map((f) => readFileSync(join(COLLECTION, f), 'utf8')), readFileSync(PAPER, 'utf8')];
}

/** A document of about `tokens` cl100k tokens (at most that many, cut at a sentence end), and its count. */
export function benchDocument(tokens: number): { text: string; tokens: number } {
  const texts = sources();
  const sentences = texts.flatMap((text) =>
    splitSentences(text).map(({ start, end }) => text.slice(start, end).replace(/\s+/g, ' ')),
  );
  const parts: string[] = [];
  let used = 0;
  // Sentence counts are additive to within a token per join; the final count is measured on the whole text.
  const take = (piece: string): boolean => {
    const n = countTokens(piece) + 1;
    if (used + n > tokens) return false;
    parts.push(piece);
    used += n;
    return true;
  };
  const originals = texts.flatMap((text) =>
    text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean),
  );
  let full = originals.every(take);
  const random = seededRandom(SHUFFLE_SEED);
  while (full) {
    const order = shuffled(sentences, random);
    for (let i = 0; full && i < order.length; i += PARAGRAPH_SENTENCES) {
      full = take(order.slice(i, i + PARAGRAPH_SENTENCES).join(' '));
    }
  }
  const text = parts.join('\n\n');
  return { text, tokens: countTokens(text) };
}
