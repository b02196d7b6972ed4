/**
 * Graph queries the tree UI needs beyond `children`: each node's parents (soft clustering gives a node
 * several) and keyboard moves between nodes of the drawn layout. Pure functions, tested in Node.
 */
import type { TreeNode } from '../../core/types';
import type { TreeLayout } from './layout';

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
  const byId = [...nodes].sort((a, b) => a.id - b.id);
  for (const node of byId) for (const child of node.children) if (valid(child)) ids[fill[child]++] = node.id;
  return { offsets, ids };
}

/** The parents of `id` (a view into the index). */
export function parentsOf(index: ParentIndex, id: number): Int32Array {
  return index.ids.subarray(index.offsets[id], index.offsets[id + 1]);
}

/** A keyboard move in the tree view. */
export type TreeMove = 'left' | 'right' | 'up' | 'down' | 'first' | 'last';

/**
 * The node a keyboard move lands on, or `id` itself when there is nowhere to go.
 * left/right: the neighbour in the row; first/last: the row's ends; up: the parent nearest in x (ties: lower
 * id), or, for a node without parents below the top row, the nearest node of the row above; down: the child
 * nearest in x, likewise.
 */
export function moveFocus(
  layout: TreeLayout,
  nodes: readonly Pick<TreeNode, 'layer' | 'children'>[],
  parents: ParentIndex,
  id: number,
  move: TreeMove,
): number {
  const layer = nodes[id].layer;
  const row = layout.rows[layer];
  const col = layout.column[id];
  switch (move) {
    case 'left':
      return col > 0 ? row[col - 1] : id;
    case 'right':
      return col < row.length - 1 ? row[col + 1] : id;
    case 'first':
      return row[0];
    case 'last':
      return row[row.length - 1];
    case 'up':
      return (
        nearestOf(layout, parentsOf(parents, id), id) ?? nearestInRow(layout, layer + 1, layout.x[id]) ?? id
      );
    case 'down': {
      const children = nodes[id].children.filter((c) => c >= 0 && c < nodes.length && nodes[c].layer < layer);
      return nearestOf(layout, children, id) ?? nearestInRow(layout, layer - 1, layout.x[id]) ?? id;
    }
  }
}

/** Of `candidates`, the one nearest in x to node `from` (ties: lower id); undefined when there are none. */
function nearestOf(layout: TreeLayout, candidates: ArrayLike<number>, from: number): number | undefined {
  let best: number | undefined;
  let bestDistance = Infinity;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    const distance = Math.abs(layout.x[c] - layout.x[from]);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && c < best)) {
      best = c;
      bestDistance = distance;
    }
  }
  return best;
}

/** The node of row `layer` nearest to x (binary search: rows ascend in x); undefined for a missing row. */
export function nearestInRow(layout: TreeLayout, layer: number, x: number): number | undefined {
  const row = layout.rows[layer];
  if (row === undefined || row.length === 0) return undefined;
  let lo = 0;
  let hi = row.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (layout.x[row[mid]] < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(layout.x[row[lo - 1]] - x) <= Math.abs(layout.x[row[lo]] - x)) return row[lo - 1];
  return row[lo];
}

/**
 * The positions [from, to) within row `layer` of the nodes whose x lies in [x0, x1] (binary search: rows
 * ascend in x). Empty for a missing row.
 */
export function rowRange(layout: TreeLayout, layer: number, x0: number, x1: number): [number, number] {
  const row = layout.rows[layer];
  if (row === undefined) return [0, 0];
  const lowerBound = (value: number, strict: boolean) => {
    let lo = 0;
    let hi = row.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const v = layout.x[row[mid]];
      if (v < value || (strict && v === value)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [lowerBound(x0, false), Math.max(lowerBound(x0, false), lowerBound(x1, true))];
}
