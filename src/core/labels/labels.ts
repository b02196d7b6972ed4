/**
 * Topic labels: every summary gets 2–4 terms or two-word phrases that say what sets it apart, computed from the
 * text of its descendant leaves by class-based TF-IDF as BERTopic defines it (Grootendorst 2022, §3.3): each
 * summary's leaves joined into one "class document"; a term's frequency in the class, L1-normalised over the
 * class, times log(1 + A / f), where A is the mean number of terms per class and f the term's frequency over all
 * the classes it is scored against. A person reads a label beside its siblings (the children of the summary
 * zoomed to) and under its parent (whose label the breadcrumb shows), so four passes make labels tell those
 * apart (each measured in docs/tree-view.md, `npm run bench labels`):
 *
 * - **Against the layer and the siblings**: a term's weight is its class frequency times the geometric mean of
 *   its c-TF-IDF weight against the other summaries of the layer and against its siblings (the other children
 *   of its parents).
 * - **New at its level**: layers are labelled from the top, and a word of a parent's label is left out of its
 *   children's labels.
 * - **One word, one sibling**: a word labels at most one of a group of siblings (the top layer is one group),
 *   the one whose proposal for it scores best; the others take their next term.
 * - **Diverse**: the terms of one label are chosen greedily, each discounted by how much its passages overlap
 *   those of the terms already chosen (maximal marginal relevance), so a label is not two words for one thing.
 *
 * Proper names (capitalised away from the start of a sentence) weigh double: they are what a reader finds a
 * part of a book by. A class left with fewer than MIN_LABEL_TERMS terms takes its best terms regardless of the
 * parent and sibling passes. Terms, stems and spelling: `label-terms.ts`. Deterministic: the same nodes give
 * the same labels (ties are broken by the terms' stems and the nodes' order, never by iteration order). No LLM.
 */
import {
  classCounts,
  compareKeys,
  countIn,
  countTerms,
  mainPhrase,
  MIN_TERM_COUNT,
  Vocabulary,
  type ClassCounts,
} from './label-terms';
import { NAME_TITLES } from '../text/stop-words';
import type { TreeNode } from '../types';

export { MIN_TERM_COUNT, PHRASE_SHARE } from './label-terms';

/** Most terms in a label. */
export const MAX_LABEL_TERMS = 4;
/** A label aims for at least this many terms (a class with fewer distinct terms gets what it has). */
export const MIN_LABEL_TERMS = 2;
/** The weight of a proper name (a term spelt with a capital away from sentence starts) against other terms. */
export const NAME_WEIGHT = 2;
/**
 * How much a term's overlap with the terms already chosen discounts it: its score times (1 − this × the
 * cosine of the two sets of passages holding them). Measured: 0.8 covers the most passages (docs/tree-view.md).
 */
export const DIVERSITY = 0.8;
/** Terms of a class considered for its label, best first (the rest cannot make it past the passes). */
const CANDIDATE_POOL = 64;

/** What labelling reads of a node. */
export type LabelNode = Pick<TreeNode, 'id' | 'layer' | 'text' | 'children'>;

/** The passes that make labels tell summaries apart (see the module comment); each is on by default. */
export interface LabelPasses {
  /** Score against the siblings as well as the layer. */
  siblings: boolean;
  /** Leave the parent's words out of a child's label. */
  parentWords: boolean;
  /** A word labels at most one of a group of siblings. */
  oneSibling: boolean;
  /** Discount terms whose passages overlap the terms already chosen. */
  diversity: boolean;
  /** Proper names weigh NAME_WEIGHT. */
  names: boolean;
}

/** Every pass off: BERTopic's c-TF-IDF against the layer alone (the labels of issue 23; the bench's reference). */
export const PLAIN_C_TF_IDF: Readonly<LabelPasses> = Object.freeze({
  siblings: false,
  parentWords: false,
  oneSibling: false,
  diversity: false,
  names: false,
});

/** Options of `computeLabels`. */
export interface LabelOptions {
  /** Most terms per label. Default MAX_LABEL_TERMS. */
  maxTerms?: number;
  /** Passes to switch off (for measuring them); default all on. */
  passes?: Partial<LabelPasses>;
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

/** Parents of each node: the summaries of higher layers that list it as a child. */
function parentsOf(nodes: readonly LabelNode[]): number[][] {
  const out: number[][] = nodes.map(() => []);
  for (const node of nodes) {
    for (const child of node.children) {
      if (child >= 0 && child < nodes.length && nodes[child].layer < node.layer) out[child].push(node.id);
    }
  }
  return out;
}

/** A term a class may be labelled with. */
interface Candidate {
  /** Its place in its class's candidates (best first). */
  index: number;
  /** The term shown (a word, or the phrase that mostly holds it). */
  term: number;
  /** Its words, titles left out: what the parent, sibling and overlap passes compare. */
  words: number[];
  score: number;
}

/** What a class is scored against: the layer's term frequencies, and its siblings. */
interface Background {
  frequency: Float64Array;
  averageTotal: number;
  siblings: readonly ClassCounts[];
}

/**
 * A class's candidate terms, best first: c-TF-IDF against the layer, times (with siblings) the square root of
 * the ratio of its weight against the siblings to its weight against the layer — the geometric mean of both —
 * and NAME_WEIGHT for names. Only the best CANDIDATE_POOL by the layer's score are considered.
 */
function rankCandidates(
  cls: ClassCounts,
  background: Background,
  vocab: Vocabulary,
  display: (term: number) => string,
  passes: LabelPasses,
) {
  const { frequency, averageTotal, siblings } = background;
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
  let eligible = collect(MIN_TERM_COUNT);
  if (eligible.length < MIN_LABEL_TERMS) eligible = collect(1);
  if (eligible.length > CANDIDATE_POOL) {
    // Only the best few can make the label: keep those at or above the pool's last score (ties included).
    const sorted = Float64Array.from(eligible, (k) => scores[k]).sort();
    const threshold = sorted[sorted.length - CANDIDATE_POOL];
    eligible = eligible.filter((k) => scores[k] >= threshold);
  }
  if (passes.siblings && siblings.length > 0) {
    let totals = cls.total;
    for (const s of siblings) totals += s.total;
    const average = totals / (siblings.length + 1);
    for (const k of eligible) {
      let f = cls.counts[k];
      for (const s of siblings) f += countIn(s, cls.terms[k]);
      const layerWeight = Math.log(1 + averageTotal / frequency[cls.terms[k]]);
      scores[k] *= Math.sqrt(Math.log(1 + average / f) / layerWeight);
    }
  }
  const shown = new Int32Array(cls.terms.length);
  for (const k of eligible) {
    const term = mainPhrase(cls, vocab, cls.terms[k], cls.counts[k]);
    shown[k] = term;
    if (passes.names && isCapitalised(display(term))) scores[k] *= NAME_WEIGHT;
  }
  eligible.sort(
    (a, b) => scores[b] - scores[a] || compareKeys(vocab.keys[cls.terms[a]], vocab.keys[cls.terms[b]]),
  );
  const out: Candidate[] = [];
  const seen = new Set<number>();
  for (const k of eligible) {
    const term = shown[k];
    if (seen.has(term)) continue;
    seen.add(term);
    // A phrase's title is not one of its words ("Mr. Darcy" is Darcy); a word is itself, even one spelt like
    // a title ("captains" stems to "captain").
    const parts = vocab.parts[term];
    const words = parts.length > 1 ? parts.filter((w) => !NAME_TITLES.has(vocab.keys[w])) : parts;
    out.push({ index: out.length, term, words, score: scores[k] });
  }
  return out;
}

function isCapitalised(text: string): boolean {
  return text.length > 0 && text[0] !== text[0].toLowerCase();
}

/**
 * Which of a class's leaves hold each of its candidate terms (sorted leaf positions per candidate), in one scan
 * of the leaves' terms. `slot` is a scratch array over the vocabulary, all −1, and is left so.
 */
function candidateLeaves(
  leaves: ArrayLike<number>,
  termsOf: (leaf: number) => Int32Array,
  candidates: readonly Candidate[],
  slot: Int32Array,
): Int32Array[] {
  candidates.forEach((c, k) => (slot[c.term] = k));
  const lists: number[][] = candidates.map(() => []);
  for (let i = 0; i < leaves.length; i++) {
    const pairs = termsOf(leaves[i]);
    for (let k = 0; k < pairs.length; k += 2) {
      const at = slot[pairs[k]];
      if (at >= 0) lists[at].push(i);
    }
  }
  for (const c of candidates) slot[c.term] = -1;
  return lists.map((l) => Int32Array.from(l));
}

/** Cosine of two sets of positions (each sorted): shared / √(|a|·|b|). */
function overlap(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      shared++;
      i++;
      j++;
    }
  }
  return shared / Math.sqrt(a.length * b.length);
}

/** One class being labelled. */
interface Choice {
  candidates: Candidate[];
  chosen: Candidate[];
  /** Words of its chosen terms (a label never says a word twice). */
  used: Set<number>;
  /** Words of its parents' labels. */
  parentWords: Set<number>;
  /** The sibling groups it belongs to: its parents' ids, or −1 for the top layer. */
  groups: number[];
  /** Per candidate (by index), the class's leaves that hold it; made when the diversity pass first asks. */
  leaves: () => Int32Array[];
}

/** A class's best term for its next place, and its score after the passes. */
interface Proposal {
  choice: Choice;
  candidate: Candidate;
  score: number;
}

/**
 * Chooses the labels of one layer, a place at a time (every label's first term, then its second…): each class
 * proposes its best term given what it has chosen (parent words left out, overlap discounted, words a sibling
 * took excluded); proposals are taken best first, and a class whose word a better proposal took proposes again.
 * A class left with fewer than MIN_LABEL_TERMS terms then takes its best terms regardless of parent and siblings.
 */
function chooseLayer(choices: Choice[], maxTerms: number, passes: LabelPasses): void {
  const groupWords = new Map<number, Set<number>>();
  const takenBySibling = (choice: Choice, c: Candidate) =>
    passes.oneSibling && choice.groups.some((g) => c.words.some((w) => groupWords.get(g)?.has(w)));
  const propose = (choice: Choice, strict: boolean): Proposal | undefined => {
    let best: Proposal | undefined;
    for (const c of choice.candidates) {
      // Passes only lower a score, so no later candidate can beat the best found.
      if (best !== undefined && c.score <= best.score) break;
      if (choice.chosen.includes(c) || c.words.some((w) => choice.used.has(w))) continue;
      if (strict && passes.parentWords && c.words.some((w) => choice.parentWords.has(w))) continue;
      if (strict && takenBySibling(choice, c)) continue;
      let score = c.score;
      if (passes.diversity && choice.chosen.length > 0) {
        const leaves = choice.leaves();
        let similar = 0;
        for (const d of choice.chosen) similar = Math.max(similar, overlap(leaves[c.index], leaves[d.index]));
        score *= 1 - DIVERSITY * similar;
      }
      if (score > 0 && (best === undefined || score > best.score)) best = { choice, candidate: c, score };
    }
    return best;
  };
  const accept = ({ choice, candidate }: Proposal) => {
    choice.chosen.push(candidate);
    for (const w of candidate.words) choice.used.add(w);
    for (const g of choice.groups) {
      let words = groupWords.get(g);
      if (words === undefined) groupWords.set(g, (words = new Set()));
      for (const w of candidate.words) words.add(w);
    }
  };
  for (let place = 0; place < maxTerms; place++) {
    let pending = choices.filter((ch) => ch.chosen.length === place);
    while (pending.length > 0) {
      const proposals = pending
        .map((ch) => propose(ch, true))
        .filter((p) => p !== undefined)
        .sort((a, b) => b.score - a.score); // stable: ties keep the layer's order
      pending = [];
      for (const p of proposals) {
        if (takenBySibling(p.choice, p.candidate)) pending.push(p.choice);
        else accept(p);
      }
    }
  }
  for (const choice of choices) {
    while (choice.chosen.length < Math.min(MIN_LABEL_TERMS, maxTerms)) {
      const p = propose(choice, false);
      if (p === undefined) break;
      accept(p);
    }
  }
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
  const passes: LabelPasses = {
    siblings: true,
    parentWords: true,
    oneSibling: true,
    diversity: true,
    names: true,
    ...options.passes,
  };
  const vocab = new Vocabulary();
  const leafTerms: Int32Array[] = new Array(nodes.length);
  const order = nodes.map((n) => n.id).sort((a, b) => nodes[a].layer - nodes[b].layer || a - b);
  for (const id of order) if (nodes[id].layer === 0) leafTerms[id] = countTerms(nodes[id].text, vocab);
  const below = descendantLeaves(nodes, order);
  const parents = parentsOf(nodes);

  const labels: (string[] | undefined)[] = new Array(nodes.length).fill(undefined);
  const labelWords: number[][] = new Array(nodes.length);
  const byLayer = new Map<number, number[]>();
  for (const id of order) {
    const layer = nodes[id].layer;
    if (layer === 0) continue;
    const list = byLayer.get(layer);
    if (list === undefined) byLayer.set(layer, [id]);
    else list.push(id);
  }
  // A summary with no leaves below it (a damaged tree) is labelled from its own text.
  const ownTerms = new Map<number, Int32Array>();
  const termsOf = (id: number) => leafTerms[id] ?? ownTerms.get(id)!;
  // Spelling a term reads all its spellings: once per term (until more text is counted).
  const shownAs = new Map<number, string>();
  const display = (term: number) => {
    let text = shownAs.get(term);
    if (text === undefined) shownAs.set(term, (text = vocab.display(term)));
    return text;
  };
  let slot = new Int32Array(0);
  // From the top down: a child's label leaves out its parents' words, so theirs come first.
  for (const ids of [...byLayer.keys()].sort((a, b) => b - a).map((layer) => byLayer.get(layer)!)) {
    for (const id of ids) {
      if (below[id].length > 0) continue;
      ownTerms.set(id, countTerms(nodes[id].text, vocab));
      shownAs.clear();
    }
    const sources = ids.map((id) => (below[id].length > 0 ? below[id] : Int32Array.of(id)));
    let scratch = new Int32Array(vocab.keys.length);
    const classes = sources.map((leaves) => {
      if (scratch.length < vocab.keys.length) scratch = new Int32Array(vocab.keys.length);
      return classCounts(leaves, termsOf, scratch);
    });
    const frequency = new Float64Array(vocab.keys.length);
    let totals = 0;
    for (const cls of classes) {
      totals += cls.total;
      for (let k = 0; k < cls.terms.length; k++) frequency[cls.terms[k]] += cls.counts[k];
    }
    const averageTotal = totals / classes.length;
    const position = new Map(ids.map((id, c) => [id, c]));
    const choices = ids.map((id, c): Choice => {
      const siblings = new Set<number>();
      const parentWords = new Set<number>();
      for (const p of parents[id]) {
        for (const s of nodes[p].children) if (s !== id && position.has(s)) siblings.add(position.get(s)!);
        for (const w of labelWords[p] ?? []) parentWords.add(w);
      }
      const background = {
        frequency,
        averageTotal,
        siblings: [...siblings].sort((a, b) => a - b).map((s) => classes[s]),
      };
      const candidates = rankCandidates(classes[c], background, vocab, display, passes);
      let leaves: Int32Array[] | undefined;
      return {
        candidates,
        chosen: [],
        used: new Set(),
        parentWords,
        groups: parents[id].length > 0 ? parents[id] : [-1],
        leaves: () => {
          if (slot.length < vocab.keys.length) slot = new Int32Array(vocab.keys.length).fill(-1);
          return (leaves ??= candidateLeaves(sources[c], termsOf, candidates, slot));
        },
      };
    });
    chooseLayer(choices, maxTerms, passes);
    ids.forEach((id, c) => {
      labels[id] = choices[c].chosen.map((t) => display(t.term));
      labelWords[id] = choices[c].chosen.flatMap((t) => t.words);
    });
  }
  return labels;
}

/** Whether some summary of the tree has no label yet (a tree saved before labels existed). */
export function lacksLabels(nodes: readonly Pick<TreeNode, 'layer' | 'label'>[]): boolean {
  return nodes.some((n) => n.layer > 0 && n.label === undefined);
}

/**
 * Gives every summary without a label its label from `labels` (as `computeLabels` returns them, per node id);
 * labels already there are kept. Returns the ids it labelled.
 */
export function applyLabels(nodes: TreeNode[], labels: readonly (readonly string[] | undefined)[]): number[] {
  const filled: number[] = [];
  for (const node of nodes) {
    const label = labels[node.id];
    if (node.layer > 0 && node.label === undefined && label !== undefined) {
      node.label = [...label];
      filled.push(node.id);
    }
  }
  return filled;
}

/**
 * Gives every summary without a label its label (labels already there are kept). Returns the ids it labelled.
 * All labels are computed together, since each is scored against its layer and its siblings.
 */
export function fillMissingLabels(nodes: TreeNode[], options: LabelOptions = {}): number[] {
  if (!lacksLabels(nodes)) return [];
  return applyLabels(nodes, computeLabels(nodes, options));
}
