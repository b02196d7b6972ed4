/**
 * The icicle's layout by d3-hierarchy beside ours (`layoutHierarchy`), on the same generated tree and primary
 * parents: d3's `hierarchy` over the primary children, `sum` (a leaf counts 1), `sort` by first leaf and
 * `partition` give each node's [x0, x1) of the leaf row, which must equal our start and span; both are timed
 * (median of LAYOUT_RUNS, in Node: the same V8 as Chromium). Printed by `npm run bench view`.
 */
import { hierarchy, partition } from 'd3-hierarchy';
import { buildHierarchy, layoutHierarchy, ROOT } from '../src/app/tree/hierarchy';
import { syntheticTree } from '../tests/support/synthetic-tree';
import type { BenchRow } from './lines';

const LAYOUT_RUNS = 7;
/** Two layouts agree when every start and span differs by less than this (leaf slots). */
const TOLERANCE = 1e-6;

/** Start and span of every node by d3-hierarchy's partition, and the rows per layer. */
export function d3Layout(layer: Int32Array, primaryParent: Int32Array) {
  const n = layer.length;
  const lists: number[][] = Array.from({ length: n + 1 }, () => []);
  for (let id = 0; id < n; id++) lists[primaryParent[id] === ROOT ? n : primaryParent[id]].push(id);
  const firstLeaf = new Float64Array(n + 1).fill(Infinity);
  const root = hierarchy(n, (id) => lists[id])
    .eachAfter((node) => {
      const id = node.data;
      if (id < n && layer[id] === 0) firstLeaf[id] = id;
      for (const child of node.children ?? []) firstLeaf[id] = Math.min(firstLeaf[id], firstLeaf[child.data]);
    })
    .sum((id) => (id < n && layer[id] === 0 ? 1 : 0))
    .sort((a, b) => firstLeaf[a.data] - firstLeaf[b.data] || a.data - b.data);
  const leafCount = root.value ?? 0;
  const laid = partition<number>().size([leafCount, 1])(root);
  const start = new Float64Array(n);
  const span = new Float64Array(n);
  const rowLists: number[][] = [];
  laid.each((node) => {
    if (node.data === n) return;
    start[node.data] = node.x0;
    span[node.data] = node.x1 - node.x0;
    (rowLists[layer[node.data]] ??= []).push(node.data);
  });
  const rows = rowLists.map((row) => Int32Array.from(row.sort((a, b) => start[a] - start[b] || a - b)));
  return { start, span, leafCount, rows };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function time(run: () => void): number {
  const times: number[] = [];
  for (let r = 0; r < LAYOUT_RUNS; r++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The layout line at `nodes` nodes: ours beside d3-hierarchy's, after checking they agree. */
export function layoutRows(nodes: number): BenchRow[] {
  const tree = syntheticTree({ nodes });
  const h = buildHierarchy(tree.nodes);
  const theirs = d3Layout(h.layer, h.primaryParent);
  let worst = 0;
  for (let id = 0; id < h.size; id++) {
    worst = Math.max(worst, Math.abs(theirs.start[id] - h.start[id]), Math.abs(theirs.span[id] - h.span[id]));
  }
  if (worst > TOLERANCE || theirs.leafCount !== h.leafCount) {
    throw new Error(`d3-hierarchy's partition and ours disagree by ${worst} leaf slots at ${nodes} nodes.`);
  }
  const ours = time(() => layoutHierarchy(h.layer, h.primaryParent));
  const d3 = time(() => d3Layout(h.layer, h.primaryParent));
  return [
    {
      name: `view layout, spans and rows (${h.size.toLocaleString('en')} nodes)`,
      value: ours,
      unit: 'ms',
      reference: d3,
      referenceLabel: 'd3-hierarchy hierarchy + sum + sort + partition, same spans',
      higherIsBetter: false,
      target: 1,
      note: `median of ${LAYOUT_RUNS} in Node; the two agree to ${worst.toExponential(1)} leaf slots`,
    },
  ];
}
