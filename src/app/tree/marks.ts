/**
 * What the icicle and the outline mark on a node besides its own selection: how many nodes each retrieval
 * mode selected in its primary subtree, and how many Find matches lie there, so a summary shows what lies
 * below it at every zoom. Also Find itself and the order "Next selected" visits. Pure functions, tested in Node.
 */
import type { TreeNode } from '../../core/types';
import { RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import type { Hierarchy } from './hierarchy';
import type { SelectionIndex } from './selection';

/** Per mode, the number of nodes it selected in each node's primary subtree, the node itself included. */
export type SubtreeCounts = Partial<Record<RetrievalMode, Int32Array>>;

/** Sums a per-node flag up the primary parents: `out[id]` = flags in id's primary subtree (itself included). */
export function sumUp(h: Hierarchy, flagged: Iterable<number>): Int32Array {
  const out = new Int32Array(h.size);
  for (const id of flagged) {
    for (let at = id; at >= 0; at = h.primaryParent[at]) out[at]++;
  }
  return out;
}

/** Per mode, selected nodes in every primary subtree. Modes without a selection are absent. */
export function subtreeCounts(h: Hierarchy, selection: SelectionIndex): SubtreeCounts {
  const out: SubtreeCounts = {};
  for (const mode of selection.modes) {
    const ids: number[] = [];
    for (const [id, marks] of selection.byNode) if (marks.some((m) => m.mode === mode)) ids.push(id);
    out[mode] = sumUp(h, ids);
  }
  return out;
}

/** What Find searches in a node: its label, title and text, case and accents folded. */
export function searchText(node: Pick<TreeNode, 'text' | 'label' | 'title'>): string {
  return fold([node.label?.join(' ') ?? '', node.title ?? '', node.text].join('\n'));
}

/** Lower case without accents, so "elizabeth" finds "Élizabeth". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Shortest query Find runs (one letter matches nearly everything). */
export const FIND_MIN_CHARS = 2;

/**
 * Nodes whose label, title or text contains the query (case and accents folded), in the order Enter visits
 * them: top layer first, each layer left to right as drawn. Empty for a query shorter than FIND_MIN_CHARS.
 */
export function findNodes(h: Hierarchy, haystacks: readonly string[], query: string): number[] {
  const needle = fold(query.trim());
  if (needle.length < FIND_MIN_CHARS) return [];
  const out: number[] = [];
  for (let layer = h.layerCount - 1; layer >= 0; layer--) {
    for (const id of h.rows[layer]) if (haystacks[id].includes(needle)) out.push(id);
  }
  return out;
}

/**
 * The nodes "Next selected" visits, in order: every selected node once, best rank first (a node two modes
 * picked goes by its better rank; ties in RETRIEVAL_MODES order, then by id).
 */
export function selectedOrder(selection: SelectionIndex): number[] {
  const best = new Map<number, [number, number]>();
  for (const [id, marks] of selection.byNode) {
    for (const mark of marks) {
      const key: [number, number] = [mark.rank, RETRIEVAL_MODES.indexOf(mark.mode)];
      const current = best.get(id);
      if (current === undefined || key[0] < current[0] || (key[0] === current[0] && key[1] < current[1])) {
        best.set(id, key);
      }
    }
  }
  return [...best.entries()]
    .sort(([a, ka], [b, kb]) => ka[0] - kb[0] || ka[1] - kb[1] || a - b)
    .map(([id]) => id);
}

/** The next index in a cycle of `length` after `current` (−1: none yet), forwards or backwards. */
export function cycle(current: number, length: number, backwards = false): number {
  if (length === 0) return -1;
  if (current < 0) return backwards ? length - 1 : 0;
  return (current + (backwards ? length - 1 : 1)) % length;
}
