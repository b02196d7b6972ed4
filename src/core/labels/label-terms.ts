/**
 * The terms topic labels are made of (`labels.ts`): words and two-word phrases of a text, counted per leaf and
 * summed per class. Words merge by their Porter stems (plurals and inflections count as one term); a phrase is
 * two consecutive content words with nothing but spaces between them, or a title and a name ("Mr. Darcy").
 * A term is shown in its most frequent spelling away from the start of a sentence, so proper names keep their
 * capitals and common nouns do not borrow a sentence's. Stop-words, numbers and one-letter words are never
 * terms.
 */
import { stemmer } from 'stemmer';
import { ABBREVIATED_TITLES, NAME_TITLES, STOP_WORDS } from '../text/stop-words';

/**
 * A term must occur this often in a class to label it; terms seen once are mostly noise. When too few terms
 * qualify (a tiny class), terms seen once are taken too.
 */
export const MIN_TERM_COUNT = 2;
/** A word is shown as the phrase that holds at least this share of its occurrences in the class. */
export const PHRASE_SHARE = 0.6;

/** A word, a number or a word with inner apostrophes ("don't", "o'clock"). */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu;
const HAS_DIGIT = /\p{N}/u;
const POSSESSIVE = /['\u2019]s$/i;

/** Phrase keys pack two word ids into one number: the first times this, plus the second. */
const PHRASE_KEY_STRIDE = 2 ** 24;

/** One spelling of a word as it occurs in the text, and how often it occurred where. */
interface WordInfo {
  /** Its term id; −1 for a word that is never a term (stop-word, number, one letter). */
  id: number;
  /** The spelling with a plain apostrophe and without a possessive 's. */
  surface: string;
  title: boolean;
  abbreviation: boolean;
  caps: boolean;
  /** Occurrences away from the start of a sentence, and at one. */
  inner: number;
  initial: number;
}

/** Term kinds: a word, or two consecutive words. */
export const Kind = { Word: 0, Phrase: 1 } as const;
/** A term's kind. */
export type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * The terms seen in the tree's leaves: ids, stems, and what is needed to spell each one. Word surfaces are
 * counted for every word; a phrase records only how it was capitalised and punctuated, and is spelt from its
 * words' surfaces.
 */
export class Vocabulary {
  readonly ids = new Map<string, number>();
  readonly keys: string[] = [];
  readonly kinds: Kind[] = [];
  /** A word's own stem id; a phrase's two word ids (the title first when it has one). */
  readonly parts: number[][] = [];
  /** Per word id: the spellings seen, each with its counts. */
  readonly spellings: WordInfo[][] = [];
  /** Per phrase id: occurrences, first word capitalised, second capitalised, joined by a title's full stop. */
  readonly phraseForms: Int32Array[] = [];
  /** Per word id: the phrases it is a (non-title) part of. */
  readonly phrasesOf: number[][] = [];
  /** Each spelling as it occurs in the text → what it is (stemming is slow: each spelling is analysed once). */
  private readonly byText = new Map<string, WordInfo>();
  private readonly byStem = new Map<string, number>();
  private readonly phrases = new Map<number, number>();

  /** What a word as written is: its term (id −1 when it is never a term), title or not, capitalised or not. */
  info(written: string): WordInfo {
    let info = this.byText.get(written);
    if (info !== undefined) return info;
    let surface = written.replace(/\u2019/g, "'");
    if (POSSESSIVE.test(surface)) surface = surface.slice(0, -2);
    const lower = surface.toLowerCase();
    const title = NAME_TITLES.has(lower);
    const skip = lower.length < 2 || HAS_DIGIT.test(lower) || (STOP_WORDS.has(lower) && !title);
    // Titles are not stemmed: Porter makes "Mrs." of "Mr.", and Mrs. Bennet is not Mr. Bennet.
    const id = skip ? -1 : this.word(title ? lower : stemmer(lower));
    info = {
      id,
      surface,
      title,
      abbreviation: ABBREVIATED_TITLES.has(lower),
      caps: isCapitalised(surface),
      inner: 0,
      initial: 0,
    };
    this.byText.set(written, info);
    if (id >= 0) this.spellings[id].push(info);
    return info;
  }

  private word(stem: string): number {
    let id = this.byStem.get(stem);
    if (id === undefined) {
      id = this.add(stem, Kind.Word, []);
      this.byStem.set(stem, id);
      this.parts[id] = [id];
      this.spellings[id] = [];
      this.phrasesOf[id] = [];
    }
    return id;
  }

  phrase(first: number, second: number): number {
    const key = first * PHRASE_KEY_STRIDE + second;
    let id = this.phrases.get(key);
    if (id === undefined) {
      id = this.add(`${this.keys[first]} ${this.keys[second]}`, Kind.Phrase, [first, second]);
      this.phrases.set(key, id);
      this.phraseForms[id] = new Int32Array(4);
      for (const word of [first, second]) {
        if (!NAME_TITLES.has(this.keys[word])) this.phrasesOf[word].push(id);
      }
    }
    return id;
  }

  private add(key: string, kind: Kind, parts: number[]): number {
    const id = this.keys.length;
    this.keys.push(key);
    this.kinds.push(kind);
    this.parts.push(parts);
    return id;
  }

  /** A word's most frequent spelling away from sentence starts (ties: more at starts, then code-unit order). */
  spell(id: number): string {
    const totals = new Map<string, [number, number]>();
    for (const info of this.spellings[id]) {
      const t = totals.get(info.surface) ?? [0, 0];
      t[0] += info.inner;
      t[1] += info.initial;
      totals.set(info.surface, t);
    }
    let best = '';
    let bestInner = -1;
    let bestInitial = -1;
    for (const [surface, [inner, initial]] of totals) {
      if (
        inner > bestInner ||
        (inner === bestInner && (initial > bestInitial || (initial === bestInitial && surface < best)))
      ) {
        best = surface;
        bestInner = inner;
        bestInitial = initial;
      }
    }
    return best;
  }

  /** How a term is shown. */
  display(id: number): string {
    if (this.kinds[id] === Kind.Word) return this.spell(id);
    const [first, second] = this.parts[id];
    const [count, firstCaps, secondCaps, stops] = this.phraseForms[id];
    const join = 2 * stops > count ? '. ' : ' ';
    return `${cased(this.spell(first), 2 * firstCaps > count)}${join}${cased(this.spell(second), 2 * secondCaps > count)}`;
  }
}

/** A word in the case a phrase used it: capitalised or lower case (a word's own capitals kept when capitalised). */
function cased(word: string, capital: boolean): string {
  if (!capital) return word.toLowerCase();
  return word[0] === word[0].toUpperCase() ? word : word[0].toUpperCase() + word.slice(1);
}

function isCapitalised(surface: string): boolean {
  const first = surface[0];
  return first !== first.toLowerCase();
}

/** What the gap between two words holds (bit flags). */
const GAP_END = 1;
const GAP_PARAGRAPH = 2;
const GAP_SPACES = 4;
const GAP_TITLE_STOP = 8;

/** Scans text[from, to): a sentence end, a blank line, only spaces (no line break), a full stop then spaces. */
function scanGap(text: string, from: number, to: number): number {
  let spaces = to > from;
  let titleStop = to - from > 1 && text.charCodeAt(from) === 0x2e;
  let end = false;
  let paragraph = false;
  let newlines = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0xa0 || c === 0x0d) continue;
    if (c === 0x0a) {
      if (++newlines >= 2) paragraph = true;
      spaces = titleStop = false;
      continue;
    }
    newlines = 0;
    spaces = false;
    if (c === 0x2e || c === 0x21 || c === 0x3f) end = true;
    if (i !== from) titleStop = false;
  }
  return (
    (end ? GAP_END : 0) |
    (paragraph ? GAP_PARAGRAPH : 0) |
    (spaces ? GAP_SPACES : 0) |
    (titleStop ? GAP_TITLE_STOP : 0)
  );
}

/** Term counts of one text as (term id, count) pairs, terms ascending. */
export function countTerms(text: string, vocab: Vocabulary): Int32Array {
  const counts = new Map<number, number>();
  const bump = (id: number) => counts.set(id, (counts.get(id) ?? 0) + 1);
  let last = 0;
  let first = true;
  let previous: WordInfo | undefined;
  for (const match of text.matchAll(WORD)) {
    const gap = scanGap(text, last, match.index);
    last = match.index + match[0].length;
    const titleStop = previous?.abbreviation === true && (gap & GAP_TITLE_STOP) !== 0;
    const initial = first || (gap & GAP_PARAGRAPH) !== 0 || ((gap & GAP_END) !== 0 && !titleStop);
    first = false;
    const word = vocab.info(match[0]);
    if (word.id < 0) {
      previous = undefined;
      continue;
    }
    if (initial) word.initial++;
    else word.inner++;
    if (!word.title) {
      bump(word.id);
      // Two different words in a row; after a title, only a capitalised name ("Mr. Darcy", not "Mr. said").
      const follows = previous !== undefined && ((gap & GAP_SPACES) !== 0 || titleStop);
      if (follows && previous!.id !== word.id && !(previous!.title && !word.caps)) {
        const phrase = vocab.phrase(previous!.id, word.id);
        bump(phrase);
        const forms = vocab.phraseForms[phrase];
        forms[0]++;
        if (previous!.caps) forms[1]++;
        if (word.caps) forms[2]++;
        if (titleStop) forms[3]++;
      }
    }
    previous = word;
  }
  const ids = [...counts.keys()].sort((a, b) => a - b);
  const out = new Int32Array(2 * ids.length);
  ids.forEach((id, k) => {
    out[2 * k] = id;
    out[2 * k + 1] = counts.get(id)!;
  });
  return out;
}

/** One class: its terms and counts, and the total count. */
export interface ClassCounts {
  terms: Int32Array;
  counts: Int32Array;
  total: number;
}

/** Sums the leaves' term counts into one class document (a dense scratch array, cleared after use). */
export function classCounts(
  leaves: ArrayLike<number>,
  termsOf: (leaf: number) => Int32Array,
  scratch: Int32Array,
): ClassCounts {
  const touched: number[] = [];
  let total = 0;
  for (let i = 0; i < leaves.length; i++) {
    const pairs = termsOf(leaves[i]);
    for (let k = 0; k < pairs.length; k += 2) {
      const term = pairs[k];
      if (scratch[term] === 0) touched.push(term);
      scratch[term] += pairs[k + 1];
      total += pairs[k + 1];
    }
  }
  touched.sort((a, b) => a - b);
  const terms = Int32Array.from(touched);
  const counts = Int32Array.from(touched, (term) => scratch[term]);
  for (const term of touched) scratch[term] = 0;
  return { terms, counts, total };
}

/** A term's count in a class, 0 when absent (binary search: terms ascend). */
export function countIn(cls: ClassCounts, term: number): number {
  let lo = 0;
  let hi = cls.terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cls.terms[mid] < term) lo = mid + 1;
    else if (cls.terms[mid] > term) hi = mid - 1;
    else return cls.counts[mid];
  }
  return 0;
}

/**
 * The term to show for `term`: a word that occurs mostly (PHRASE_SHARE) inside one phrase in this class is
 * shown as that phrase (the most frequent such, ties by lower id); anything else as itself.
 */
export function mainPhrase(cls: ClassCounts, vocab: Vocabulary, term: number, count: number): number {
  if (vocab.kinds[term] !== Kind.Word) return term;
  let best = term;
  let bestCount = 0;
  for (const phrase of vocab.phrasesOf[term]) {
    const n = countIn(cls, phrase);
    if (
      n >= MIN_TERM_COUNT &&
      n >= PHRASE_SHARE * count &&
      (n > bestCount || (n === bestCount && phrase < best))
    ) {
      best = phrase;
      bestCount = n;
    }
  }
  return best;
}

export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
