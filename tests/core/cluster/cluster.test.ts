import { describe, expect, it } from 'vitest';
import {
  clusterNodes,
  clusterNodesAsync,
  LOCAL_MIN_CLUSTER_SIZE,
  type ClusterProgress,
} from '../../../src/core/cluster/cluster';
import { DimensionError } from '../../../src/core/errors';
import { blobs } from '../../support/fake-embedder';

function expectValidClusters(clusters: number[][], n: number) {
  const covered = new Set<number>();
  const keys = new Set<string>();
  for (const c of clusters) {
    expect(c.length).toBeGreaterThan(0);
    for (let i = 1; i < c.length; i++) expect(c[i]).toBeGreaterThan(c[i - 1]);
    for (const id of c) {
      expect(Number.isInteger(id) && id >= 0 && id < n).toBe(true);
      covered.add(id);
    }
    keys.add(c.join(','));
  }
  expect(covered.size).toBe(n); // every node in at least one cluster
  expect(keys.size).toBe(clusters.length); // no cluster twice
}

/**
 * Fewest points a full-covariance component may own (the reduced dimension d; docs/clustering.md): the global
 * mixture's rule, and the local one's in the earlier design (`local: { covariance: 'full' }`).
 */
const FULL_MIN_COMPONENT_POINTS = 10;

/** The earlier design: local mixtures with full covariances, components of ≥ d points. */
const FULL_LOCAL = { local: { covariance: 'full' as const } };

/** Most clusters a size rule allows for groups of these sizes: k components of ≥ `floor` (rounded) points each. */
function maxClustersBySizeRule(sizes: number[], floor: number): number {
  return sizes.reduce((sum, size) => sum + Math.max(1, Math.floor(size / (floor - 0.5))), 0);
}

/** Fraction of nodes whose cluster's majority group is their own group. */
function purity(clusters: number[][], labels: number[]): number {
  let agree = 0;
  let total = 0;
  for (const c of clusters) {
    const counts = new Map<number, number>();
    for (const id of c) counts.set(labels[id], (counts.get(labels[id]) ?? 0) + 1);
    agree += Math.max(...counts.values());
    total += c.length;
  }
  return agree / total;
}

describe('clusterNodes', () => {
  it('never throws on tiny inputs and covers every node', () => {
    expect(clusterNodes([], [])).toEqual([]);
    for (const n of [1, 2, 3, 4, 5, 11, 12]) {
      const { vectors } = blobs(2, Math.ceil(n / 2), 16, 0.3, n);
      const v = vectors.slice(0, n);
      const clusters = clusterNodes(v, new Array(n).fill(10), { seed: 1 });
      expectValidClusters(clusters, n);
    }
  });

  it('keeps identical embeddings together without throwing', () => {
    const v = Array.from({ length: 30 }, () => Float32Array.from({ length: 32 }, (_, i) => (i % 3) - 1));
    const clusters = clusterNodes(v, new Array(30).fill(50));
    expectValidClusters(clusters, 30);
    expect(clusters).toEqual([Array.from({ length: 30 }, (_, i) => i)]);
  });

  it('separates well-separated groups (global then local): pure clusters, as many as the size rule allows', () => {
    const { vectors, labels } = blobs(4, 25, 64, 0.15, 7);
    // Default (spherical local components of ≥ 3 nodes) and the earlier design (full, ≥ d = 10 nodes).
    for (const [options, floor] of [
      [{}, LOCAL_MIN_CLUSTER_SIZE],
      [FULL_LOCAL, FULL_MIN_COMPONENT_POINTS],
    ] as const) {
      const clusters = clusterNodes(vectors, new Array(100).fill(20), { seed: 3, ...options });
      expectValidClusters(clusters, 100);
      expect(purity(clusters, labels)).toBe(1);
      // At least one cluster per group, at most what the local size rule permits (docs/clustering.md).
      expect(clusters.length).toBeGreaterThanOrEqual(4);
      expect(clusters.length).toBeLessThanOrEqual(maxClustersBySizeRule([25, 25, 25, 25], floor));
    }
  });

  it('the default splits groups the earlier design keeps whole, into clusters of at least three nodes', () => {
    const { vectors } = blobs(4, 25, 64, 0.15, 7);
    const fine = clusterNodes(vectors, new Array(100).fill(20), { seed: 3, threshold: 0.999999 });
    const coarse = clusterNodes(vectors, new Array(100).fill(20), {
      seed: 3,
      threshold: 0.999999,
      ...FULL_LOCAL,
    });
    expect(coarse.length).toBeLessThanOrEqual(
      maxClustersBySizeRule([25, 25, 25, 25], FULL_MIN_COMPONENT_POINTS),
    );
    expect(fine.length).toBeGreaterThan(coarse.length);
    for (const c of fine) expect(c.length).toBeGreaterThanOrEqual(LOCAL_MIN_CLUSTER_SIZE);
  });

  it('recovers groups too small to split exactly: one cluster per group, each node in exactly one', () => {
    // Earlier design, 6 groups of 15: a split of 15 points would need a component of fewer than d = 10 points.
    const { vectors, labels } = blobs(6, 15, 48, 0.2, 17);
    for (const threshold of [0.1, 0.999999]) {
      const clusters = clusterNodes(vectors, new Array(90).fill(20), { seed: 5, threshold, ...FULL_LOCAL });
      expectValidClusters(clusters, 90);
      expect(maxClustersBySizeRule(new Array(6).fill(15), FULL_MIN_COMPONENT_POINTS)).toBe(6);
      expect(clusters.map((c) => c.map((id) => labels[id]))).toEqual(
        expect.arrayContaining(Array.from({ length: 6 }, (_, g) => new Array(15).fill(g))),
      );
      expect(clusters).toHaveLength(6);
    }
  });

  it('re-clusters oversized clusters until each fits the token budget', () => {
    const { vectors } = blobs(2, 40, 32, 0.2, 11);
    const tokens = vectors.map((_, i) => 90 + (i % 20));
    const clusters = clusterNodes(vectors, tokens, { maxClusterTokens: 400, seed: 5 });
    expectValidClusters(clusters, 80);
    for (const c of clusters) {
      const sum = c.reduce((s, id) => s + tokens[id], 0);
      if (c.length > 1) expect(sum).toBeLessThanOrEqual(400);
    }
  });

  it('terminates on identical embeddings whose text exceeds the budget (splits in order)', () => {
    const v = Array.from({ length: 20 }, () => Float32Array.of(1, 0, 0, 0));
    const clusters = clusterNodes(v, new Array(20).fill(100), { maxClusterTokens: 350 });
    expectValidClusters(clusters, 20);
    expect(clusters.map((c) => c.length)).toEqual([3, 3, 3, 3, 3, 3, 2]);
  });

  it('is deterministic for a seed', () => {
    const { vectors } = blobs(3, 20, 48, 0.4, 21);
    const tokens = new Array(60).fill(30);
    expect(clusterNodes(vectors, tokens, { seed: 9 })).toEqual(clusterNodes(vectors, tokens, { seed: 9 }));
  });

  it('does not depend on the length of the embedding vectors (cosine)', () => {
    const { vectors } = blobs(3, 20, 48, 0.4, 22);
    const tokens = new Array(60).fill(30);
    const scaled = vectors.map((v) => v.map((x) => x * 4));
    expect(clusterNodes(scaled, tokens, { seed: 2 })).toEqual(clusterNodes(vectors, tokens, { seed: 2 }));
  });

  it('puts every node in its most probable cluster even with a threshold no posterior exceeds', () => {
    const { vectors, labels } = blobs(3, 15, 24, 0.5, 4);
    const clusters = clusterNodes(vectors, new Array(45).fill(10), { threshold: 0.999999, seed: 8 });
    expectValidClusters(clusters, 45);
    // No posterior passes the threshold, so each node joins its most probable cluster only: its own group's.
    expect(clusters.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i));
    expect(purity(clusters, labels)).toBe(1);
  });

  it('rejects embeddings of different lengths, naming both', () => {
    expect(() => clusterNodes([new Float32Array(4), new Float32Array(5)], [1, 1])).toThrow(DimensionError);
    expect(() => clusterNodes([new Float32Array(4), new Float32Array(5)], [1, 1])).toThrow(/5.*4/);
    expect(() => clusterNodes([new Float32Array(4)], [1, 2])).toThrow(/1 embeddings but 2 token counts/);
  });

  it('async form gives the same clusters and stops when aborted', async () => {
    const { vectors } = blobs(3, 20, 32, 0.3, 31);
    const tokens = new Array(60).fill(10);
    expect(await clusterNodesAsync(vectors, tokens, { seed: 4 })).toEqual(
      clusterNodes(vectors, tokens, { seed: 4 }),
    );
    const controller = new AbortController();
    const pending = clusterNodesAsync(vectors, tokens, { seed: 4, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports global then local progress, each step’s fraction rising from 0 to 1', () => {
    const { vectors } = blobs(2, 20, 16, 0.2, 41);
    const events: ClusterProgress[] = [];
    clusterNodes(vectors, new Array(40).fill(10), { seed: 2, onProgress: (p) => events.push(p) });
    const steps = events.map((e) => e.step);
    expect(steps[0]).toBe('global-umap');
    expect(steps.indexOf('global-gmm')).toBeGreaterThan(steps.lastIndexOf('global-umap'));
    expect(steps.indexOf('local-umap')).toBeGreaterThan(steps.indexOf('global-gmm'));
    const globalUmap = events.filter((e) => e.step === 'global-umap').map((e) => e.fraction!);
    // k-NN rows take the first 30 %, the layout epochs the rest, ending at exactly 1.
    expect(globalUmap[0]).toBeCloseTo(0.3 / 40, 12);
    expect(globalUmap).toContain(0.3);
    expect(globalUmap.at(-1)).toBe(1);
    for (let i = 1; i < globalUmap.length; i++) expect(globalUmap[i]).toBeGreaterThan(globalUmap[i - 1]);
    for (const e of events) {
      if (e.step.startsWith('local')) expect(Number.isInteger(e.group)).toBe(true);
      else expect(e.group).toBeUndefined();
      if (e.fraction !== undefined) expect(e.fraction >= 0 && e.fraction <= 1).toBe(true);
    }
    expect(new Set(events.filter((e) => e.step === 'local-umap').map((e) => e.group))).toEqual(
      new Set([0, 1]),
    );
  });

  it('with maxClusters 1 keeps everything in one cluster', () => {
    const { vectors } = blobs(3, 15, 16, 0.1, 42);
    expect(clusterNodes(vectors, new Array(45).fill(10), { maxClusters: 1, seed: 3 })).toEqual([
      Array.from({ length: 45 }, (_, i) => i),
    ]);
  });

  it('earlier design: does not split a global cluster too small for two components of ≥ d nodes', () => {
    // Two far groups of 6 nodes: with full local covariances and reductionDim 5, two components would need
    // 2 × 5 nodes, so the groups are kept whole whatever structure they have inside.
    const { vectors, labels } = blobs(2, 6, 16, 0.05, 43);
    const clusters = clusterNodes(vectors, new Array(12).fill(10), {
      reductionDim: 5,
      seed: 4,
      ...FULL_LOCAL,
    });
    expectValidClusters(clusters, 12);
    expect(purity(clusters, labels)).toBe(1);
    expect(clusters.length).toBeLessThanOrEqual(2);
  });
});
