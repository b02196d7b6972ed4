/**
 * Keyword search over a tree's nodes: a BM25+ index (bm25.ts; k1 1.2, b 0.7, δ 0.5) of every node's text, built
 * once per tree in memory (`keywordIndex`) and queried with the question's own words. It is what finds the
 * names, places and rare words that averaged word vectors blur ("Who is Mrs Gardiner's brother?"). Terms are
 * `keywordTerms`' (terms.ts: folded, function words out, Porter stems), for the index and the question alike.
 *
 * Nearby words: a leaf is also indexed under the words of the `NEARBY_LEAVES` leaves on each side of it in its
 * document (a second field, weighted `NEARBY_BOOST`), because a passage seldom repeats the names its neighbours
 * already gave: in Pride and Prejudice the passage in which the housekeeper praises her master ("He is the best
 * landlord, and the best master") names neither "Reynolds" nor "Pemberley"; the passages before it do. Its own
 * words still count ten times more. Summaries (which the tree already gives their context) and leaves without a
 * `source` (e.g. trees imported from the official code, whose order is unknown) are indexed under their own text
 * only. Measured on the gold sets (`npm run bench retrieval`, docs/retrieval.md): one-fact evidence found by the
 * default rose from 0.614 to 0.674, the arc's from 0.256 to 0.306; plain BM25 over the leaves finds 0.629 and
 * 0.256.
 *
 * Built when a tree opens (in chunks, `prepareKeywordIndex`) rather than stored: `npm run bench keywords` times
 * the build of a 14,000-node tree and a question to it (docs/retrieval.md).
 */
import { yieldToEventLoop } from '../yield';
import type { TreeNode } from '../types';
import { Bm25Index, inverseFrequency } from './bm25';
import { keywordTerms } from './terms';

export { keywordTerms, stemTerm, STOP_WORDS } from './terms';

/** Leaves on each side of a leaf, in its document, whose words are indexed with it (the `nearby` field). */
export const NEARBY_LEAVES = 2;
/**
 * Weight of the nearby words against a node's own (1). Measured on the gold sets: 0.05, 0.1 and 0.15 with two
 * leaves each side found the same evidence within one question; one or three leaves each side did no better.
 */
export const NEARBY_BOOST = 0.1;

/** A tree's keyword index: BM25 scores of every node for a question (its own words and, for leaves, nearby words). */
export interface KeywordIndex {
  /** Nodes indexed (= the tree's node count). */
  readonly size: number;
  /** Distinct terms in the index. */
  readonly terms: number;
  /**
   * Writes each node's BM25 score for `text` into `scores` (indexed by node id; 0 where no term matches) and
   * returns how many nodes matched at least one term.
   */
  score(text: string, scores: Float64Array): number;
  /**
   * The terms of `text` that some node's own words hold, each with its BM25 weight in the index: its inverse
   * document frequency over the nodes' own words, times how often `text` repeats it (a repeated word counts
   * again, as in `score`). What a passage's sentences are scored with (passages.ts).
   */
  termWeights(text: string): Map<string, number>;
  /**
   * The BM25 weight of one term (as `keywordTerms` gives it): its inverse document frequency over the nodes' own
   * words, 0 when no node holds it. What feedback weighs the terms it adds to a question with (feedback.ts).
   */
  termWeight(term: string): number;
}

/** Keyed by the nodes array, like the retrieval index: a tree is not expected to mutate. */
const cache = new WeakMap<readonly TreeNode[], { size: number; index: KeywordIndex }>();

function wrap(index: Bm25Index): KeywordIndex {
  return {
    size: index.size,
    terms: index.terms,
    score: (text, scores) => index.score(keywordTerms(text), scores),
    termWeights(text) {
      const weights = new Map<string, number>();
      for (const term of keywordTerms(text)) {
        const holding = index.holding(term);
        if (holding === 0) continue;
        weights.set(term, (weights.get(term) ?? 0) + inverseFrequency(index.size, holding));
      }
      return weights;
    },
    termWeight(term) {
      const holding = index.holding(term);
      return holding === 0 ? 0 : inverseFrequency(index.size, holding);
    },
  };
}

/**
 * For each leaf with a `source`, the ids of the `NEARBY_LEAVES` leaves before and after it in the same document
 * (by start offset); absent for every other node.
 */
export function nearbyLeaves(nodes: readonly TreeNode[]): Map<number, number[]> {
  const byDocument = new Map<string, TreeNode[]>();
  for (const node of nodes) {
    if (node.layer !== 0 || !node.source) continue;
    const list = byDocument.get(node.source.doc);
    if (list) list.push(node);
    else byDocument.set(node.source.doc, [node]);
  }
  const nearby = new Map<number, number[]>();
  for (const leaves of byDocument.values()) {
    leaves.sort((a, b) => a.source!.start - b.source!.start || a.id - b.id);
    leaves.forEach((leaf, i) => {
      const around: number[] = [];
      for (let j = Math.max(0, i - NEARBY_LEAVES); j <= i + NEARBY_LEAVES && j < leaves.length; j++) {
        if (j !== i) around.push(leaves[j].id);
      }
      nearby.set(leaf.id, around);
    });
  }
  return nearby;
}

/**
 * An empty index of `nodes` and the function that adds node `id` to it. Every node's terms are made once
 * (`keywordTerms`), however many neighbours read them, and dropped when the last node is in.
 */
function indexer(nodes: readonly TreeNode[]): { index: Bm25Index; add(id: number): void } {
  const nearby = nearbyLeaves(nodes);
  const around = nodes.map((node) => nearby.get(node.id));
  const index = new Bm25Index(nodes.length, around, NEARBY_BOOST);
  let terms: (string[] | undefined)[] | undefined = [];
  const termsOf = (id: number): string[] => (terms![id] ??= keywordTerms(nodes[id].text));
  let added = 0;
  return {
    index,
    add(id) {
      const neighbours = around[id];
      let distinct = 0;
      if (neighbours && neighbours.length > 0) {
        const seen = new Set<string>();
        for (const other of neighbours) for (const term of termsOf(other)) seen.add(term);
        distinct = seen.size;
      }
      index.add(id, termsOf(id), distinct);
      if (++added === nodes.length) terms = undefined;
    },
  };
}

/**
 * The keyword index of `nodes` (every node's text, all layers), built on first use and kept while the nodes
 * array lives; a node appended to the same array rebuilds it.
 */
export function keywordIndex(nodes: readonly TreeNode[]): KeywordIndex {
  const cached = cache.get(nodes);
  if (cached && cached.size === nodes.length) return cached.index;
  const { index, add } = indexer(nodes);
  for (let id = 0; id < nodes.length; id++) add(id);
  const keywords = wrap(index);
  cache.set(nodes, { size: nodes.length, index: keywords });
  return keywords;
}

/**
 * Nodes indexed between two returns to the event loop by `prepareKeywordIndex`: about 10 ms of work in Node on
 * this machine (`npm run bench keywords`: 0.47–0.52 s for 14,000 nodes), under the 50 ms a browser calls a long task.
 */
const PREPARE_CHUNK = 250;

/**
 * Builds the keyword index of `nodes` ahead of the first question, returning to the event loop every
 * `PREPARE_CHUNK` nodes, so a page that opens a large tree stays responsive; a question asked meanwhile builds
 * it at once (`keywordIndex`).
 */
export async function prepareKeywordIndex(nodes: readonly TreeNode[]): Promise<void> {
  if (cache.get(nodes)?.size === nodes.length) return;
  const { index, add } = indexer(nodes);
  for (let start = 0; start < nodes.length; start += PREPARE_CHUNK) {
    if (start > 0) await yieldToEventLoop();
    for (let id = start; id < Math.min(nodes.length, start + PREPARE_CHUNK); id++) add(id);
  }
  if (cache.get(nodes)?.size !== nodes.length) cache.set(nodes, { size: nodes.length, index: wrap(index) });
}
