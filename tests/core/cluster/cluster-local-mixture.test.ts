/**
 * clusterNodes' local mixture (the paper-shaped trees): spherical components of at least
 * LOCAL_MIN_CLUSTER_SIZE nodes by default, the earlier full-covariance design on request, and floors that can
 * never let a degenerate component in. Embeddings come from the FAKE blob generator of tests/support.
 */
import { describe, expect, it } from 'vitest';
import { clusterNodes, LOCAL_COVARIANCE, LOCAL_MIN_CLUSTER_SIZE } from '../../../src/core/cluster/cluster';
import { blobs } from '../../support/fake-embedder';

/** True when every cluster holds nodes of one group only. */
function pure(clusters: number[][], labels: number[]): boolean {
  return clusters.every((c) => c.every((id) => labels[id] === labels[c[0]]));
}

const mean = (clusters: number[][]) => clusters.reduce((s, c) => s + c.length, 0) / clusters.length;

describe('clusterNodes local mixture (fake blob embeddings)', () => {
  const { vectors, labels } = blobs(3, 30, 32, 0.35, 17);
  const tokens = new Array(vectors.length).fill(80);
  const memo = new Map<string, number[][]>();
  /** clusterNodes with seed 5, computed once per option set (the tests share them). */
  const run = (options: Parameters<typeof clusterNodes>[2] = {}) => {
    const key = JSON.stringify(options);
    if (!memo.has(key)) memo.set(key, clusterNodes(vectors, tokens, { seed: 5, ...options }));
    return memo.get(key)!;
  };

  it('defaults to spherical components of at least three nodes', () => {
    expect(LOCAL_COVARIANCE).toBe('spherical');
    expect(LOCAL_MIN_CLUSTER_SIZE).toBe(3);
  });

  it('splits groups into smaller clusters than the full-covariance design, never across groups', () => {
    const fine = run({ threshold: 1 });
    const coarse = run({ threshold: 1, local: { covariance: 'full' } });
    expect(pure(fine, labels)).toBe(true);
    expect(pure(coarse, labels)).toBe(true);
    expect(fine.length).toBeGreaterThan(coarse.length);
    expect(mean(fine)).toBeLessThan(mean(coarse));
    expect(Math.min(...coarse.map((c) => c.length))).toBeGreaterThanOrEqual(9);
  });

  it('a larger floor makes larger clusters', () => {
    const three = run({ threshold: 1 });
    const eight = run({ threshold: 1, local: { minClusterSize: 8 } });
    expect(mean(eight)).toBeGreaterThan(mean(three));
    expect(Math.min(...eight.map((c) => c.length))).toBeGreaterThanOrEqual(7);
  });

  it('a floor below what a full covariance needs is raised to it: no degenerate component', () => {
    expect(run({ local: { covariance: 'full', minClusterSize: 1 } })).toEqual(
      run({ local: { covariance: 'full' } }),
    );
  });

  it('several families: the sweep of lowest criterion wins, and it is one of the single-family results', () => {
    const both = run({ local: { covariance: ['full', 'spherical'] } });
    const singles = [run({ local: { covariance: 'full' } }), run()].map((c) => JSON.stringify(c));
    expect(singles).toContain(JSON.stringify(both));
  });

  it('is deterministic for a seed with other local mixtures too', () => {
    const local = { covariance: 'diag' as const, criterion: 'icl' as const };
    expect(clusterNodes(vectors, tokens, { seed: 5, local })).toEqual(run({ local }));
  });
});
