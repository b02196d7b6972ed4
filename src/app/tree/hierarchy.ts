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
import { dot } from '../../core/vector';
import { buildParentIndex, type ParentIndex } from './graph';

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
  // Norms once per node, not once per link (a 100k-node tree of 768-d embeddings has ~110k links).
  const norms = new Float64Array(n).fill(-1);
  const cosine = (a: number, b: number) => {
    if (norms[a] < 0) norms[a] = Math.sqrt(dot(nodes[a].embedding, nodes[a].embedding));
    if (norms[b] < 0) norms[b] = Math.sqrt(dot(nodes[b].embedding, nodes[b].embedding));
    const scale = norms[a] * norms[b];
    return scale === 0 ? 0 : dot(nodes[a].embedding, nodes[b].embedding) / scale;
  };
  for (let id = 0; id < n; id++) {
    // One parent above the node (nine in ten nodes): it is the primary one, with no similarity to compute.
    let candidates = 0;
    for (let k = parents.offsets[id]; k < parents.offsets[id + 1]; k++) {
      if (nodes[parents.ids[k]].layer > nodes[id].layer) candidates++;
    }
    for (let k = parents.offsets[id]; k < parents.offsets[id + 1]; k++) {
      const p = parents.ids[k];
      if (nodes[p].layer <= nodes[id].layer) continue;
      if (candidates === 1) {
        primary[id] = p;
        break;
      }
      const s = cosine(id, p);
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
      const s = cosine(child, p);
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

/** The icicle's geometry of a hierarchy: what `layoutHierarchy` computes from layers and primary parents. */
export type Layout = Omit<Hierarchy, 'size' | 'layer' | 'primaryParent' | 'parents'>;

/**
 * Builds the hierarchy of a tree whose ids are dense (`nodes[i].id === i`); children outside the tree or not
 * in a lower layer are ignored.
 */
export function buildHierarchy(nodes: readonly HierarchyNode[]): Hierarchy {
  const parents = buildParentIndex(nodes);
  const primaryParent = primaryParents(nodes, parents);
  const layer = new Int32Array(nodes.length);
  for (let id = 0; id < nodes.length; id++) layer[id] = Math.max(0, nodes[id].layer);
  return { size: nodes.length, layer, primaryParent, parents, ...layoutHierarchy(layer, primaryParent) };
}

/**
 * The partition of the leaf row: children ordered by their first leaf, each node spanning its primary
 * subtree's leaves, laid side by side from its parent's start; rows per layer. This is what d3-hierarchy's
 * `partition` computes (after `sum` and `sort`), on typed arrays: `npm run bench view` times both at 100k
 * nodes, and ours is kept for its speed (docs/tree-view.md).
 */
export function layoutHierarchy(layer: Int32Array, primaryParent: Int32Array): Layout {
  const n = layer.length;
  let maxLayer = n > 0 ? 0 : -1;
  for (let id = 0; id < n; id++) maxLayer = Math.max(maxLayer, layer[id]);
  const layerCount = maxLayer + 1;

  // Nodes by layer, then id (a counting sort): children before their parents.
  const perLayer = new Int32Array(layerCount + 1);
  for (let id = 0; id < n; id++) perLayer[layer[id] + 1]++;
  for (let l = 0; l < layerCount; l++) perLayer[l + 1] += perLayer[l];
  const order = new Int32Array(n);
  const next = perLayer.slice(0, layerCount);
  for (let id = 0; id < n; id++) order[next[layer[id]]++] = id;

  // Each node's first leaf, span (leaves count 1) and primary-subtree size, children first.
  const firstLeaf = new Float64Array(n + 1).fill(Infinity);
  const span = new Float64Array(n);
  const descendants = new Int32Array(n).fill(1);
  for (let k = 0; k < n; k++) {
    const id = order[k];
    if (layer[id] === 0) {
      firstLeaf[id] = id;
      span[id] = 1;
    }
    const p = primaryParent[id];
    if (p !== ROOT) {
      if (firstLeaf[id] < firstLeaf[p]) firstLeaf[p] = firstLeaf[id];
      span[p] += span[id];
      descendants[p] += descendants[id];
    }
  }

  // Children of each node (the root's at n) in one buffer, each list ordered by first leaf, then id.
  const offsets = new Int32Array(n + 2);
  for (let id = 0; id < n; id++) offsets[(primaryParent[id] === ROOT ? n : primaryParent[id]) + 1]++;
  for (let p = 0; p <= n; p++) offsets[p + 1] += offsets[p];
  const flat = new Int32Array(n);
  const fill = offsets.slice(0, n + 1);
  for (let id = 0; id < n; id++) flat[fill[primaryParent[id] === ROOT ? n : primaryParent[id]]++] = id;
  // Most nodes are leaves: they share one empty list (a typed-array view per node is the layout's main cost).
  const kidsOf = (p: number) =>
    offsets[p] === offsets[p + 1]
      ? NO_KIDS
      : sortByFirstLeaf(flat.subarray(offsets[p], offsets[p + 1]), firstLeaf);
  const kids = new Array<Int32Array>(n);
  for (let p = 0; p < n; p++) kids[p] = kidsOf(p);
  const rootKids = kidsOf(n);

  // Starts: a parent's kids side by side from its start, parents first.
  const start = new Float64Array(n);
  const place = (list: Int32Array, from: number) => {
    let at = from;
    for (let k = 0; k < list.length; k++) {
      start[list[k]] = at;
      at += span[list[k]];
    }
    return at;
  };
  const leafCount = place(rootKids, 0);
  for (let k = n - 1; k >= 0; k--) place(kids[order[k]], start[order[k]]);

  // Rows by start, then id: one native numeric sort of exact keys (start · n + id < 2^53 for any real tree).
  const rows: Int32Array[] = [];
  for (let l = 0; l < layerCount; l++) {
    const ids = order.subarray(perLayer[l], perLayer[l + 1]);
    const keys = new Float64Array(ids.length);
    for (let k = 0; k < ids.length; k++) keys[k] = start[ids[k]] * n + ids[k];
    keys.sort();
    const row = new Int32Array(ids.length);
    for (let k = 0; k < ids.length; k++) row[k] = keys[k] % n;
    rows.push(row);
  }
  return { layerCount, kids, rootKids, start, span, leafCount, rows, descendants };
}

const NO_KIDS = new Int32Array(0);

/** Sorts a list of node ids in place by first leaf, then id (insertion sort: lists are a few nodes long). */
function sortByFirstLeaf(list: Int32Array, firstLeaf: Float64Array): Int32Array {
  if (list.length > 32) return list.sort((a, b) => firstLeaf[a] - firstLeaf[b] || a - b);
  for (let i = 1; i < list.length; i++) {
    const id = list[i];
    let j = i - 1;
    while (
      j >= 0 &&
      (firstLeaf[list[j]] > firstLeaf[id] || (firstLeaf[list[j]] === firstLeaf[id] && list[j] > id))
    )
      list[j + 1] = list[j--];
    list[j + 1] = id;
  }
  return list;
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
