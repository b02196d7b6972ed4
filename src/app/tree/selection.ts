/**
 * What the retrieval modes selected, indexed for drawing: per node, which modes picked it with what rank and
 * score; per layer, how many nodes each mode took (the paper's Figure 7). Pure functions, tested in Node.
 */
import { RETRIEVAL_MODES, type ModeSelections, type RetrievalMode } from '../modes';

/** One mode's pick of a node. */
export interface NodeMark {
  mode: RetrievalMode;
  /** 1-based position in the mode's list. */
  rank: number;
  /** Cosine similarity to the question. */
  score: number;
}

/** Selections indexed by node. */
export interface SelectionIndex {
  /** Marks of each selected node, in RETRIEVAL_MODES order; unselected nodes are absent. */
  byNode: ReadonlyMap<number, readonly NodeMark[]>;
  /** Modes that selected at least one node, in RETRIEVAL_MODES order. */
  modes: readonly RetrievalMode[];
  /** Lowest and highest score over all marks (0 and 0 when nothing is selected). */
  minScore: number;
  maxScore: number;
}

/**
 * Indexes `selections`. Ids outside 0 … nodeCount−1 are ignored; a node listed twice by one mode keeps its
 * better (first) rank.
 */
export function indexSelections(selections: ModeSelections, nodeCount: number): SelectionIndex {
  const byNode = new Map<number, NodeMark[]>();
  const modes: RetrievalMode[] = [];
  let minScore = Infinity;
  let maxScore = -Infinity;
  for (const mode of RETRIEVAL_MODES) {
    const list = selections[mode];
    if (list === undefined) continue;
    let used = false;
    list.forEach((node, index) => {
      if (!Number.isInteger(node.id) || node.id < 0 || node.id >= nodeCount) return;
      const marks = byNode.get(node.id) ?? [];
      if (marks.some((m) => m.mode === mode)) return;
      marks.push({ mode, rank: index + 1, score: node.score });
      byNode.set(node.id, marks);
      used = true;
      if (Number.isFinite(node.score)) {
        minScore = Math.min(minScore, node.score);
        maxScore = Math.max(maxScore, node.score);
      }
    });
    if (used) modes.push(mode);
  }
  if (minScore > maxScore) minScore = maxScore = 0;
  return { byNode, modes, minScore, maxScore };
}

/** The `data-selected` value of a node: its modes, space-separated, in RETRIEVAL_MODES order ('' for none). */
export function selectedAttr(marks: readonly Pick<NodeMark, 'mode'>[] | undefined): string {
  return marks === undefined ? '' : marks.map((m) => m.mode).join(' ');
}

/** Lowest drawn intensity, so that the weakest selected node is still clearly visible. */
export const MIN_INTENSITY = 0.35;

/**
 * How strongly to draw a score, MIN_INTENSITY … 1, linear between the lowest and highest score selected for
 * this question (all modes score the same question, so the scale is shared). 1 when all scores are equal.
 */
export function scoreIntensity(index: SelectionIndex, score: number): number {
  const span = index.maxScore - index.minScore;
  if (!(span > 0) || !Number.isFinite(score)) return 1;
  const t = Math.min(1, Math.max(0, (score - index.minScore) / span));
  return MIN_INTENSITY + (1 - MIN_INTENSITY) * t;
}

/** Selected nodes per layer for one mode: `counts[layer]`, and their total. */
export interface LayerCounts {
  mode: RetrievalMode;
  counts: number[];
  total: number;
}

/**
 * Counts each given mode's selected nodes per layer (by the layer of the node in the tree, not the one the
 * selection reports, so stale selections cannot disagree with the drawing). Ids out of range and repeats
 * are ignored, as in `indexSelections`. Modes absent from `selections` are left out.
 */
export function countByLayer(
  selections: ModeSelections,
  layerOf: (id: number) => number | undefined,
  layerCount: number,
): LayerCounts[] {
  const result: LayerCounts[] = [];
  for (const mode of RETRIEVAL_MODES) {
    const list = selections[mode];
    if (list === undefined) continue;
    const counts = new Array<number>(layerCount).fill(0);
    const seen = new Set<number>();
    let total = 0;
    for (const node of list) {
      const layer = layerOf(node.id);
      if (layer === undefined || layer < 0 || layer >= layerCount || seen.has(node.id)) continue;
      seen.add(node.id);
      counts[layer]++;
      total++;
    }
    result.push({ mode, counts, total });
  }
  return result;
}

/**
 * The leaves below the given summaries, each once (through every child: soft clustering gives a leaf several
 * paths), ascending by id. Leaves among `ids` themselves are not included; ids out of range are ignored.
 */
export function leavesUnder(
  nodes: readonly { readonly layer: number; readonly children: readonly number[] }[],
  ids: Iterable<number>,
): number[] {
  const seen = new Uint8Array(nodes.length);
  const stack: number[] = [];
  for (const id of ids) {
    if (Number.isInteger(id) && id >= 0 && id < nodes.length && nodes[id].layer > 0 && !seen[id]) {
      seen[id] = 1;
      stack.push(id);
    }
  }
  const leaves: number[] = [];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    for (const child of nodes[id].children) {
      if (!Number.isInteger(child) || child < 0 || child >= nodes.length || seen[child]) continue;
      if (nodes[child].layer >= nodes[id].layer) continue;
      seen[child] = 1;
      if (nodes[child].layer === 0) leaves.push(child);
      else stack.push(child);
    }
  }
  return leaves.sort((a, b) => a - b);
}
