/**
 * Retrieval hits: the reciprocal rank of the first hit, and the rule for generated questions, whose gold is the
 * node they were written from: retrieving that node, one of its parents or one of its children is a hit (a
 * parent summarises it; its children hold what it summarises). Nodes further away are not: the root
 * summarises everything, and would otherwise count for every question.
 */
import type { RaptorTree } from '../types';

/**
 * Reciprocal rank of the first hit: 1/r for the smallest 1-based rank r in `hitRanks` (0 entries meaning "never
 * hit" are ignored), 0 when there is none.
 */
export function reciprocalRank(hitRanks: readonly number[]): number {
  let first = Infinity;
  for (const r of hitRanks) if (r > 0 && r < first) first = r;
  return first === Infinity ? 0 : 1 / first;
}

/** Each node's parents (the nodes that list it among their children), computed once per tree. */
const parentsCache = new WeakMap<RaptorTree['nodes'], number[][]>();

function parentsOf(tree: RaptorTree): number[][] {
  let parents = parentsCache.get(tree.nodes);
  if (!parents) {
    parents = tree.nodes.map(() => []);
    for (const node of tree.nodes) for (const child of node.children) parents[child]?.push(node.id);
    parentsCache.set(tree.nodes, parents);
  }
  return parents;
}

/**
 * The nodes whose retrieval answers a question written from node `gold`: itself, its parents and its
 * children. Empty when `gold` is not a node of the tree.
 */
export function goldNeighbourhood(tree: RaptorTree, gold: number): Set<number> {
  const node = tree.nodes[gold];
  if (!Number.isInteger(gold) || !node) return new Set();
  return new Set([gold, ...parentsOf(tree)[gold], ...node.children]);
}

/** The 1-based rank of the first retrieved id in `targets`, 0 when none is. */
export function firstHitRank(retrieved: readonly number[], targets: ReadonlySet<number>): number {
  const at = retrieved.findIndex((id) => targets.has(id));
  return at + 1;
}
