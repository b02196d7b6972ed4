/**
 * The RAPTOR tree as a strict hierarchy the icicle and the outline draw: every node under ONE parent, its
 * primary parent, and every other parent soft clustering gave it kept as an extra parent (marked on the node,
 * listed in the inspector). The primary parent is the parent whose summary embedding is most similar (cosine)
 * to the node's own: the stored tree keeps no cluster posteriors, and a summary is embedded from the text of
 * its cluster, so the nearest summary stands for the most probable cluster. Nodes without a parent (the top
 * layer, and any node a build left unclustered) hang from a virtual root.
 *
 * Children are ordered by where their text starts (leaves in document order; a summary by its first leaf),
 * and each node spans its leaves: a partition of the leaf row in leaf units, the icicle's geometry. Pure and
 * deterministic, O(n + e·dim); tested in Node.
 */
import type { TreeNode } from '../../core/types';
import { cosineSimilarity } from '../../core/vector';
import { buildParentIndex, parentsOf, type ParentIndex } from './graph';

/** What the hierarchy reads of a node. */
export type HierarchyNode = Pick<TreeNode, 'id' | 'layer' | 'children' | 'embedding'>;

/** What the tree view reads of a node. */
export type TreeViewNode = Pick<TreeNode, 'id' | 'layer' | 'text' | 'tokens' | 'children' | 'embedding'> &
  Partial<Pick<TreeNode, 'label' | 'title'>>;

/** The virtual root's id in `primaryParent` and `kids`. */
export const ROOT = -1;

/** A tree as a hierarchy; arrays are indexed by node id. */
export interface Hierarchy {
  /** Number of nodes. */
  size: number;
  /** Rows: the highest layer + 1. */
  layerCount: number;
  /** Each node's layer. */
  layer: Int32Array;
  /** Each node's primary parent, or ROOT. */
  primaryParent: Int32Array;
  /** Primary children of each node in drawing order (leaves in document order); `rootKids` for the root. */
  kids: Int32Array[];
  rootKids: Int32Array;
  /** First leaf slot each node spans and how many (its primary subtree's leaves); the root spans all. */
  start: Float64Array;
  span: Float64Array;
  /** Leaves in the tree: the width of the whole icicle in leaf units. */
  leafCount: number;
  /** `rows[layer]`: that layer's nodes, left to right (ascending `start`). */
  rows: Int32Array[];
  /** Every parent of every node (soft clustering), for the inspector and the extra-parent marks. */
  parents: ParentIndex;
  /** Primary-subtree size of each node (itself included): leaves and summaries below it. */
  descendants: Int32Array;
}

/**
 * Each node's primary parent: of its parents, the one whose embedding is most similar to its own (ties: the
 * lower id). A parent that would be left without any child (soft clustering can give all of a node's children
 * closer parents) takes back its most similar child from a parent that keeps at least one other, so every
 * summary spans at least one leaf where the tree allows it.
 */
export function primaryParents(nodes: readonly HierarchyNode[], parents: ParentIndex): Int32Array {
  const n = nodes.length;
  const primary = new Int32Array(n).fill(ROOT);
  const similarity = new Float64Array(n).fill(-Infinity);
  const kidCount = new Int32Array(n);
  for (let id = 0; id < n; id++) {
    const list = parentsOf(parents, id);
    for (let k = 0; k < list.length; k++) {
      const p = list[k];
      if (nodes[p].layer <= nodes[id].layer) continue;
      const s = cosineSimilarity(nodes[id].embedding, nodes[p].embedding);
      if (s > similarity[id]) {
        similarity[id] = s;
        primary[id] = p;
      }
    }
    if (primary[id] !== ROOT) kidCount[primary[id]]++;
  }
  for (let p = 0; p < n; p++) {
    if (nodes[p].layer === 0 || kidCount[p] > 0) continue;
    let best = -1;
    let bestSimilarity = -Infinity;
    for (const child of nodes[p].children) {
      if (child < 0 || child >= n || nodes[child].layer >= nodes[p].layer) continue;
      const from = primary[child];
      if (from !== ROOT && kidCount[from] < 2) continue;
      const s = cosineSimilarity(nodes[child].embedding, nodes[p].embedding);
      if (s > bestSimilarity) {
        bestSimilarity = s;
        best = child;
      }
    }
    if (best < 0) continue;
    if (primary[best] !== ROOT) kidCount[primary[best]]--;
    primary[best] = p;
    kidCount[p]++;
  }
  return primary;
}

/**
 * Builds the hierarchy of a tree whose ids are dense (`nodes[i].id === i`); children outside the tree or not
 * in a lower layer are ignored.
 */
export function buildHierarchy(nodes: readonly HierarchyNode[]): Hierarchy {
  const n = nodes.length;
  const parents = buildParentIndex(nodes);
  const primaryParent = primaryParents(nodes, parents);
  const layer = Int32Array.from(nodes, (node) => Math.max(0, node.layer));
  let maxLayer = n > 0 ? 0 : -1;
  for (let id = 0; id < n; id++) maxLayer = Math.max(maxLayer, layer[id]);

  // Children lists, grouped by parent (ROOT last), then each ordered by its first leaf.
  const lists: number[][] = Array.from({ length: n + 1 }, () => []);
  for (let id = 0; id < n; id++) lists[primaryParent[id] === ROOT ? n : primaryParent[id]].push(id);
  const firstLeaf = new Float64Array(n).fill(Infinity);
  const order = Array.from({ length: n }, (_, id) => id).sort((a, b) => layer[a] - layer[b] || a - b);
  for (const id of order) {
    if (layer[id] === 0) firstLeaf[id] = id;
    const p = primaryParent[id];
    if (p !== ROOT) firstLeaf[p] = Math.min(firstLeaf[p], firstLeaf[id]);
  }
  const byFirstLeaf = (a: number, b: number) => firstLeaf[a] - firstLeaf[b] || a - b;
  const kids = lists.slice(0, n).map((list) => Int32Array.from(list.sort(byFirstLeaf)));
  const rootKids = Int32Array.from(lists[n].sort(byFirstLeaf));

  // Spans: leaves count 1; a parent spans its kids, laid side by side from its start.
  const span = new Float64Array(n);
  const descendants = new Int32Array(n).fill(1);
  for (const id of order) {
    if (layer[id] === 0) span[id] = 1;
    const p = primaryParent[id];
    if (p !== ROOT) {
      span[p] += span[id];
      descendants[p] += descendants[id];
    }
  }
  const start = new Float64Array(n);
  const place = (list: Int32Array, from: number) => {
    let at = from;
    for (const id of list) {
      start[id] = at;
      at += span[id];
    }
    return at;
  };
  const leafCount = place(rootKids, 0);
  for (let k = order.length - 1; k >= 0; k--) place(kids[order[k]], start[order[k]]);

  const rowLists: number[][] = Array.from({ length: maxLayer + 1 }, () => []);
  for (let id = 0; id < n; id++) rowLists[layer[id]].push(id);
  const rows = rowLists.map((row) => Int32Array.from(row.sort((a, b) => start[a] - start[b] || a - b)));
  return {
    size: n,
    layerCount: maxLayer + 1,
    layer,
    primaryParent,
    kids,
    rootKids,
    start,
    span,
    leafCount,
    rows,
    parents,
    descendants,
  };
}

const built = new WeakMap<readonly HierarchyNode[], Hierarchy>();

/** `buildHierarchy(nodes)`, built once per nodes array (the view and the inspector share it). */
export function hierarchyOf(nodes: readonly HierarchyNode[]): Hierarchy {
  let h = built.get(nodes);
  if (h === undefined) {
    h = buildHierarchy(nodes);
    built.set(nodes, h);
  }
  return h;
}

/** The primary ancestors of a node, nearest first (the root not included). */
export function ancestorsOf(h: Hierarchy, id: number): number[] {
  const out: number[] = [];
  for (let p = h.primaryParent[id]; p !== ROOT; p = h.primaryParent[p]) out.push(p);
  return out;
}

/** The primary children of a node, or of the root for ROOT. */
export function kidsOf(h: Hierarchy, id: number): Int32Array {
  return id === ROOT ? h.rootKids : h.kids[id];
}
