/**
 * The graph query the tree UI needs beyond `children`: each node's parents (soft clustering gives a node
 * several). Pure functions, tested in Node.
 */
import type { TreeNode } from '../../core/types';

/** Parents of every node in compressed form: those of `id` are `ids[offsets[id] … offsets[id + 1])`. */
export interface ParentIndex {
  offsets: Int32Array;
  ids: Int32Array;
}

/** Builds the parent lists in O(n + e); each list ascends by id. Out-of-range children are skipped. */
export function buildParentIndex(nodes: readonly Pick<TreeNode, 'id' | 'children'>[]): ParentIndex {
  const n = nodes.length;
  const offsets = new Int32Array(n + 1);
  const valid = (child: number) => Number.isInteger(child) && child >= 0 && child < n;
  for (const node of nodes) for (const child of node.children) if (valid(child)) offsets[child + 1]++;
  for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
  const ids = new Int32Array(offsets[n]);
  const fill = offsets.slice(0, n);
  // Visiting parents by ascending id keeps each list sorted without a sort.
  const byId = nodes.every((node, i) => node.id === i) ? nodes : [...nodes].sort((a, b) => a.id - b.id);
  for (const node of byId) for (const child of node.children) if (valid(child)) ids[fill[child]++] = node.id;
  return { offsets, ids };
}

/** The parents of `id` (a view into the index). */
export function parentsOf(index: ParentIndex, id: number): Int32Array {
  return index.ids.subarray(index.offsets[id], index.offsets[id + 1]);
}
