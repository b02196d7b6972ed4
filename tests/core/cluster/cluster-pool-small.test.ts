/**
 * `clusterNodesAsync` with a pool of FAKE workers (in this process, each task run by `runLocalClusterTask`) on
 * a few dozen nodes: which global clusters are handed out, with which seeds, what is reported, and that the
 * clusters are those of the sequential run even where the local step splits a global cluster. Small enough for
 * the mutation selection (vitest.mutate.config.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  clusterNodes,
  clusterNodesAsync,
  runLocalClusterTask,
  type ClusterPool,
  type ClusterProgress,
  type LocalClusterResult,
  type LocalClusterTask,
} from '../../../src/core/cluster/cluster';
import { deriveSeed } from '../../../src/core/random';
import { blobs } from '../../support/fake-embedder';

/** A FAKE pool: records each task and its result, runs it with runLocalClusterTask. */
function recordingPool(
  size: number,
): ClusterPool & { tasks: LocalClusterTask[]; results: LocalClusterResult[] } {
  const tasks: LocalClusterTask[] = [];
  const results: LocalClusterResult[] = [];
  return {
    size,
    tasks,
    results,
    async run(task) {
      tasks.push(task);
      await new Promise((r) => setTimeout(r, 1));
      const result = runLocalClusterTask(task);
      results.push(result);
      return result;
    },
  };
}

/** Far groups of the given sizes in 8-d, one after another in document order, with each node's group. */
function groups(sizes: number[], seed: number): { vectors: Float32Array[]; labels: number[] } {
  const vectors: Float32Array[] = [];
  const labels: number[] = [];
  sizes.forEach((size, g) => {
    vectors.push(...blobs(1, size, 8, 0.05, seed + g).vectors);
    labels.push(...new Array(size).fill(g));
  });
  return { vectors, labels };
}

describe('clusterNodesAsync with a FAKE pool', () => {
  it('where the local step splits a global cluster, the clusters are still the sequential ones', async () => {
    // Four far groups of 6 in the default 10 dimensions: global (full) components need ≥ 10 nodes, so the
    // global step can at most pair the groups, and the local (spherical, ≥ 3) step takes pairs apart.
    const { vectors } = blobs(4, 6, 8, 0.05, 31);
    const tokens = new Array(24).fill(10);
    const options = { seed: 2 };
    const pool = recordingPool(2);
    const events: ClusterProgress[] = [];
    const clusters = await clusterNodesAsync(vectors, tokens, {
      ...options,
      pool,
      onProgress: (p) => events.push(p),
    });
    expect(pool.results.some((r) => r.k > 1)).toBe(true);
    expect(clusters).toEqual(clusterNodes(vectors, tokens, options));
    // The local work ran in the pool: no local UMAP or mixture of this process is reported.
    expect(events.some((e) => e.step === 'local-umap' || e.step === 'local-gmm')).toBe(false);
  });

  it('hands out only global clusters of at least 2 · 3 − 1 = 5 nodes (two local components of ≥ 3 need 5)', async () => {
    const { vectors, labels } = groups([4, 5, 9], 40);
    const pool = recordingPool(1);
    const clusters = await clusterNodesAsync(vectors, new Array(18).fill(10), {
      reductionDim: 2,
      seed: 6,
      pool,
    });
    // The global step keeps the three groups apart …
    for (const c of clusters) expect(new Set(c.map((i) => labels[i])).size).toBe(1);
    // … and only the groups of 5 and 9 are clustered locally, largest first.
    expect(pool.tasks.map((t) => t.n)).toEqual([9, 5]);
    // With full components allowed too (a floor of d = 2 in 2-d), the smaller floor decides: 2 · 2 − 1 = 3.
    const both = recordingPool(1);
    await clusterNodesAsync(vectors, new Array(18).fill(10), {
      reductionDim: 2,
      seed: 6,
      pool: both,
      local: { covariance: ['spherical', 'full'] },
    });
    expect(both.tasks.map((t) => t.n)).toEqual([9, 5, 4]);
  });

  it('gives every local clustering the same seed, not the global step’s, and its members’ node ids', async () => {
    // A group's clustering then depends on its members only, not on where the global mixture listed it.
    const { vectors } = blobs(4, 6, 8, 0.05, 31);
    const pool = recordingPool(3);
    const clusters = await clusterNodesAsync(vectors, new Array(24).fill(10), { seed: 8, pool });
    const seeds = pool.tasks.map((t) => t.seed);
    expect(seeds.length).toBeGreaterThan(1);
    expect(new Set(seeds)).toEqual(new Set([deriveSeed(8, 0, 1)]));
    expect(seeds).not.toContain(deriveSeed(8, 0, 0));
    // Each task's ids are node indices, its rows those nodes' unit vectors, and the ids cover every node.
    for (const task of pool.tasks) {
      expect(task.ids).toHaveLength(task.n);
      task.ids.forEach((id, r) => {
        const v = vectors[id];
        const inv = 1 / Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
        expect(Array.from(task.unit.subarray(r * task.dim, (r + 1) * task.dim))).toEqual(
          Array.from(v, (x) => Math.fround(x * inv)),
        );
      });
    }
    expect(new Set(pool.tasks.flatMap((t) => Array.from(t.ids)))).toEqual(new Set(clusters.flat()));
  });

  it('reports no pool progress when no global cluster is large enough to split', async () => {
    const { vectors, labels } = groups([4, 4], 60);
    const pool = recordingPool(2);
    const events: ClusterProgress[] = [];
    const clusters = await clusterNodesAsync(vectors, new Array(8).fill(10), {
      reductionDim: 2,
      seed: 1,
      pool,
      onProgress: (p) => events.push(p),
    });
    for (const c of clusters) expect(new Set(c.map((i) => labels[i])).size).toBe(1);
    expect(pool.tasks).toEqual([]);
    expect(events.filter((e) => e.step === 'local')).toEqual([]);
  });

  it('hands each local clustering the unit rows of its members; a zero vector stays zero', async () => {
    const { vectors } = groups([6, 7], 70);
    const input = [...vectors, new Float32Array(8)];
    const pool = recordingPool(2);
    await clusterNodesAsync(input, new Array(14).fill(10), { seed: 3, pool });
    // Unit rows worked out here: v · (1 / |v|), and the zero vector as it is.
    const expected = input.map((v) => {
      const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
      return Array.from(norm > 0 ? v.map((x) => x * (1 / norm)) : v).join(',');
    });
    const rows = pool.tasks.flatMap((t) =>
      Array.from({ length: t.n }, (_, r) =>
        Array.from(t.unit.subarray(r * t.dim, (r + 1) * t.dim)).join(','),
      ),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(expected).toContain(row);
    expect(rows).toContain(expected[13]);
  });
});
