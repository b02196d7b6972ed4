/**
 * The gold question sets (tests/fixtures/gold/<id>.jsonl) that `npm run bench retrieval` scores, as
 * tests/fixtures/gold/sets.json lists them: each over a shipped book, each marked "tune" (settings may be chosen
 * on it) or "held-out" (never). Every set has single facts from the beginning, middle and end of its book and
 * thematic questions whose evidence lies far apart; every evidence quote occurs verbatim in the book (white space
 * aside: the matcher reads any run of it as one space), so a quote that no retrieval could ever find cannot lower
 * a score, and exactly once (as the matcher compares: case, typographic quotes and white space aside), so
 * finding it means finding the place that answers.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeForMatch } from '../../src/core/eval';

const GOLD = new URL('../fixtures/gold/', import.meta.url);
const BOOKS = new URL('../fixtures/books/', import.meta.url);
const MIN_QUESTIONS = 40;
const KINDS = ['fact', 'arc', 'theme'];
/** Each set has at least this many single facts, and as many thematic questions. */
const MIN_FACTS = 15;
const MIN_THEMES = 15;
/** Single facts come from all over the book: at least this many in each third of it. */
const MIN_FACTS_PER_THIRD = 3;
/** A thematic question has 3–6 quotes… */
const THEME_QUOTES = [3, 6];
/** …from at least 3 places this many characters apart (more than a 2,000-token context holds: ~9,000)… */
const THEME_PLACE_GAP = 10_000;
const THEME_MIN_PLACES = 3;
/** …and its first and last quote are at least this share of the book apart. */
const THEME_MIN_SPAN = 0.3;

interface GoldRow {
  id: string;
  question: string;
  answer?: string;
  evidence: string[];
  kind: string;
}

interface SetEntry {
  role: string;
  book: string;
}

const listed = (
  JSON.parse(readFileSync(new URL('sets.json', GOLD), 'utf8')) as { sets: Record<string, SetEntry> }
).sets;
const files = readdirSync(GOLD).filter((f) => f.endsWith('.jsonl'));
const sets = Object.entries(listed).map(([id, entry]) => ({
  id,
  ...entry,
  rows: existsSync(new URL(`${id}.jsonl`, GOLD))
    ? readFileSync(new URL(`${id}.jsonl`, GOLD), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as GoldRow)
    : [],
}));

const oneSpace = (text: string) => text.replace(/\s+/g, ' ');

/** Every start of `needle` in `haystack`. */
function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) at.push(i);
  return at;
}

/** How many of the sorted positions lie at least `gap` after the last one counted (the most that can). */
function places(positions: number[], gap: number): number {
  let count = 0;
  let last = -Infinity;
  for (const at of [...positions].sort((a, b) => a - b)) {
    if (at - last >= gap) {
      count += 1;
      last = at;
    }
  }
  return count;
}

describe('sets.json', () => {
  it('lists every gold set in the folder, each over a shipped book, as tuning or held out', () => {
    expect(files.map((f) => f.replace(/\.jsonl$/, '')).sort()).toEqual(Object.keys(listed).sort());
    for (const set of sets) {
      expect(['tune', 'held-out'], set.id).toContain(set.role);
      expect(existsSync(new URL(set.book, BOOKS)), `${set.id}: ${set.book}`).toBe(true);
    }
  });

  it('keeps Pride and Prejudice, Persuasion and Genesis for tuning and holds out sets over other books', () => {
    const tune = sets.filter((s) => s.role === 'tune');
    const heldOut = sets.filter((s) => s.role === 'held-out');
    expect(tune.map((s) => s.id).sort()).toEqual(['genesis', 'persuasion', 'pride-and-prejudice']);
    expect(heldOut.map((s) => s.id)).toContain('sense-and-sensibility');
    const tuneBooks = new Set(tune.map((s) => s.book));
    expect(heldOut.filter((s) => tuneBooks.has(s.book)).map((s) => s.id)).toEqual([]);
  });
});

describe.each(sets)('$id', ({ book, rows }) => {
  const text = oneSpace(readFileSync(new URL(book, BOOKS), 'utf8'));
  const normalized = normalizeForMatch(text);
  /** Where each quote starts in the normalized book (the first place; -1 when it is not there). */
  const at = (quote: string) => normalized.indexOf(normalizeForMatch(quote));

  it(`has at least ${MIN_QUESTIONS} questions with unique ids, of the known kinds`, () => {
    expect(rows.length).toBeGreaterThanOrEqual(MIN_QUESTIONS);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.filter((r) => !KINDS.includes(r.kind)).map((r) => `${r.id}: ${r.kind}`)).toEqual([]);
    expect(rows.filter((r) => r.kind === 'fact').length).toBeGreaterThanOrEqual(MIN_FACTS);
    expect(rows.filter((r) => r.kind === 'theme').length).toBeGreaterThanOrEqual(MIN_THEMES);
    expect(rows.every((r) => r.question.trim() !== '' && r.evidence.length > 0)).toBe(true);
  });

  it('quotes every piece of evidence verbatim from the book, and each quote occurs there exactly once', () => {
    const missing = rows.flatMap((r) =>
      r.evidence.filter((quote) => !text.includes(oneSpace(quote))).map((quote) => `${r.id}: ${quote}`),
    );
    expect(missing).toEqual([]);
    const ambiguous = rows.flatMap((r) =>
      r.evidence
        .map((quote) => ({ quote, count: occurrences(normalized, normalizeForMatch(quote)).length }))
        .filter(({ count }) => count !== 1)
        .map(({ quote, count }) => `${r.id}: ${count}× ${quote}`),
    );
    expect(ambiguous).toEqual([]);
  });

  it(`takes its single facts from the beginning, middle and end of the book (${MIN_FACTS_PER_THIRD}+ in each third)`, () => {
    const thirds = [0, 0, 0];
    for (const row of rows.filter((r) => r.kind === 'fact')) {
      thirds[Math.min(2, Math.floor((3 * at(row.evidence[0])) / normalized.length))] += 1;
    }
    expect(Math.min(...thirds), `facts per third: ${thirds.join(', ')}`).toBeGreaterThanOrEqual(
      MIN_FACTS_PER_THIRD,
    );
  });

  it(`spreads each thematic question's ${THEME_QUOTES.join('–')} quotes over ${THEME_MIN_PLACES}+ places ${THEME_PLACE_GAP} characters apart and ${THEME_MIN_SPAN * 100}% of the book`, () => {
    const broken = rows
      .filter((r) => r.kind === 'theme')
      .flatMap((r) => {
        const positions = r.evidence.map(at);
        const span = (Math.max(...positions) - Math.min(...positions)) / normalized.length;
        const problems = [
          r.evidence.length < THEME_QUOTES[0] || r.evidence.length > THEME_QUOTES[1]
            ? `${r.evidence.length} quotes`
            : '',
          places(positions, THEME_PLACE_GAP) < THEME_MIN_PLACES
            ? `${places(positions, THEME_PLACE_GAP)} places ${THEME_PLACE_GAP} characters apart`
            : '',
          span < THEME_MIN_SPAN ? `a span of ${span.toFixed(2)} of the book` : '',
        ].filter(Boolean);
        return problems.length ? [`${r.id}: ${problems.join(', ')}`] : [];
      });
    expect(broken).toEqual([]);
  });
});
