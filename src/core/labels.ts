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
const SENTENCE_END = /[.!?]/;
const PARAGRAPH_BREAK = /\n\s*\n/;
/** Only spaces (no line break) between the two words of a phrase. */
const PHRASE_GAP = /^[ \t\u00a0]+$/;
/** "Mr. Darcy": an abbreviated title's full stop, then spaces. */
const TITLE_GAP = /^\.[ \t\u00a0]+$/;
const POSSESSIVE = /['\u2019]s$/i;

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
  /** Per word id: surface → [count away from a sentence's start, count at one]. */
  readonly surfaces: Map<string, [number, number]>[] = [];
  /** Per phrase id: occurrences, first word capitalised, second capitalised, joined by a title's full stop. */
  readonly phraseForms: Int32Array[] = [];

  word(stem: string): number {
    let id = this.ids.get(stem);
    if (id === undefined) {
      id = this.add(stem, Kind.Word, []);
      this.parts[id] = [id];
      this.surfaces[id] = new Map();
    }
    return id;
  }

  phrase(first: number, second: number): number {
    const key = `${this.keys[first]} ${this.keys[second]}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.add(key, Kind.Phrase, [first, second]);
      this.phraseForms[id] = new Int32Array(4);
    }
    return id;
  }

  private add(key: string, kind: Kind, parts: number[]): number {
    const id = this.keys.length;
    this.ids.set(key, id);
    this.keys.push(key);
    this.kinds.push(kind);
    this.parts.push(parts);
    return id;
  }

  /** A word's most frequent spelling away from sentence starts (ties: more at starts, then code-unit order). */
  spell(id: number): string {
    let best = '';
    let bestInner = -1;
    let bestInitial = -1;
    for (const [surface, [inner, initial]] of this.surfaces[id]) {
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

/** Term counts of one text as (term id, count) pairs, terms ascending. */
function countTerms(text: string, vocab: Vocabulary): Int32Array {
  const counts = new Map<number, number>();
  const bump = (id: number) => counts.set(id, (counts.get(id) ?? 0) + 1);
  let last = 0;
  let first = true;
  let previous = -1;
  let previousTitle = false;
  let previousAbbreviation = false;
  let previousCaps = false;
  for (const match of text.matchAll(WORD)) {
    const gap = text.slice(last, match.index);
    last = match.index + match[0].length;
    const initial =
      first ||
      PARAGRAPH_BREAK.test(gap) ||
      (SENTENCE_END.test(gap) && !(previousAbbreviation && TITLE_GAP.test(gap)));
    first = false;
    let surface = match[0].replace(/\u2019/g, "'");
    if (POSSESSIVE.test(surface)) surface = surface.slice(0, -2);
    const lower = surface.toLowerCase();
    const follows = previous >= 0 && (PHRASE_GAP.test(gap) || (previousAbbreviation && TITLE_GAP.test(gap)));
    const title = NAME_TITLES.has(lower);
    if (lower.length < 2 || HAS_DIGIT.test(lower) || (STOP_WORDS.has(lower) && !title)) {
      previous = -1;
      previousTitle = previousAbbreviation = false;
      continue;
    }
    // Titles are not stemmed: Porter makes "Mrs." of "Mr.", and Mrs. Bennet is not Mr. Bennet.
    const id = vocab.word(title ? lower : stemmer(lower));
    const seen = vocab.surfaces[id].get(surface) ?? [0, 0];
    seen[initial ? 1 : 0]++;
    vocab.surfaces[id].set(surface, seen);
    const caps = isCapitalised(surface);
    if (!title) {
      bump(id);
      // Two different words in a row; after a title, only a capitalised name ("Mr. Darcy", not "Mr. said").
      if (follows && previous !== id && !(previousTitle && !caps)) {
        const phrase = vocab.phrase(previous, id);
        bump(phrase);
        const forms = vocab.phraseForms[phrase];
        forms[0]++;
        if (previousCaps) forms[1]++;
        if (caps) forms[2]++;
        if (!PHRASE_GAP.test(gap)) forms[3]++;
      }
    }
    previous = id;
    previousTitle = title;
    previousAbbreviation = ABBREVIATED_TITLES.has(lower);
    previousCaps = caps;
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
  const scored: { term: number; score: number }[] = [];
  const collect = (minCount: number) => {
    scored.length = 0;
    for (let k = 0; k < cls.terms.length; k++) {
      if (cls.counts[k] < minCount) continue;
      const term = cls.terms[k];
      const tf = cls.counts[k] / cls.total;
      scored.push({ term, score: tf * Math.log(1 + averageTotal / frequency[term]) });
    }
  };
  collect(MIN_TERM_COUNT);
  if (scored.length < MIN_LABEL_TERMS) collect(1);
  scored.sort((a, b) => b.score - a.score || compareKeys(vocab.keys[a.term], vocab.keys[b.term]));
  const phraseOf = mainPhrases(cls, vocab);
  const chosen: string[] = [];
  const usedWords = new Set<number>();
  for (const { term: candidate } of scored) {
    const term = phraseOf.get(candidate) ?? candidate;
    const words = vocab.parts[term].filter((w) => !NAME_TITLES.has(vocab.keys[w]));
    if (words.some((w) => usedWords.has(w))) continue;
    for (const w of words) usedWords.add(w);
    chosen.push(vocab.display(term));
    if (chosen.length === maxTerms) break;
  }
  return chosen;
}

/** Per word of the class, the phrase that holds at least PHRASE_SHARE of its occurrences there, if any. */
function mainPhrases(cls: ClassCounts, vocab: Vocabulary): Map<number, number> {
  const countOf = new Map<number, number>();
  for (let k = 0; k < cls.terms.length; k++) countOf.set(cls.terms[k], cls.counts[k]);
  const best = new Map<number, number>();
  for (let k = 0; k < cls.terms.length; k++) {
    const phrase = cls.terms[k];
    if (vocab.kinds[phrase] !== Kind.Phrase || cls.counts[k] < MIN_TERM_COUNT) continue;
    for (const word of vocab.parts[phrase]) {
      if (NAME_TITLES.has(vocab.keys[word])) continue;
      const share = cls.counts[k] / (countOf.get(word) ?? Infinity);
      const current = best.get(word);
      if (share >= PHRASE_SHARE && (current === undefined || countOf.get(current)! < cls.counts[k])) {
        best.set(word, phrase);
      }
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
    if (layer > 0) byLayer.set(layer, [...(byLayer.get(layer) ?? []), id]);
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
