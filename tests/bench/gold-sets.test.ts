/**
 * The gold question sets (tests/fixtures/gold/<book>.jsonl) that `npm run bench retrieval` scores: each is a
 * shipped book's, has at least 40 questions, about half about one fact and half about the story's arc, and
 * every evidence quote occurs verbatim in the book (white space aside: the matcher reads any run of it as one
 * space), so a quote that no retrieval could ever find cannot lower a score.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const GOLD = new URL('../fixtures/gold/', import.meta.url);
const BOOKS = new URL('../fixtures/books/', import.meta.url);
const MIN_QUESTIONS = 40;
/** Each kind's share of a set is at least this. */
const MIN_KIND_SHARE = 0.4;

interface GoldRow {
  id: string;
  question: string;
  answer?: string;
  evidence: string[];
  kind: string;
}

const oneSpace = (text: string) => text.replace(/\s+/g, ' ');
const sets = readdirSync(GOLD)
  .filter((f) => f.endsWith('.jsonl'))
  .map((file) => ({
    book: file.replace(/\.jsonl$/, ''),
    rows: readFileSync(new URL(file, GOLD), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as GoldRow),
  }));

it('there are gold sets for at least three shipped texts', () => {
  expect(sets.map((s) => s.book).sort()).toEqual(['genesis', 'persuasion', 'pride-and-prejudice']);
});

describe.each(sets)('$book', ({ book, rows }) => {
  const text = oneSpace(readFileSync(new URL(`${book}.txt`, BOOKS), 'utf8'));

  it('has at least 40 questions with unique ids, half about a fact and half about the arc', () => {
    expect(rows.length).toBeGreaterThanOrEqual(MIN_QUESTIONS);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const kind of ['fact', 'arc']) {
      expect(rows.filter((r) => r.kind === kind).length / rows.length).toBeGreaterThanOrEqual(MIN_KIND_SHARE);
    }
    expect(rows.every((r) => r.kind === 'fact' || r.kind === 'arc')).toBe(true);
  });

  it('quotes every piece of evidence verbatim from the book', () => {
    const missing = rows.flatMap((r) =>
      r.evidence.filter((quote) => !text.includes(oneSpace(quote))).map((quote) => `${r.id}: ${quote}`),
    );
    expect(missing).toEqual([]);
    expect(rows.every((r) => r.question.trim() !== '' && r.evidence.length > 0)).toBe(true);
  });
});
