/**
 * Passages by sentence: what a question by keywords reads from the nodes it ranked. Instead of whole nodes taken
 * best first until the budget is spent (twenty leaves of 100 tokens, often five of them from one scene), the
 * budget is filled with the best SENTENCES of the best-ranked nodes, each scored by its own words and by its
 * node's score: a sentence that names what the question asks, in a passage about it, comes first; the rest of
 * that passage only when nothing elsewhere says more. A context of 2,000 tokens then holds some sixty places of
 * the book instead of twenty, which is what a question whose answer is spread across the book needs
 * (docs/retrieval.md: thematic evidence 0.27 → 0.36 on the tuning sets, facts 0.67 → 0.77).
 *
 * A node enters the context with the sentences chosen from it (its excerpt, runs of consecutive sentences as
 * the text has them, gaps shown as " … "), or whole when every sentence was chosen. A sentence of an extractive
 * summary is a copy of a sentence of a leaf under it: it is credited to that leaf, whose place in the document
 * is known, so a summary enters only with sentences of its own (an LLM's words that its leaves lack), and no
 * sentence is paid for twice.
 *
 * Sentences are cut by the splitter the chunker and the extractive summariser use (`sentenceSpans`), and scored
 * with BM25+ (bm25.ts: k1 1.2, b 0.7, δ 0.5) against the question's terms weighted as the keyword index
 * weighs them (`KeywordIndex.termWeights`) less the question's frame words ("story", "part", "show": frame-words.ts),
 * plus `PASSAGE_FOLLOW_WEIGHT` times the score of the sentence before it (a reply after the line that names what
 * is asked) and `PASSAGE_NODE_WEIGHT` times the node's own keyword score; then scored again with a few words of
 * the best sentences added to the question at a low weight (feedback.ts: the words of the scene).
 */
import { countTokens, headingTitle, MAX_HEADING_CHARS, sentenceSpans, type TextSpan } from '../text';
import type { TreeNode } from '../types';
import { BM25_B as B, BM25_DELTA as DELTA, BM25_K1 as K1 } from './bm25';
import { leavesUnder } from './distinct';
import { FEEDBACK_SENTENCES, withFeedback, type FeedbackSentence } from './feedback';
import { withoutFrameTerms } from './frame-words';
import { keywordIndex } from './keywords';
import { keywordTerms } from './terms';

/**
 * Weight of a node's keyword score in each of its sentences' scores (a sentence's own words weigh 1). Chosen on
 * the tuning gold sets (docs/retrieval.md): 0.25, 0.5, 1, 1.5 and 2.5 found the same evidence within two
 * questions; 0.5 found the most thematic evidence.
 */
export const PASSAGE_NODE_WEIGHT = 0.5;
/**
 * Share of the score of the sentence before it (in the text a sentence is credited to) that a sentence is
 * credited with: an answer is often the reply after the line that names what is asked ("What is his fortune?"
 * … "Fifty thousand pounds, my dear."). Chosen on the tuning gold sets (docs/retrieval.md): 0.3 found the most
 * evidence of every kind with the question frame words left out (0.15 and 0.5 less).
 */
export const PASSAGE_FOLLOW_WEIGHT = 0.3;
/**
 * Nodes whose sentences compete first; when their sentences cannot fill the budget, the next
 * `PASSAGE_POOL_GROWTH` times as many join. 64 nodes hold about 300 sentences, several budgets' worth.
 */
export const PASSAGE_POOL = 64;
const PASSAGE_POOL_GROWTH = 4;
/**
 * Below this many tokens left (once something is in), the budget counts as spent: few sentences are that short,
 * and trying every remaining one would cost a token count each.
 */
const FULL_MARGIN = 8;
/** What stands between two runs of sentences of one node that are not next to each other. */
export const EXCERPT_GAP = ' … ';

/**
 * A node's sentences, split and read once per tree, when a question first reaches the node: their spans in its
 * text and their terms (repeats kept; `keywordTerms` shares one string per stem, so this stays small: about
 * 2 kB a node).
 */
interface NodeSentences {
  spans: TextSpan[];
  terms: string[][];
}

const sentenceMemo = new WeakMap<readonly TreeNode[], Map<number, NodeSentences>>();
const WHITE_SPACE = /\s+/g;

function sentencesOf(nodes: readonly TreeNode[], id: number): NodeSentences {
  let memo = sentenceMemo.get(nodes);
  if (!memo) sentenceMemo.set(nodes, (memo = new Map()));
  let known = memo.get(id);
  if (known) return known;
  const text = nodes[id].text;
  const spans = sentenceSpans(text);
  const terms = spans.map(({ start, end }) => keywordTerms(text.slice(start, end)));
  memo.set(id, (known = { spans, terms }));
  return known;
}

/** A text with every run of white space made one space, as sentences are compared. */
const collapse = (text: string) => text.replace(WHITE_SPACE, ' ').trim();

/** Where a sentence is: its node and its index among the node's sentences. */
interface SentenceRef {
  id: number;
  sentence: number;
}

const copyMemo = new WeakMap<readonly TreeNode[], Map<number, (SentenceRef | undefined)[]>>();
/** Shortest sentence (characters) matched as part of another: "Yes." is in too many places to mean one. */
const MIN_PARTIAL_COPY = 24;

/**
 * For each sentence of summary `id`, the leaf sentence under it it was copied from (an extractive summary's
 * sentences all have one; an LLM's seldom), or undefined; found once per summary. The leaf is the first under the
 * summary whose text (white space made single spaces) holds the sentence; the leaf's sentence is the one with the
 * same text, or one that begins with it (an extractive summary may cut its last sentence short), or the longest
 * that the summary's sentence holds and that is at least half of it (an extractive summary joins a heading line
 * to the sentence after it: "Chapter 29 He then recollected …", two sentences in the leaf). Leaves map to
 * themselves.
 */
function copiesOf(nodes: readonly TreeNode[], id: number): (SentenceRef | undefined)[] {
  const own = sentencesOf(nodes, id);
  if (nodes[id].layer === 0) return own.spans.map((_, sentence) => ({ id, sentence }));
  let memo = copyMemo.get(nodes);
  if (!memo) copyMemo.set(nodes, (memo = new Map()));
  const known = memo.get(id);
  if (known) return known;
  const text = nodes[id].text;
  const keys = own.spans.map(({ start, end }) => collapse(text.slice(start, end)));
  const copies = findCopies(nodes, id, keys);
  // A heading joined to the sentence after it may end one leaf while the sentence opens the next: look for the
  // sentence alone.
  const rest = keys.map((key, i) => (copies[i] ? '' : afterHeading(key)));
  if (rest.some((r) => r !== '')) {
    findCopies(nodes, id, rest).forEach((copy, i) => (copies[i] ??= copy));
  }
  memo.set(id, copies);
  return copies;
}

/** For each key ('' for none), its copy in the first leaf under `id` whose text holds it (`copyIn`). */
function findCopies(
  nodes: readonly TreeNode[],
  id: number,
  keys: readonly string[],
): (SentenceRef | undefined)[] {
  const copies: (SentenceRef | undefined)[] = keys.map(() => undefined);
  let left = keys.filter((k) => k !== '').length;
  for (const leaf of leavesUnder(nodes, id)) {
    if (left === 0) break;
    const flat = collapse(nodes[leaf].text);
    keys.forEach((key, i) => {
      if (key === '' || copies[i] || !flat.includes(key)) return;
      copies[i] = copyIn(nodes, leaf, key);
      if (copies[i]) left--;
    });
  }
  return copies;
}

/** What follows a heading that opens `key` ("Chapter 29 He then …" → "He then …"), or '' when none does. */
function afterHeading(key: string): string {
  for (let at = key.indexOf(' '); at > 0 && at <= MAX_HEADING_CHARS; at = key.indexOf(' ', at + 1)) {
    if (headingTitle(key.slice(0, at)) !== undefined && /^\s*\p{Lu}/u.test(key.slice(at))) {
      return key.slice(at + 1);
    }
  }
  return '';
}

/** The sentence of `leaf` that the summary sentence `key` was copied from (see `copiesOf`), or undefined. */
function copyIn(nodes: readonly TreeNode[], leaf: number, key: string): SentenceRef | undefined {
  const text = nodes[leaf].text;
  let best: SentenceRef | undefined;
  let bestLength = 0;
  sentencesOf(nodes, leaf).spans.forEach(({ start, end }, sentence) => {
    const other = collapse(text.slice(start, end));
    const held = other.length >= MIN_PARTIAL_COPY && other.length * 2 >= key.length && key.includes(other);
    if (other === key || other.startsWith(key)) {
      best = { id: leaf, sentence };
      bestLength = Infinity;
    } else if (held && other.length > bestLength) {
      best = { id: leaf, sentence };
      bestLength = other.length;
    }
  });
  return best;
}

/** One node's part of the context. */
export interface ChosenPassage {
  id: number;
  /** Indexes of the sentences chosen, ascending. */
  sentences: number[];
  /** All of the node's sentences: true when every one was chosen (the node enters whole). */
  whole: boolean;
  /** What enters the context: the node's text when whole, else its chosen sentences (see `excerptText`). */
  text: string;
  /** cl100k tokens of `text`. */
  tokens: number;
  /** Sentences of the node left out. */
  omitted: number;
  /** 1-based order in which the node first entered the context. */
  rank: number;
}

/**
 * The chosen sentences of a node as one text: runs of consecutive sentences as the text has them (line breaks
 * and all), runs joined by `EXCERPT_GAP`.
 */
export function excerptText(text: string, spans: readonly TextSpan[], chosen: readonly number[]): string {
  const runs: string[] = [];
  for (let k = 0; k < chosen.length;) {
    let last = k;
    while (last + 1 < chosen.length && chosen[last + 1] === chosen[last] + 1) last++;
    runs.push(text.slice(spans[chosen[k]].start, spans[chosen[last]].end));
    k = last + 1;
  }
  return runs.join(EXCERPT_GAP);
}

/** What `choosePassages` reads. */
export interface PassageRequest {
  nodes: readonly TreeNode[];
  /**
   * The first `count` candidate nodes, best first (keyword or fused order, as the search ranked them), or all
   * of them when there are fewer: asked for the first `PASSAGE_POOL`, then more only when their sentences leave
   * the budget unspent, so a question never ranks every node of a large tree.
   */
  head(count: number): ArrayLike<number>;
  /** Each node's keyword score for the question (by node id). */
  nodeScores: Float64Array;
  /**
   * The question's terms and their weights (`KeywordIndex.termWeights` of `keywordIndex(nodes)`, whose
   * `termWeight` weighs the terms feedback adds).
   */
  weights: ReadonlyMap<string, number>;
  /** Token budget of the context. */
  maxTokens: number;
  /** The cl100k count of a node's whole text (remembered per tree by the caller). */
  wholeTokens(id: number): number;
}

/** A sentence competing for the budget. */
interface Candidate {
  ref: SentenceRef;
  score: number;
  /** Position in `order` of the node that proposed it (ties go to the better-ranked node). */
  from: number;
}

/** BM25 of one sentence's own words (`terms`, repeats kept) for the question. */
function sentenceScore(
  terms: readonly string[],
  weights: ReadonlyMap<string, number>,
  averageLength: number,
): number {
  const counts = new Map<string, number>();
  for (const term of terms) if (weights.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
  if (counts.size === 0) return 0;
  const norm = K1 * (1 - B + (B * new Set(terms).size) / averageLength);
  let score = 0;
  for (const [term, count] of counts)
    score += weights.get(term)! * (DELTA + (count * (K1 + 1)) / (count + norm));
  return score;
}

/** How sentences are scored for one question: their own words' BM25, per node, computed once. */
interface SentenceScorer {
  /** The BM25 of each sentence of node `id` for the question (frame terms left out). */
  of(id: number): readonly number[];
}

function sentenceScorer(
  nodes: readonly TreeNode[],
  weights: ReadonlyMap<string, number>,
  averageLength: number,
): SentenceScorer {
  const known = new Map<number, number[]>();
  return {
    of(id) {
      let scores = known.get(id);
      if (!scores) {
        scores = sentencesOf(nodes, id).terms.map((terms) => sentenceScore(terms, weights, averageLength));
        known.set(id, scores);
      }
      return scores;
    },
  };
}

/**
 * The sentences of the nodes `ids` (ranked from `first` on) as candidates, summaries' copies credited to leaves:
 * each scored by its own words, `PASSAGE_FOLLOW_WEIGHT` of the sentence before it where it is credited (a copy's
 * in its leaf) and `PASSAGE_NODE_WEIGHT` of its node's keyword score.
 */
function candidatesOf(
  request: PassageRequest,
  ids: readonly number[],
  first: number,
  scorer: SentenceScorer,
): Candidate[] {
  const { nodes, nodeScores } = request;
  const out: Candidate[] = [];
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    const r = first + k;
    const own = scorer.of(id);
    const copies = copiesOf(nodes, id);
    const lift = PASSAGE_NODE_WEIGHT * nodeScores[id];
    own.forEach((score, sentence) => {
      const ref = copies[sentence] ?? { id, sentence };
      const before = ref.sentence > 0 ? scorer.of(ref.id)[ref.sentence - 1] : 0;
      out.push({ ref, score: score + PASSAGE_FOLLOW_WEIGHT * before + lift, from: r });
    });
  }
  return out.sort(
    (a, b) => b.score - a.score || a.from - b.from || a.ref.id - b.ref.id || a.ref.sentence - b.ref.sentence,
  );
}

/** Mean distinct terms per sentence of the first nodes of `order` (BM25's average length), at least 1. */
function averageSentenceLength(nodes: readonly TreeNode[], order: ArrayLike<number>, count: number): number {
  let terms = 0;
  let sentences = 0;
  for (let r = 0; r < count; r++) {
    for (const list of sentencesOf(nodes, order[r]).terms) {
      terms += new Set(list).size;
      sentences++;
    }
  }
  return sentences === 0 ? 1 : Math.max(1, terms / sentences);
}

/** The best distinct sentences of `candidates` (best first), as feedback reads them. */
function bestSentences(nodes: readonly TreeNode[], candidates: readonly Candidate[]): FeedbackSentence[] {
  const seen = new Set<string>();
  const best: FeedbackSentence[] = [];
  for (const { ref, score } of candidates) {
    const key = `${ref.id}:${ref.sentence}`;
    if (seen.has(key)) continue;
    seen.add(key);
    best.push({ terms: sentencesOf(nodes, ref.id).terms[ref.sentence], score });
    if (best.length === FEEDBACK_SENTENCES) break;
  }
  return best;
}

/**
 * How the sentences of the question are scored: by its terms less the frame words, plus the terms the best
 * sentences of the first nodes `head` feed back (feedback.ts), the average length taken over `head`'s sentences.
 */
function feedbackScorer(request: PassageRequest, head: ArrayLike<number>): SentenceScorer {
  const { nodes } = request;
  const average = averageSentenceLength(nodes, head, head.length);
  const asked = withoutFrameTerms(request.weights);
  const first = sentenceScorer(nodes, asked, average);
  const best = bestSentences(nodes, candidatesOf(request, Array.from(head), 0, first));
  const index = keywordIndex(nodes);
  const expanded = withFeedback(asked, best, (term) => index.termWeight(term));
  return expanded === asked ? first : sentenceScorer(nodes, expanded, average);
}

/**
 * Fills `maxTokens` with the best sentences of the best nodes of `order` (see the module comment) and returns
 * each node that entered with its part, in the order they first entered. Sentences are taken best first; one
 * that would overrun the budget is passed over for shorter ones after it. The total of the parts' tokens never
 * exceeds `maxTokens`.
 */
export function choosePassages(request: PassageRequest): ChosenPassage[] {
  const { nodes, maxTokens } = request;
  const chosen = new Map<number, ChosenPassage>();
  const read = new Set<number>();
  let total = 0;
  let scorer: SentenceScorer | undefined;
  for (let size = PASSAGE_POOL; ; size *= PASSAGE_POOL_GROWTH) {
    const head = request.head(size);
    scorer ??= feedbackScorer(request, head);
    // A longer head may order ties differently; its nodes not yet read are the next to compete.
    const fresh: number[] = [];
    for (let r = 0; r < head.length; r++) if (!read.has(head[r])) fresh.push(head[r]);
    for (const id of fresh) read.add(id);
    for (const { ref } of candidatesOf(request, fresh, read.size - fresh.length, scorer)) {
      if (total > 0 && maxTokens - total < FULL_MARGIN) break;
      const passage = chosen.get(ref.id);
      if (passage?.sentences.includes(ref.sentence)) continue;
      const { spans } = sentencesOf(nodes, ref.id);
      const sentences = [...(passage?.sentences ?? []), ref.sentence].sort((a, b) => a - b);
      const whole = sentences.length === spans.length;
      const text = whole ? nodes[ref.id].text : excerptText(nodes[ref.id].text, spans, sentences);
      const tokens = whole ? request.wholeTokens(ref.id) : countTokens(text);
      const grown = total - (passage?.tokens ?? 0) + tokens;
      if (grown > maxTokens) continue;
      total = grown;
      chosen.set(ref.id, {
        id: ref.id,
        sentences,
        whole,
        text,
        tokens,
        omitted: spans.length - sentences.length,
        rank: passage?.rank ?? chosen.size + 1,
      });
    }
    if ((total > 0 && maxTokens - total < FULL_MARGIN) || head.length < size) break;
  }
  return [...chosen.values()].sort((a, b) => a.rank - b.rank);
}
