/**
 * The measurements of the tree-shape benchmark: a whole tree's Table 10 figures and build time, layer-1
 * purity against spherical k-means at the same mean cluster size, and one layer-1 clustering of a candidate
 * design.
 */
import { buildTree } from '../../src/core/build';
import { clusterNodes, type ClusterOptions, type LocalMixtureOptions } from '../../src/core/cluster';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { treeStats, type TreeStats } from '../../src/core/stats';
import type { EmbedFn, RaptorTree } from '../../src/core/types';
import { purity, type Purity } from '../baselines/purity';
import { clustersOf, sphericalKMeans } from '../baselines/spherical-kmeans';
import type { Corpus } from './inputs';

/** The seed of every build (the reference's random_state). */
export const SEED = 224;
const MS_PER_S = 1000;

/** A whole tree: its statistics, layer-1 purity, and where the time went. */
export interface TreeFigures {
  tree: RaptorTree;
  stats: TreeStats;
  /** Clusters of layer 1 as leaf indices (the leaves are the tree's first nodes). */
  layer1: number[][];
  /** Document of each leaf. */
  docs: string[];
  seconds: number;
  clusterSeconds: number;
}

/** Builds `corpus` into one tree with extractive summaries; times the build and its clustering. */
export async function buildFigures(
  corpus: Corpus,
  embed: EmbedFn,
  localMixture?: LocalMixtureOptions,
  seed = SEED,
): Promise<TreeFigures> {
  let clusterMs = 0;
  let clusterStart = 0;
  const start = performance.now();
  const tree = await buildTree(
    corpus.documents,
    { embed, summarize: createExtractiveSummarizer(embed) },
    { seed, localMixture, summarizer: { kind: 'extractive' } },
    (p) => {
      if (p.stage !== 'cluster' || p.detail) return;
      if (p.done === 0) clusterStart = performance.now();
      else clusterMs += performance.now() - clusterStart;
    },
  );
  const seconds = (performance.now() - start) / MS_PER_S;
  const leaves = tree.nodes.filter((n) => n.layer === 0);
  return {
    tree,
    stats: treeStats(tree),
    layer1: tree.nodes.filter((n) => n.layer === 1).map((n) => n.children),
    docs: leaves.map((n) => n.source?.doc ?? ''),
    seconds,
    clusterSeconds: clusterMs / MS_PER_S,
  };
}

/** Spherical k-means on the leaves' embeddings with as many clusters as `ours` has mean size. */
export function kmeansBaseline(
  leaves: readonly Float32Array[],
  docs: readonly string[],
  meanSize: number,
): Purity & { k: number } {
  const k = Math.max(1, Math.min(leaves.length, Math.round(leaves.length / meanSize)));
  return { k, ...purity(clustersOf(sphericalKMeans(leaves, k, { seed: SEED }).labels), docs) };
}

/**
 * What the paper's global/local structure allows at best: our global clusters (hard memberships, no local step),
 * then spherical k-means on the raw embeddings inside each, with as many clusters as `meanSize` asks. A local
 * step that knew the documents' geometry exactly could not do better than its own k-means by much.
 */
export function oracleLocalStep(
  leaves: readonly Float32Array[],
  tokens: readonly number[],
  docs: readonly string[],
  meanSize: number,
): Purity {
  const global = clusterNodes(leaves as Float32Array[], tokens, {
    seed: SEED,
    threshold: 1,
    local: { minClusterSize: Number.MAX_SAFE_INTEGER },
  });
  const clusters: number[][] = [];
  for (const group of global) {
    const k = Math.max(1, Math.min(group.length, Math.round(group.length / meanSize)));
    const labels = sphericalKMeans(
      group.map((i) => leaves[i]),
      k,
      { seed: SEED },
    ).labels;
    for (const local of clustersOf(labels)) clusters.push(local.map((j) => group[j]));
  }
  return purity(clusters, docs);
}

/** A candidate clustering design of layer 1 (a local mixture, maybe other clustering options). */
export interface Candidate {
  name: string;
  options: Omit<ClusterOptions, 'seed' | 'signal' | 'onProgress'>;
}

/** Layer 1 of a candidate: clusters of the leaves and the clustering time. */
export function clusterLayer1(
  leaves: readonly Float32Array[],
  tokens: readonly number[],
  candidate: Candidate,
): { clusters: number[][]; seconds: number } {
  const start = performance.now();
  const clusters = clusterNodes(leaves as Float32Array[], tokens, { seed: SEED, ...candidate.options });
  return { clusters, seconds: (performance.now() - start) / MS_PER_S };
}
