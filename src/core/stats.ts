/**
 * Tree statistics in the form of the paper's Appendix C (Table 10), for the whole tree and for each summary
 * layer, beside the paper's own rows. Definitions (the paper's, read from Appendix C):
 * - average summary length: mean tokens of a summary node;
 * - average child node length: mean tokens of a child, counted once per parent–child link (a node in two
 *   clusters is a child twice: both summaries read it);
 * - children per parent: mean number of children of a summary node;
 * - compression ratio: the mean over summary nodes of (summary tokens ÷ the sum of its children's tokens). It
 *   is a mean of ratios, not the ratio of the means: the paper's 131-token summaries of 6.7 children of
 *   85.6 tokens would give 0.23, and it reports 0.28.
 * Tokens are cl100k_base counts (the paper's tokenizer).
 */
import type { RaptorTree } from './types';

/** Table 10's four figures over a set of summary nodes; lengths in cl100k tokens, 0 without summaries. */
export interface SummaryFigures {
  /** Summary nodes counted (the parents). */
  parents: number;
  /** Mean tokens of a summary node. */
  avgSummaryTokens: number;
  /** Mean tokens of a child node, counted once per parent–child link. */
  avgChildTokens: number;
  /** Mean number of children of a summary node. */
  avgChildrenPerParent: number;
  /** Mean over summaries of summary tokens ÷ total child tokens (the paper reports 0.28 on average). */
  avgCompressionRatio: number;
}

/** The figures of the summaries in one layer (their children are in the layer below). */
export interface LayerFigures extends SummaryFigures {
  /** The summaries' layer, ≥ 1. */
  layer: number;
}

/** Statistics of one tree: the whole tree's Table 10 figures, its layers, and per-layer figures. */
export interface TreeStats extends SummaryFigures {
  /** nodesPerLayer[L] = nodes in layer L (0 = leaves). */
  nodesPerLayer: number[];
  /** Layers above the leaves. */
  summaryLayers: number;
  /** Tokens of all leaves together (the document as chunked). */
  leafTokens: number;
  /** The same figures per summary layer: byLayer[i] describes layer i + 1. */
  byLayer: LayerFigures[];
}

/** One row of the paper's Table 10. */
export interface PaperRow {
  dataset: string;
  avgSummaryTokens: number;
  avgChildTokens: number;
  avgChildrenPerParent: number;
  avgCompressionRatio: number;
}

/**
 * The paper's Table 10 (Appendix C: "Statistics of Average Summary Length and Child Node Length Across
 * Datasets"; summaries by gpt-3.5-turbo, whole trees). The first row is the average over all datasets.
 */
export const PAPER_TABLE_10: readonly PaperRow[] = Object.freeze([
  {
    dataset: 'All Datasets',
    avgSummaryTokens: 131,
    avgChildTokens: 85.6,
    avgChildrenPerParent: 6.7,
    avgCompressionRatio: 0.28,
  },
  {
    dataset: 'QuALITY',
    avgSummaryTokens: 124.4,
    avgChildTokens: 87.9,
    avgChildrenPerParent: 5.7,
    avgCompressionRatio: 0.28,
  },
  {
    dataset: 'NarrativeQA',
    avgSummaryTokens: 129.7,
    avgChildTokens: 85.5,
    avgChildrenPerParent: 6.8,
    avgCompressionRatio: 0.27,
  },
  {
    dataset: 'QASPER',
    avgSummaryTokens: 145.9,
    avgChildTokens: 86.2,
    avgChildrenPerParent: 5.7,
    avgCompressionRatio: 0.35,
  },
]);

/** Running sums of the figures over some summaries. */
class FigureSums {
  parents = 0;
  summaryTokens = 0;
  links = 0;
  childTokens = 0;
  ratioSum = 0;

  add(tokens: number, childCount: number, childTokens: number): void {
    this.parents++;
    this.summaryTokens += tokens;
    this.links += childCount;
    this.childTokens += childTokens;
    if (childTokens > 0) this.ratioSum += tokens / childTokens;
  }

  figures(): SummaryFigures {
    const p = this.parents;
    return {
      parents: p,
      avgSummaryTokens: p ? this.summaryTokens / p : 0,
      avgChildTokens: this.links ? this.childTokens / this.links : 0,
      avgChildrenPerParent: p ? this.links / p : 0,
      avgCompressionRatio: p ? this.ratioSum / p : 0,
    };
  }
}

/** Computes the statistics of a tree (see the module comment for the definitions). */
export function treeStats(tree: Pick<RaptorTree, 'nodes'>): TreeStats {
  const nodesPerLayer: number[] = [];
  let leafTokens = 0;
  const all = new FigureSums();
  const perLayer: FigureSums[] = [];
  for (const node of tree.nodes) {
    nodesPerLayer[node.layer] = (nodesPerLayer[node.layer] ?? 0) + 1;
    if (node.layer === 0) {
      leafTokens += node.tokens;
      continue;
    }
    let childTokens = 0;
    for (const child of node.children) childTokens += tree.nodes[child].tokens;
    all.add(node.tokens, node.children.length, childTokens);
    (perLayer[node.layer] ??= new FigureSums()).add(node.tokens, node.children.length, childTokens);
  }
  for (let l = 0; l < nodesPerLayer.length; l++) nodesPerLayer[l] ??= 0;
  const byLayer: LayerFigures[] = [];
  for (let l = 1; l < nodesPerLayer.length; l++) {
    byLayer.push({ layer: l, ...(perLayer[l] ?? new FigureSums()).figures() });
  }
  return {
    nodesPerLayer,
    summaryLayers: Math.max(0, nodesPerLayer.length - 1),
    leafTokens,
    ...all.figures(),
    byLayer,
  };
}
