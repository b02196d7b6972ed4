/**
 * The stability figure of `npm run bench shape` (issue #33): how far each layer's clustering moves when its
 * vectors move by a hair, as WebGPU's and WASM's embeddings of the same text differ (fp32 by ~6e-8, q8 by
 * ~2e-6). For each layer of a built tree, the layer's nodes are clustered as the build clustered them (same
 * options, same seed), then again `runs` times with independent uniform noise of ±`amplitude` on every
 * coordinate; each noisy run's parent assignment (each node's primary parent, agreement.ts) is compared with
 * the noise-free one's by the adjusted Rand index.
 */
import { clusterNodes, type ClusterOptions } from '../../src/core/cluster';
import { deriveSeed } from '../../src/core/random';
import type { RaptorTree } from '../../src/core/types';
import { adjustedRandIndex, perturbed, primaryParents } from '../baselines/agreement';

/** Noisy runs per layer and seed (issue #44's 5, at each of several seeds: stability-report.ts). */
export const STABILITY_RUNS = 5;
/** The noise on every coordinate (the issue's ±1e-6, about WebGPU's q8 difference from WASM). */
export const STABILITY_AMPLITUDE = 1e-6;
/** Seed of the first run's noise; run r uses NOISE_SEED + r. */
const NOISE_SEED = 1000;
const MS_PER_S = 1000;

/** One layer's clustering under noise. */
export interface LayerStability {
  /** The layer the clustering makes (1 clusters the leaves). */
  layer: number;
  /** Nodes clustered (the layer below). */
  nodes: number;
  /** Clusters of the noise-free run, and the mean members per cluster. */
  clusters: number;
  meanChildren: number;
  /** ARI of each noisy run's parent assignment with the noise-free run's. */
  ari: number[];
  /** Clusters of each noisy run. */
  clusterCounts: number[];
  /** Seconds of the noise-free clustering. */
  seconds: number;
}

/** Options of {@link layerStability}. */
export interface StabilityOptions {
  runs?: number;
  amplitude?: number;
  /** Clustering options besides the seed (e.g. the layout schedule). */
  cluster?: Omit<ClusterOptions, 'seed' | 'signal' | 'onProgress' | 'pool'>;
}

/** The stability of clustering `vectors` with `seed` (see the module's comment). */
export function layerStability(
  layer: number,
  vectors: readonly Float32Array[],
  tokens: readonly number[],
  seed: number,
  options: StabilityOptions = {},
): LayerStability {
  const runs = options.runs ?? STABILITY_RUNS;
  const amplitude = options.amplitude ?? STABILITY_AMPLITUDE;
  const cluster = (v: readonly Float32Array[]) =>
    clusterNodes(v as Float32Array[], tokens, { ...options.cluster, seed });
  const start = performance.now();
  const clean = cluster(vectors);
  const seconds = (performance.now() - start) / MS_PER_S;
  const reference = primaryParents(clean, vectors);
  const ari: number[] = [];
  const clusterCounts: number[] = [];
  for (let r = 0; r < runs; r++) {
    const noisy = cluster(perturbed(vectors, amplitude, NOISE_SEED + r));
    ari.push(adjustedRandIndex(reference, primaryParents(noisy, vectors)));
    clusterCounts.push(noisy.length);
  }
  const links = clean.reduce((sum, c) => sum + c.length, 0);
  return {
    layer,
    nodes: vectors.length,
    clusters: clean.length,
    meanChildren: links / clean.length,
    ari,
    clusterCounts,
    seconds,
  };
}

/**
 * The stability of every clustering a tree's build made: layer L + 1's clustering of layer L's nodes, with the
 * seed `buildTree` gave it, for every layer that was clustered (more than `reductionDim` + 1 nodes).
 */
export function treeStability(tree: RaptorTree, options: StabilityOptions = {}): LayerStability[] {
  const out: LayerStability[] = [];
  for (let layer = 0; ; layer++) {
    const nodes = tree.nodes.filter((n) => n.layer === layer);
    const parents = tree.nodes.some((n) => n.layer === layer + 1);
    if (!parents || nodes.length <= tree.params.reductionDim + 1) break;
    out.push(
      layerStability(
        layer + 1,
        nodes.map((n) => n.embedding),
        nodes.map((n) => n.tokens),
        deriveSeed(tree.params.seed, layer),
        {
          ...options,
          cluster: {
            reductionDim: tree.params.reductionDim,
            threshold: tree.params.clusterThreshold,
            maxClusterTokens: tree.params.maxClusterTokens,
            ...options.cluster,
          },
        },
      ),
    );
  }
  return out;
}

/** Mean and minimum of a list. */
export function meanMin(values: readonly number[]): { mean: number; min: number } {
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, min: Math.min(...values) };
}
