/**
 * Horizontal layout of a RAPTOR tree (a DAG: soft clustering gives a node several parents) drawn as one row
 * per layer. Leaves sit in id order (document order); every other node wants the barycentre of its children,
 * and each row is then spread so that no two nodes overlap while staying as close as possible (least squares)
 * to where they want to be. Rows themselves are placed on screen by the view (see `rowOffsets` in
 * viewport.ts), the top layer on top. Pure and deterministic: the same nodes give the same coordinates,
 * whatever order the array lists them in. O(n log n) for n nodes plus O(e) for e edges.
 */
import { AerieError } from '../../core/errors';
import type { TreeNode } from '../../core/types';

/** What the layout reads of a node. */
export type LayoutNode = Pick<TreeNode, 'id' | 'layer' | 'children'>;

/** Radius of a leaf's circle, in layout units (1 unit = 1 CSS pixel at zoom 1). */
export const LEAF_RADIUS = 10;
/** Each layer up draws its nodes this much larger, so summaries stand out. */
export const RADIUS_GROWTH_PER_LAYER = 2;
/** No node is drawn larger than this. */
export const MAX_RADIUS = 18;
/** Free space between the circles of two neighbours in a row, in layout units (room for rank badges). */
export const NODE_PADDING = 16;
/** Where `layoutTree` put every node; arrays are indexed by node id. */
export interface TreeLayout {
  /** Horizontal centre of each node. */
  x: Float64Array;
  /** Radius of each node's circle. */
  radius: Float64Array;
  /** Number of rows: the highest layer + 1 (0 for an empty tree). */
  layerCount: number;
  /** `rows[layer]`: the ids of that layer from left to right. */
  rows: Int32Array[];
  /** Position of each node within its row (`rows[layer][column[id]] === id`). */
  column: Int32Array;
  /** Horizontal extent of all circles; [0, 0] for an empty tree. */
  bounds: { minX: number; maxX: number };
}

/** Thrown by `layoutTree` when node ids are not 0 … n−1 (each exactly once). */
export class TreeLayoutError extends AerieError<'INVALID_NODE_ID'> {}

/** Circle radius of a node of `layer`. */
export function radiusOfLayer(layer: number): number {
  return Math.min(MAX_RADIUS, LEAF_RADIUS + RADIUS_GROWTH_PER_LAYER * Math.max(0, layer));
}

/**
 * Lays out a tree. Children that are out of range or not in a lower layer are ignored for placement (the
 * renderer may still draw them). A non-leaf without usable children goes to the right end of its row.
 * @throws TreeLayoutError when ids are not dense (0 … n−1, each once).
 */
export function layoutTree(nodes: readonly LayoutNode[]): TreeLayout {
  const n = nodes.length;
  const byId = indexById(nodes);
  let maxLayer = n > 0 ? 0 : -1;
  for (const node of nodes) maxLayer = Math.max(maxLayer, node.layer);
  const layerCount = maxLayer + 1;

  const rows = groupRows(nodes, layerCount);
  const x = new Float64Array(n);
  const radius = new Float64Array(n);
  const column = new Int32Array(n);
  const placed = new Uint8Array(n);

  for (let layer = 0; layer < layerCount; layer++) {
    const row = rows[layer];
    const gap = 2 * radiusOfLayer(layer) + NODE_PADDING;
    const desired = new Float64Array(row.length);
    if (layer === 0) {
      for (let k = 0; k < row.length; k++) desired[k] = k * gap;
    } else {
      for (let k = 0; k < row.length; k++) desired[k] = barycentre(byId[row[k]], x, placed);
      sortRowByDesired(row, desired);
      fillMissing(desired, gap);
    }
    const positions = spreadRow(desired, gap);
    for (let k = 0; k < row.length; k++) {
      const id = row[k];
      x[id] = positions[k];
      radius[id] = radiusOfLayer(layer);
      column[id] = k;
      placed[id] = 1;
    }
  }
  return { x, radius, layerCount, rows, column, bounds: boundsOf(x, radius) };
}

/** `byId[id]` = the node with that id; checks ids are dense. */
function indexById(nodes: readonly LayoutNode[]): LayoutNode[] {
  const byId: LayoutNode[] = new Array(nodes.length);
  for (const node of nodes) {
    const id = node.id;
    if (!Number.isInteger(id) || id < 0 || id >= nodes.length || byId[id] !== undefined) {
      throw new TreeLayoutError(
        'INVALID_NODE_ID',
        `Node ids must be 0 … ${nodes.length - 1}, each once; got ${id}.`,
        {
          id,
          nodes: nodes.length,
        },
      );
    }
    byId[id] = node;
  }
  return byId;
}

/** Ids of each layer in ascending id order (a counting sort: ids are dense). */
function groupRows(nodes: readonly LayoutNode[], layerCount: number): Int32Array[] {
  const sizes = new Int32Array(layerCount);
  for (const node of nodes) sizes[Math.max(0, node.layer)]++;
  const rows = Array.from(sizes, (size) => new Int32Array(size));
  const fill = new Int32Array(layerCount);
  const layerOf = new Int32Array(nodes.length);
  for (const node of nodes) layerOf[node.id] = Math.max(0, node.layer);
  for (let id = 0; id < nodes.length; id++) {
    const layer = layerOf[id];
    rows[layer][fill[layer]++] = id;
  }
  return rows;
}

/** Mean x of the node's children already placed (lower layers only); NaN when it has none. */
function barycentre(node: LayoutNode, x: Float64Array, placed: Uint8Array): number {
  let sum = 0;
  let count = 0;
  for (const child of node.children) {
    if (!Number.isInteger(child) || child < 0 || child >= x.length || placed[child] === 0) continue;
    sum += x[child];
    count++;
  }
  return count > 0 ? sum / count : Number.NaN;
}

/** Sorts a row (and its desired positions alongside) by desired x, NaN last, ties by id. */
function sortRowByDesired(row: Int32Array, desired: Float64Array): void {
  const order = Array.from(row.keys());
  const key = (k: number) => (Number.isNaN(desired[k]) ? Number.POSITIVE_INFINITY : desired[k]);
  order.sort((a, b) => key(a) - key(b) || row[a] - row[b]);
  const ids = Int32Array.from(order, (k) => row[k]);
  const wants = Float64Array.from(order, (k) => desired[k]);
  row.set(ids);
  desired.set(wants);
}

/** Nodes without a usable child (sorted last) queue up to the right of the rest. */
function fillMissing(desired: Float64Array, gap: number): void {
  for (let k = 0; k < desired.length; k++) {
    if (Number.isNaN(desired[k])) desired[k] = k === 0 ? 0 : desired[k - 1] + gap;
  }
}

/**
 * Positions x[k] closest (least squares) to `desired[k]` with x[k+1] − x[k] ≥ gap, for `desired` sorted
 * ascending. Substituting z[k] = desired[k] − k·gap turns this into isotonic regression of z, solved exactly
 * by pool-adjacent-violators in O(n): merge neighbouring blocks while their means decrease.
 */
export function spreadRow(desired: ArrayLike<number>, gap: number): Float64Array {
  const n = desired.length;
  const blockSum = new Float64Array(n);
  const blockCount = new Int32Array(n);
  let blocks = 0;
  for (let k = 0; k < n; k++) {
    blockSum[blocks] = desired[k] - k * gap;
    blockCount[blocks] = 1;
    blocks++;
    while (
      blocks > 1 &&
      blockSum[blocks - 2] / blockCount[blocks - 2] > blockSum[blocks - 1] / blockCount[blocks - 1]
    ) {
      blockSum[blocks - 2] += blockSum[blocks - 1];
      blockCount[blocks - 2] += blockCount[blocks - 1];
      blocks--;
    }
  }
  const out = new Float64Array(n);
  let k = 0;
  for (let b = 0; b < blocks; b++) {
    const mean = blockSum[b] / blockCount[b];
    for (let i = 0; i < blockCount[b]; i++, k++) out[k] = mean + k * gap;
  }
  return out;
}

function boundsOf(x: Float64Array, radius: Float64Array): TreeLayout['bounds'] {
  if (x.length === 0) return { minX: 0, maxX: 0 };
  let minX = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < x.length; i++) {
    minX = Math.min(minX, x[i] - radius[i]);
    maxX = Math.max(maxX, x[i] + radius[i]);
  }
  return { minX, maxX };
}
