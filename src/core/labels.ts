/**
 * Topic labels: every summary gets 2–4 terms or two-word phrases that tell it from the other summaries of its
 * layer, computed from the text of its descendant leaves by class-based TF-IDF as BERTopic defines it
 * (Grootendorst 2022, §3.3): each summary's leaves joined into one "class document"; a term's frequency in the
 * class, L1-normalised over the class, times log(1 + A / f), where A is the mean number of terms per class of
 * the layer and f the term's frequency over all classes of the layer. A layer of one node (a single root) is
 * then scored by frequency alone, which names what the whole text is about.
 *
 * Terms are words and two-word phrases of consecutive content words (or a title and a name: "Mr. Darcy"),
 * merged by their Porter stems (plurals and inflections count as one term) and shown in their most frequent
 * spelling away from the start of a sentence, so proper names keep their capitals and common nouns do not
 * borrow a sentence's capital. Stop-words, numbers and one-letter words are never terms. Deterministic: the
 * same nodes give the same labels (ties are broken by the terms' stems, never by iteration order). No LLM.
 */
import { stemmer } from 'stemmer';
import { ABBREVIATED_TITLES, NAME_TITLES, STOP_WORDS } from './stop-words';
import type { TreeNode } from './types';

/** Most terms in a label. */
export const MAX_LABEL_TERMS = 4;
/** A label aims for at least this many terms (a class with fewer distinct terms gets what it has). */
export const MIN_LABEL_TERMS = 2;
/**
 * A term must occur this often in a class to label it; terms seen once are mostly noise. When fewer than
 * MIN_LABEL_TERMS terms qualify (a tiny class), terms seen once are taken too.
 */
export const MIN_TERM_COUNT = 2;
/** A word is shown as the phrase that holds at least this share of its occurrences in the class. */
export const PHRASE_SHARE = 0.6;

/** What labelling reads of a node. */
export type LabelNode = Pick<TreeNode, 'id' | 'layer' | 'text' | 'children'>;

/** Options of `computeLabels`. */
export interface LabelOptions {
  /** Most terms per label. Default MAX_LABEL_TERMS. */
  maxTerms?: number;
}

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
const enum Kind {
  Word,
  Phrase,
}

/**
 * The terms seen in the tree's leaves: ids, stems, and what is needed to spell each one. Word surfaces are
 * counted for every word; a phrase records only how it was capitalised and punctuated, and is spelt from its
 * words' surfaces.
 */
class Vocabulary {
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
function countTerms(text: string, vocab: Vocabulary): Int32Array {
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

/** Leaves below each node (each once), ascending; leaves list themselves. Children must sit in lower layers. */
function descendantLeaves(nodes: readonly LabelNode[], order: readonly number[]): Int32Array[] {
  const out: Int32Array[] = new Array(nodes.length);
  const stamp = new Int32Array(nodes.length).fill(-1);
  for (const id of order) {
    const node = nodes[id];
    if (node.layer === 0) {
      out[id] = Int32Array.of(id);
      continue;
    }
    const leaves: number[] = [];
    for (const child of node.children) {
      const below = out[child];
      if (below === undefined || nodes[child].layer >= node.layer) continue;
      for (let k = 0; k < below.length; k++) {
        if (stamp[below[k]] !== id) {
          stamp[below[k]] = id;
          leaves.push(below[k]);
        }
      }
    }
    out[id] = Int32Array.from(leaves).sort();
  }
  return out;
}

/** One class: its terms and counts, and the total count. */
interface ClassCounts {
  terms: Int32Array;
  counts: Int32Array;
  total: number;
}

/** Sums the leaves' term counts into one class document (a dense scratch array, cleared after use). */
function classCounts(
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

/**
 * The label of one class: the best-scoring terms, skipping any that repeats a word already chosen. A word
 * mostly used inside one phrase is shown as that phrase ("Catherine" as "Lady Catherine").
 */
function pickTerms(
  cls: ClassCounts,
  frequency: Float64Array,
  averageTotal: number,
  vocab: Vocabulary,
  maxTerms: number,
): string[] {
  const scores = new Float64Array(cls.terms.length);
  const collect = (minCount: number): number[] => {
    const eligible: number[] = [];
    for (let k = 0; k < cls.terms.length; k++) {
      if (cls.counts[k] < minCount) continue;
      const tf = cls.counts[k] / cls.total;
      scores[k] = tf * Math.log(1 + averageTotal / frequency[cls.terms[k]]);
      eligible.push(k);
    }
    return eligible;
  };
  let candidates = collect(MIN_TERM_COUNT);
  if (candidates.length < MIN_LABEL_TERMS) candidates = collect(1);
  if (candidates.length > CANDIDATE_POOL) {
    // Only the best few can make the label: keep those at or above the pool's last score (ties included).
    const sorted = Float64Array.from(candidates, (k) => scores[k]).sort();
    const threshold = sorted[sorted.length - CANDIDATE_POOL];
    candidates = candidates.filter((k) => scores[k] >= threshold);
  }
  candidates.sort(
    (a, b) => scores[b] - scores[a] || compareKeys(vocab.keys[cls.terms[a]], vocab.keys[cls.terms[b]]),
  );
  const chosen: string[] = [];
  const usedWords = new Set<number>();
  for (const k of candidates) {
    const term = mainPhrase(cls, vocab, cls.terms[k], cls.counts[k]);
    const words = vocab.parts[term].filter((w) => !NAME_TITLES.has(vocab.keys[w]));
    if (words.some((w) => usedWords.has(w))) continue;
    for (const w of words) usedWords.add(w);
    chosen.push(vocab.display(term));
    if (chosen.length === maxTerms) break;
  }
  return chosen;
}

/** Terms of a class considered for its label, best first (the rest cannot make it past redundancy). */
const CANDIDATE_POOL = 64;

/** A term's count in a class, 0 when absent (binary search: terms ascend). */
function countIn(cls: ClassCounts, term: number): number {
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
function mainPhrase(cls: ClassCounts, vocab: Vocabulary, term: number, count: number): number {
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

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Labels every summary of a tree (see the module comment). Leaves get none.
 * @param nodes the tree's nodes, `nodes[i].id === i`; children sit in lower layers.
 * @returns per node id, its label (most distinctive term first; empty when its leaves hold no usable word),
 *   or undefined for a leaf.
 */
export function computeLabels(
  nodes: readonly LabelNode[],
  options: LabelOptions = {},
): (string[] | undefined)[] {
  const maxTerms = options.maxTerms ?? MAX_LABEL_TERMS;
  const vocab = new Vocabulary();
  const leafTerms: Int32Array[] = new Array(nodes.length);
  const order = nodes.map((n) => n.id).sort((a, b) => nodes[a].layer - nodes[b].layer || a - b);
  for (const id of order) if (nodes[id].layer === 0) leafTerms[id] = countTerms(nodes[id].text, vocab);
  const below = descendantLeaves(nodes, order);

  const labels: (string[] | undefined)[] = new Array(nodes.length).fill(undefined);
  const byLayer = new Map<number, number[]>();
  for (const id of order) {
    const layer = nodes[id].layer;
    if (layer === 0) continue;
    const list = byLayer.get(layer);
    if (list === undefined) byLayer.set(layer, [id]);
    else list.push(id);
  }
  for (const ids of byLayer.values()) {
    // A summary with no leaves below it (a damaged tree) is labelled from its own text.
    const ownTerms = new Map<number, Int32Array>();
    const termsOf = (id: number) => leafTerms[id] ?? ownTerms.get(id)!;
    for (const id of ids) if (below[id].length === 0) ownTerms.set(id, countTerms(nodes[id].text, vocab));
    let scratch = new Int32Array(vocab.keys.length);
    const classes = ids.map((id) => {
      if (scratch.length < vocab.keys.length) scratch = new Int32Array(vocab.keys.length);
      return classCounts(below[id].length > 0 ? below[id] : [id], termsOf, scratch);
    });
    const frequency = new Float64Array(vocab.keys.length);
    let totals = 0;
    for (const cls of classes) {
      totals += cls.total;
      for (let k = 0; k < cls.terms.length; k++) frequency[cls.terms[k]] += cls.counts[k];
    }
    const averageTotal = totals / classes.length;
    ids.forEach((id, c) => (labels[id] = pickTerms(classes[c], frequency, averageTotal, vocab, maxTerms)));
  }
  return labels;
}

/** Whether some summary of the tree has no label yet (a tree saved before labels existed). */
export function lacksLabels(nodes: readonly Pick<TreeNode, 'layer' | 'label'>[]): boolean {
  return nodes.some((n) => n.layer > 0 && n.label === undefined);
}

/**
 * Gives every summary without a label its label (labels already there are kept). Returns the ids it labelled.
 * All labels are computed together, since each is scored against its layer.
 */
export function fillMissingLabels(nodes: TreeNode[], options: LabelOptions = {}): number[] {
  if (!lacksLabels(nodes)) return [];
  const labels = computeLabels(nodes, options);
  const filled: number[] = [];
  for (const node of nodes) {
    const label = labels[node.id];
    if (node.layer > 0 && node.label === undefined && label !== undefined) {
      node.label = label;
      filled.push(node.id);
    }
  }
  return filled;
}
