/**
 * How far across the documents each mode's selection reaches, for `ReachStrip`: where every selected node sits
 * (a leaf at a point, a summary over the stretch of its leaves), with the documents of the tree laid end to end
 * in proportion to their length, and in numbers: the stretch from the first to the last, and how many tenths of
 * the text hold a selected leaf. A thematic question's passages should reach across the book; a single fact's
 * sit in one place. Pure, tested in Node.
 */
import { placeOfNode } from '../../core/search';
import type { RaptorTree } from '../../core/types';
import { RETRIEVAL_MODES, type ModeSelections, type RetrievalMode } from '../modes';

/** Tenths of the text a selection can cover. */
export const REACH_PARTS = 10;

/** One selected node's stretch of the whole text, as shares of it in [0, 1]. */
export interface ReachMark {
  id: number;
  from: number;
  to: number;
  /** A summary (drawn as a stretch), or a leaf (a point). */
  summary: boolean;
}

/** One mode's reach. */
export interface ModeReach {
  mode: RetrievalMode;
  marks: ReachMark[];
  /** The first mark's start and the last mark's end; undefined when no selected node has a place. */
  span?: { from: number; to: number };
  /** Tenths of the text (0 … REACH_PARTS) that hold a selected leaf, or a summary's stretch. */
  parts: number;
  /** Selected nodes without a place (their leaves have no source). */
  unplaced: number;
}

/** Where each document starts in the text laid end to end, as a share of it; by document id. */
function documentStarts(tree: Pick<RaptorTree, 'documents'>): Map<string, { start: number; share: number }> {
  const total = tree.documents.reduce((sum, d) => sum + Math.max(0, d.chars), 0);
  const starts = new Map<string, { start: number; share: number }>();
  let at = 0;
  for (const d of tree.documents) {
    const share = total > 0 ? Math.max(0, d.chars) / total : 1 / tree.documents.length;
    starts.set(d.id, { start: at, share });
    at += share;
  }
  return starts;
}

/** Each mode's reach across the documents (modes without a selection are left out). */
export function reachOf(
  tree: Pick<RaptorTree, 'nodes' | 'documents'>,
  selections: ModeSelections,
): ModeReach[] {
  const starts = documentStarts(tree);
  const out: ModeReach[] = [];
  for (const mode of RETRIEVAL_MODES) {
    const list = selections[mode];
    if (!list) continue;
    const marks: ReachMark[] = [];
    let unplaced = 0;
    for (const { id } of list) {
      const place = tree.nodes[id] ? placeOfNode(tree, id) : undefined;
      const doc = place ? starts.get(place.doc) : undefined;
      if (!place || !doc) {
        unplaced++;
        continue;
      }
      const from = doc.start + place.from * doc.share;
      const to = doc.start + place.to * doc.share;
      marks.push({ id, from, to, summary: tree.nodes[id].layer > 0 });
    }
    marks.sort((a, b) => a.from - b.from || a.to - b.to);
    const covered = new Set<number>();
    for (const m of marks) {
      const last = Math.min(REACH_PARTS - 1, Math.floor(m.to * REACH_PARTS - 1e-9));
      for (let p = Math.min(REACH_PARTS - 1, Math.floor(m.from * REACH_PARTS)); p <= Math.max(last, 0); p++) {
        covered.add(p);
      }
    }
    const reach: ModeReach = { mode, marks, parts: covered.size, unplaced };
    if (marks.length > 0) reach.span = { from: marks[0].from, to: Math.max(...marks.map((m) => m.to)) };
    out.push(reach);
  }
  return out;
}

const PERCENT = 100;

/** "12 passages from 3% to 96% of the text, in 7 of its 10 tenths" (and how many have no place). */
export function reachText(reach: ModeReach): string {
  const n = reach.marks.length;
  const unplaced = reach.unplaced > 0 ? ` (${reach.unplaced} with no place in the documents)` : '';
  if (!reach.span) return `No selected passage has a place in the documents${unplaced}.`;
  const pct = (x: number) => `${Math.round(x * PERCENT)}%`;
  const passages = `${n} ${n === 1 ? 'passage' : 'passages'}`;
  const where =
    pct(reach.span.from) === pct(reach.span.to)
      ? `at ${pct(reach.span.from)} of the text`
      : `from ${pct(reach.span.from)} to ${pct(reach.span.to)} of the text`;
  return `${passages} ${where}, in ${reach.parts} of its ${REACH_PARTS} tenths${unplaced}`;
}
