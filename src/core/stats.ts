/**
 * Tree statistics in the form of the paper's Appendix C (Table 10): nodes per layer, average summary length,
 * average child node length, children per parent, and the compression ratio (a summary's length over the
 * sum of its children's lengths, averaged over summaries).
 */
import type { RaptorTree } from './types';

/** Statistics of one tree; lengths in cl100k tokens. */
export interface TreeStats {
  /** nodesPerLayer[L] = nodes in layer L (0 = leaves). */
  nodesPerLayer: number[];
  /** Layers above the leaves. */
  summaryLayers: number;
  /** Tokens of all leaves together (the document as chunked). */
  leafTokens: number;
  /** Mean tokens of a summary node; 0 without summaries. */
  avgSummaryTokens: number;
  /** Mean tokens of a node that is some summary's child, counted once per parent–child link. */
  avgChildTokens: number;
  /** Mean number of children of a summary node. */
  avgChildrenPerParent: number;
  /** Mean over summaries of summary tokens ÷ total child tokens (the paper reports 0.28 on average). */
  avgCompressionRatio: number;
}

/** Computes the statistics of a tree. */
export function treeStats(tree: Pick<RaptorTree, 'nodes'>): TreeStats {
  const nodesPerLayer: number[] = [];
  let leafTokens = 0;
  let summaries = 0;
  let summaryTokens = 0;
  let links = 0;
  let childTokens = 0;
  let ratioSum = 0;
  for (const node of tree.nodes) {
    nodesPerLayer[node.layer] = (nodesPerLayer[node.layer] ?? 0) + 1;
    if (node.layer === 0) {
      leafTokens += node.tokens;
      continue;
    }
    summaries++;
    summaryTokens += node.tokens;
    let sum = 0;
    for (const child of node.children) sum += tree.nodes[child].tokens;
    links += node.children.length;
    childTokens += sum;
    if (sum > 0) ratioSum += node.tokens / sum;
  }
  for (let l = 0; l < nodesPerLayer.length; l++) nodesPerLayer[l] ??= 0;
  return {
    nodesPerLayer,
    summaryLayers: Math.max(0, nodesPerLayer.length - 1),
    leafTokens,
    avgSummaryTokens: summaries ? summaryTokens / summaries : 0,
    avgChildTokens: links ? childTokens / links : 0,
    avgChildrenPerParent: summaries ? links / summaries : 0,
    avgCompressionRatio: summaries ? ratioSum / summaries : 0,
  };
}
