/**
 * Tree traversal by keywords: a walk down the layers that follows every branch holding one of the question's
 * best passages, and prunes the rest. Each node is bounded by the best keyword score at or under it (its own,
 * or its best descendant's); starting from the start layer, a node is entered when its bound reaches the score
 * of the `PASSAGE_POOL`-th best node of the lowest layer visited (the candidates passages.ts reads first), and
 * at least the `topK` best-bounded nodes of each layer are entered (the paper's k, as a floor). The nodes
 * entered are the candidates whose sentences then fill the budget, and the summaries on the way to them are the
 * route the app draws.
 *
 * Why not the paper's k per layer: by keywords it found 0.17 of the thematic evidence with k = 5 (0.31 with
 * k = 20), the collapsed tree 0.36 (docs/retrieval.md): a fixed k drops branches that hold good passages. A
 * bound is exact (a pruned branch holds nothing better than the threshold), so the walk reaches every passage
 * the flat search would, and says through which summaries.
 */
import type { TreeNode } from '../types';
import { leavesUnder } from './distinct';
import { PASSAGE_POOL } from './passages';

/** What `walkDown` needs of the tree and the question. */
export interface WalkRequest {
  nodes: readonly TreeNode[];
  /** Node ids of each layer. */
  layers: readonly (readonly number[])[];
  /** Each node's keyword score for the question. */
  scores: Float64Array;
  /** Each node's cosine similarity (breaks ties among equal bounds). */
  cosines: Float64Array;
  startLayer: number;
  numLayers: number;
  /** Nodes entered per layer at least. */
  topK: number;
}

/** The walk: every node entered, top layer first (best bound first within a layer). */
export function walkDown(request: WalkRequest): number[] {
  const { nodes, layers, scores, cosines, startLayer, numLayers, topK } = request;
  const endLayer = startLayer - numLayers + 1;
  const bound = new Float64Array(nodes.length);
  for (let layer = 0; layer <= startLayer; layer++) {
    for (const id of layers[layer]) {
      let best = scores[id];
      for (const child of nodes[id].children) if (bound[child] > best) best = bound[child];
      bound[id] = best;
    }
  }
  const threshold = poolThreshold(layers[endLayer], bound);
  const byBound = (a: number, b: number) => bound[b] - bound[a] || cosines[b] - cosines[a] || a - b;
  const entered: number[] = [];
  let frontier = [...layers[startLayer]];
  for (let layer = startLayer; layer >= endLayer && frontier.length > 0; layer--) {
    frontier.sort(byBound);
    const kept = frontier.filter((id, rank) => rank < topK || (bound[id] > 0 && bound[id] >= threshold));
    entered.push(...kept);
    const next = new Set<number>();
    for (const id of kept) for (const child of nodes[id].children) next.add(child);
    frontier = [...next];
  }
  return entered;
}

/** The bound a node needs to be entered: the `PASSAGE_POOL`-th best bound of the lowest layer (0 if fewer). */
function poolThreshold(lowest: readonly number[], bound: Float64Array): number {
  if (lowest.length <= PASSAGE_POOL) return 0;
  const sorted = lowest.map((id) => bound[id]).sort((a, b) => b - a);
  return sorted[PASSAGE_POOL - 1];
}

/**
 * The summaries among `entered` that lead to a passage of `chosen` (have one of its leaves under them), in the
 * walk's order: the route the traversal took to what it read. Chosen nodes themselves are left out.
 */
export function routeTo(
  nodes: readonly TreeNode[],
  entered: readonly number[],
  chosen: readonly number[],
): number[] {
  const reached = new Set<number>();
  for (const id of chosen) for (const leaf of leavesUnder(nodes, id)) reached.add(leaf);
  const taken = new Set(chosen);
  return entered.filter((id) => {
    if (nodes[id].layer === 0 || taken.has(id)) return false;
    for (const leaf of leavesUnder(nodes, id)) if (reached.has(leaf)) return true;
    return false;
  });
}
