/**
 * `clusterNodes` paths the other small tests do not reach: re-clustering of an oversized cluster that is not the
 * whole set, merging of duplicate clusters, the local step's own progress, identical directions, a zero vector,
 * and `runLocalClusterTask` recomputed from its parts (UMAP, then each family's BIC sweep, soft membership).
 * Inputs of a few dozen points at most, so the file stays in the mutation selection (vitest.mutate.config.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  clusterNodes,
  runLocalClusterTask,
  type ClusterProgress,
  type LocalClusterTask,
  type MixtureSpec,
} from '../../../src/core/cluster/cluster';
import { deriveSeed } from '../../../src/core/random';
import { minimumComponentSize, selectClusterCount } from '../../../src/core/cluster/select-k';
import { reduceDimensions } from '../../../src/core/cluster/umap';
import { runSync } from '../../../src/core/yield';
import { blobs } from '../../support/fake-embedder';

const all = (n: number) => Array.from({ length: n }, (_, i) => i);
const sameSets = (clusters: number[][]) => clusters.map((c) => c.join(',')).sort();

/** Unit vectors of `vectors`, row-major, computed here (not by the code under test). */
function unitRows(vectors: Float32Array[]): Float32Array {
  const dim = vectors[0].length;
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    const inv = 1 / Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
    for (let t = 0; t < dim; t++) out[i * dim + t] = v[t] * inv;
  });
  return out;
}

describe('re-clustering and duplicates', () => {
  // Four far groups of five nodes, interleaved in document order: node i belongs to group i mod 4.
  const { vectors: byGroup } = blobs(4, 5, 8, 0.05, 21);
  const interleaved = all(20).map((i) => byGroup[(i % 4) * 5 + Math.floor(i / 4)]);
  const truth = [0, 1, 2, 3].map((g) => all(20).filter((i) => i % 4 === g));

  it('a cluster over the budget that is not the whole set is clustered again, not cut in document order', () => {
    // maxClusters 3: every mixture has at most 2 components, so the first pass can only pair the four groups;
    // local minClusterSize 6 keeps its 10-node clusters whole (two components of 6 need 11). 10 × 10 tokens
    // exceed 60, so each pair is clustered again and comes apart into its two groups of 50 tokens.
    const clusters = clusterNodes(interleaved, new Array(20).fill(10), {
      reductionDim: 2,
      seed: 4,
      maxClusters: 3,
      maxClusterTokens: 60,
      local: { minClusterSize: 6 },
    });
    expect(sameSets(clusters)).toEqual(sameSets(truth));
  });

  it('the same clustering without the budget is not clustered again: two clusters of whole groups', () => {
    // The first pass splits the groups 2 + 2 or 1 + 3 (as the layout falls); no local split is admissible
    // (two components of 6 need 11 nodes, a group has 5), and without a budget nothing is clustered again.
    for (const seed of [4, 5, 6]) {
      const clusters = clusterNodes(interleaved, new Array(20).fill(10), {
        reductionDim: 2,
        seed,
        maxClusters: 3,
        local: { minClusterSize: 6 },
      });
      expect(clusters).toHaveLength(2);
      expect(clusters.flat().sort((a, b) => a - b)).toEqual(all(20));
      for (const c of clusters) {
        const groups = [...new Set(c.map((i) => i % 4))];
        expect(c).toHaveLength(5 * groups.length);
      }
    }
  });

  it('an oversized cluster holding every node is clustered once, then cut in document order', () => {
    // maxClusters 1: one component everywhere. Clustering the same nodes again cannot make progress, so the
    // whole set is cut at once: exactly one global mixture is reported, and the runs are 70 + 70 + 60 tokens.
    const events: ClusterProgress[] = [];
    const clusters = clusterNodes(interleaved, new Array(20).fill(10), {
      reductionDim: 2,
      seed: 4,
      maxClusters: 1,
      maxClusterTokens: 70,
      onProgress: (p) => events.push(p),
    });
    expect(clusters).toEqual([all(7), all(7).map((i) => i + 7), all(6).map((i) => i + 14)]);
    expect(events.filter((e) => e.step === 'global-gmm')).toHaveLength(1);
  });

  it('a first node over the budget on its own gets a cluster alone, and no cluster is empty', () => {
    const same = Array.from({ length: 4 }, () => Float32Array.of(0, 2, 0));
    expect(clusterNodes(same, [500, 10, 10, 10], { maxClusterTokens: 100 })).toEqual([[0], [1, 2, 3]]);
  });

  it('clusters with the same members are merged: a node in two oversized clusters is a one-node cluster once', () => {
    // One spread-out blob, threshold 0 (a node joins every cluster with a non-zero posterior), at most two
    // components, no local split: the clusters overlap. With a budget of one node's tokens every cluster is
    // cut down to single nodes, so a node in two clusters comes out twice unless duplicates are merged.
    const { vectors } = blobs(1, 12, 6, 1, 3);
    const options = { reductionDim: 2, seed: 3, threshold: 0, maxClusters: 3, local: { minClusterSize: 20 } };
    const overlapping = clusterNodes(vectors, new Array(12).fill(10), options);
    expect(overlapping.flat().length).toBeGreaterThan(12);
    const clusters = clusterNodes(vectors, new Array(12).fill(10), { ...options, maxClusterTokens: 10 });
    expect(sameSets(clusters)).toEqual(sameSets(all(12).map((i) => [i])));
  });
});

describe('identical directions and zero vectors', () => {
  it('identical directions: one cluster, and no layout or mixture is run (nothing reported)', () => {
    const same = [1, 2, 0.5, 3, 7, 4].map((s) => Float32Array.of(s, -s, 2 * s, s / 2));
    const events: ClusterProgress[] = [];
    expect(clusterNodes(same, new Array(6).fill(1), { onProgress: (p) => events.push(p) })).toEqual([all(6)]);
    expect(events).toEqual([]);
  });

  it('directions that differ are laid out (progress is reported)', () => {
    // Three directions 53° apart: not the same point.
    const e0 = Float32Array.of(1, 0, 0, 0);
    const v = Float32Array.of(0.6, 0.8, 0, 0);
    const w = Float32Array.of(0.6, 0, 0.8, 0);
    const events: ClusterProgress[] = [];
    const clusters = clusterNodes([e0, v, w, e0, v, w], new Array(6).fill(1), {
      reductionDim: 2,
      onProgress: (p) => events.push(p),
    });
    expect(new Set(clusters.flat())).toEqual(new Set(all(6)));
    expect(events.some((e) => e.step === 'global-umap')).toBe(true);
  });

  it('duplicates are laid out once and share their clusters: two directions, each three times, are two points', () => {
    const e0 = Float32Array.of(1, 0, 0, 0);
    const v = Float32Array.of(0.6, 0.8, 0, 0);
    const events: ClusterProgress[] = [];
    // Two distinct points are too few to lay out: one cluster, nothing reported, as for one point.
    expect(
      clusterNodes([e0, v, e0, e0, v, e0], new Array(6).fill(1), {
        reductionDim: 2,
        onProgress: (p) => events.push(p),
      }),
    ).toEqual([all(6)]);
    expect(events).toEqual([]);
  });

  it('a zero vector does not stop two far groups from coming apart', () => {
    const { vectors, labels } = blobs(2, 6, 8, 0.05, 7);
    const withZero = [...vectors, new Float32Array(8)];
    const clusters = clusterNodes(withZero, new Array(13).fill(10), { reductionDim: 2, seed: 3 });
    expect(new Set(clusters.flat())).toEqual(new Set(all(13)));
    for (const c of clusters) {
      const groups = new Set(c.filter((i) => i < 12).map((i) => labels[i]));
      expect(groups.size).toBeLessThanOrEqual(1);
    }
  });
});

describe('progress of the local step', () => {
  // Two far super-groups, each of two nearer groups of 6 (so the local step has something to split).
  const { vectors } = blobs(4, 6, 8, 0.05, 31);

  it('every fraction lies in [0, 1] and never goes back within a step of one group', () => {
    const events: ClusterProgress[] = [];
    clusterNodes(vectors, new Array(24).fill(10), {
      reductionDim: 2,
      seed: 2,
      onProgress: (p) => events.push(p),
    });
    const last = new Map<string, number>();
    for (const e of events) {
      if (e.fraction === undefined) continue;
      expect(e.fraction).toBeGreaterThanOrEqual(0);
      expect(e.fraction).toBeLessThanOrEqual(1);
      const key = `${e.step}:${e.group}`;
      expect(e.fraction).toBeGreaterThanOrEqual(last.get(key) ?? 0);
      last.set(key, e.fraction);
    }
    expect(events.length).toBeGreaterThan(0);
  });

  it('each split group reports its UMAP (ending at 1), then its mixture, under its own index', () => {
    const events: ClusterProgress[] = [];
    clusterNodes(vectors, new Array(24).fill(10), {
      seed: 2,
      onProgress: (p) => events.push(p),
    });
    const local = events.filter((e) => e.step === 'local-umap' || e.step === 'local-gmm');
    const groups = [...new Set(local.map((e) => e.group))];
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) {
      const steps = local.filter((e) => e.group === g);
      const firstGmm = steps.findIndex((e) => e.step === 'local-gmm');
      expect(firstGmm).toBeGreaterThan(0);
      expect(steps.slice(0, firstGmm).every((e) => e.step === 'local-umap')).toBe(true);
      expect(steps[firstGmm - 1].fraction).toBe(1);
      expect(steps.slice(firstGmm).every((e) => e.step === 'local-gmm')).toBe(true);
    }
  });
});

describe('runLocalClusterTask recomputed from its parts', () => {
  /**
   * The task's clustering worked out here from the public parts: UMAP to min(d, n − 2) dimensions, each
   * family's BIC sweep with the family's floor (the requested one, or LOCAL_MIN_CLUSTER_SIZE = 3 for all but
   * 'full', never below the family's own), the lowest score wins; a node joins every cluster whose posterior
   * exceeds the threshold, and always its most probable one.
   */
  function expected(task: LocalClusterTask): { labels: number[][]; k: number } {
    const nComponents = Math.min(task.spec.reductionDim, task.n - 2);
    const reduced = runSync(
      reduceDimensions(task.unit, task.n, task.dim, {
        nComponents,
        nNeighbors: task.nNeighbors,
        seed: task.seed,
        ids: task.ids,
      }),
    );
    const points = all(task.n).map((i) => reduced.subarray(i * nComponents, (i + 1) * nComponents));
    const fits = task.spec.families.map((covariance) =>
      selectClusterCount(points, {
        maxClusters: task.maxClusters,
        seed: task.seed,
        covariance,
        criterion: task.spec.criterion,
        minComponentSize: Math.max(
          minimumComponentSize(covariance, nComponents),
          task.spec.minClusterSize ?? (covariance === 'full' ? 0 : 3),
        ),
      }),
    );
    const best = fits.reduce((a, b) => (b.score < a.score ? b : a));
    const labels = best.model.predictProba(points).map((row) => {
      const top = row.indexOf(Math.max(...row));
      return all(row.length).filter((c) => row[c] > task.threshold || c === top);
    });
    return { labels, k: best.k };
  }

  // Three groups of 7 in 6-d, one of them between the others, so that some posteriors are neither 0 nor 1.
  const { vectors } = blobs(3, 7, 6, 0.35, 17);
  const base: LocalClusterTask = {
    unit: unitRows(vectors),
    // Node ids of another layer's numbering: the layout's draws are keyed by them, not by row.
    ids: Int32Array.from(all(21), (i) => 100 + 3 * i),
    n: 21,
    dim: 6,
    nNeighbors: 10,
    seed: 99,
    threshold: 0.1,
    maxClusters: 50,
    spec: { reductionDim: 10, families: ['spherical'], criterion: 'bic' },
  };

  it.each([
    ['spherical, default floor', base.spec, 21],
    ['full, default floor (d)', { ...base.spec, families: ['full'] }, 21],
    ['full then spherical, the lower score wins', { ...base.spec, families: ['full', 'spherical'] }, 21],
    ['spherical then full, the lower score wins', { ...base.spec, families: ['spherical', 'full'] }, 21],
    ['8 nodes: UMAP to n − 2 = 6 dimensions', base.spec, 8],
    [
      '3 nodes, full: UMAP to 1 dimension, where a component of 1 node is allowed',
      { ...base.spec, families: ['full'] },
      3,
    ],
    [
      'diag with a floor of 4 in 3-d',
      { ...base.spec, reductionDim: 3, families: ['diag'], minClusterSize: 4 },
      21,
    ],
  ] satisfies [string, MixtureSpec, number][])('%s', (_, spec, n) => {
    const task = {
      ...base,
      spec,
      n,
      unit: base.unit.subarray(0, n * base.dim),
      ids: base.ids.subarray(0, n),
    };
    expect(runLocalClusterTask(task)).toEqual(expected(task));
  });

  it('a task of one or two nodes is one cluster, without a layout', () => {
    for (const n of [1, 2]) {
      const task = { ...base, n, unit: base.unit.slice(0, n * base.dim), ids: base.ids.slice(0, n) };
      expect(runLocalClusterTask(task)).toEqual({ labels: all(n).map(() => [0]), k: 1 });
    }
  });

  it('soft membership: with a low threshold some node joins several clusters, exactly as recomputed', () => {
    // Seed 1: a layout where one node lies between two clusters (with seed 99 every posterior is 0 or 1).
    const task = { ...base, seed: 1, threshold: 1e-4, spec: { ...base.spec, reductionDim: 2 } };
    const result = runLocalClusterTask(task);
    expect(result).toEqual(expected(task));
    expect(result.labels.some((l) => l.length > 1)).toBe(true);
  });
});

describe('the global step recomputed from its parts', () => {
  it('UMAP with ⌊√(N − 1)⌋ neighbours to min(d, N − 2) dimensions, full covariances with components of ≥ d', () => {
    // Three overlapping groups of 5 (N = 15: ⌊√14⌋ = 3 neighbours); local minClusterSize 20 keeps every global
    // cluster whole, so the result is the global step's alone.
    const { vectors } = blobs(3, 5, 8, 0.6, 23);
    const n = 15;
    const d = 2;
    const seed = 12;
    const reduced = runSync(
      reduceDimensions(unitRows(vectors), n, 8, {
        nComponents: d,
        nNeighbors: 3,
        seed: deriveSeed(seed, 0, 0),
      }),
    );
    const points = all(n).map((i) => reduced.subarray(i * d, (i + 1) * d));
    const fit = selectClusterCount(points, {
      maxClusters: 50,
      seed: deriveSeed(seed, 0, 0),
      minComponentSize: d,
    });
    const probs = fit.model.predictProba(points);
    const members = all(fit.k).map((c) =>
      all(n).filter((i) => probs[i][c] > 0.1 || probs[i].indexOf(Math.max(...probs[i])) === c),
    );
    const expected = members.filter((m) => m.length > 0);
    expect(fit.k).toBeGreaterThan(1);
    expect(
      clusterNodes(vectors, new Array(n).fill(10), { reductionDim: d, seed, local: { minClusterSize: 20 } }),
    ).toEqual(expected);
  });
});
