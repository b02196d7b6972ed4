/**
 * `clusterNodes` on inputs of a dozen nodes or fewer: the rules around the mixtures (tiny and identical inputs,
 * the token budget's split in document order, membership, option checks, progress, a pool of FAKE workers that
 * run `runLocalClusterTask` in this process). Expected values are worked out by hand or are properties.
 * Quick enough for the mutation run, which leaves out the larger clustering files (vitest.mutate.config.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  dedupe,
  groupByLabel,
  MAX_RECLUSTER_DEPTH,
  oversizedClusterAction,
  clusterNodes,
  clusterNodesAsync,
  runLocalClusterTask,
  type ClusterPool,
  type ClusterProgress,
  type LocalClusterTask,
} from '../../../src/core/cluster/cluster';
import { DimensionError } from '../../../src/core/errors';
import { blobs } from '../../support/fake-embedder';

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Two far-apart groups of six nodes in 8-d (nodes 0–5 and 6–11). */
const { vectors, labels } = blobs(2, 6, 8, 0.05, 7);
const SMALL = { reductionDim: 2, seed: 3 };

function groupsOf(clusters: number[][]): number[] {
  return clusters.map((c) => new Set(c.map((i) => labels[i])).size);
}

describe('clusterNodes on a dozen nodes', () => {
  it('returns nothing for no nodes and one cluster for one or two', () => {
    expect(clusterNodes([], [])).toEqual([]);
    expect(clusterNodes([vectors[0]], [5])).toEqual([[0]]);
    expect(clusterNodes([vectors[0], vectors[6]], [5, 5])).toEqual([[0, 1]]);
  });

  it('keeps identical directions (whatever their length) in one cluster without a layout', () => {
    const same = [1, 2, 0.5, 3, 7].map((s) => Float32Array.of(s, -s, 2 * s));
    expect(clusterNodes(same, [1, 1, 1, 1, 1])).toEqual([all(5)]);
  });

  it('splits an oversized cluster that cannot be clustered further in document order, within the budget', () => {
    // Identical directions: one cluster of 660 tokens, over 350. In order: 100 + 200 + 50 = 350 fits
    // exactly, 300 + 10 the rest.
    const same = Array.from({ length: 5 }, () => Float32Array.of(1, 0, 0, 0));
    expect(clusterNodes(same, [100, 200, 50, 300, 10], { maxClusterTokens: 350 })).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    // A node above the budget on its own still gets a cluster (alone).
    expect(clusterNodes(same, [10, 500, 10, 10, 10], { maxClusterTokens: 100 })).toEqual([
      [0],
      [1],
      [2, 3, 4],
    ]);
    // Within the budget nothing is split.
    expect(clusterNodes(same, [100, 200, 50, 300, 10], { maxClusterTokens: 660 })).toEqual([all(5)]);
  });

  it('separates two far groups, each node in its group’s clusters only', () => {
    const clusters = clusterNodes(vectors, new Array(12).fill(10), SMALL);
    expect(groupsOf(clusters)).toEqual(clusters.map(() => 1));
    expect(new Set(clusters.flat())).toEqual(new Set(all(12)));
    for (const c of clusters) for (let i = 1; i < c.length; i++) expect(c[i]).toBeGreaterThan(c[i - 1]);
  });

  it('re-clusters a cluster over the token budget: the two groups come apart when together they do not fit', () => {
    // maxClusters 1: every mixture has one component, so only the budget can split; 12 × 10 = 120 > 70,
    // and the re-clustering of the whole set stops at once (no progress possible): document order, 7 + 5.
    const tokens = new Array(12).fill(10);
    expect(clusterNodes(vectors, tokens, { ...SMALL, maxClusters: 1, maxClusterTokens: 70 })).toEqual([
      all(7),
      [7, 8, 9, 10, 11],
    ]);
    expect(clusterNodes(vectors, tokens, { ...SMALL, maxClusters: 1 })).toEqual([all(12)]);
  });

  it('with a threshold no posterior exceeds, each node is in exactly one cluster', () => {
    const clusters = clusterNodes(vectors, new Array(12).fill(10), { ...SMALL, threshold: 0.999999 });
    expect(clusters.flat().sort((a, b) => a - b)).toEqual(all(12));
  });

  it('is deterministic for a seed and blind to vector length (× 4 is exact in float32)', () => {
    const tokens = new Array(12).fill(10);
    const a = clusterNodes(vectors, tokens, SMALL);
    expect(clusterNodes(vectors, tokens, SMALL)).toEqual(a);
    expect(
      clusterNodes(
        vectors.map((v) => v.map((x) => x * 4)),
        tokens,
        SMALL,
      ),
    ).toEqual(a);
  });

  it('a zero vector is clustered without NaN', () => {
    const withZero = [...vectors.slice(0, 5), new Float32Array(8)];
    const clusters = clusterNodes(withZero, new Array(6).fill(10), SMALL);
    expect(new Set(clusters.flat())).toEqual(new Set(all(6)));
  });

  it('names the lengths and counts that do not match', () => {
    let error: unknown;
    try {
      clusterNodes([new Float32Array(4), new Float32Array(4), new Float32Array(5)], [1, 1, 1]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DimensionError);
    expect(error).toMatchObject({
      code: 'DIMENSION_MISMATCH',
      message: 'Embedding 2 has 5 dimensions; embedding 0 has 4.',
      details: { index: 2, expected: 4, actual: 5 },
    });
    expect(() => clusterNodes([new Float32Array(4)], [1, 2])).toThrow(
      expect.objectContaining({
        code: 'DIMENSION_MISMATCH',
        message: 'Got 1 embeddings but 2 token counts.',
        details: { embeddings: 1, tokenCounts: 2 },
      }),
    );
  });

  it('reports the global step, then each local group’s UMAP and mixture', () => {
    const events: ClusterProgress[] = [];
    clusterNodes(vectors, new Array(12).fill(10), { ...SMALL, onProgress: (p) => events.push(p) });
    const steps = events.map((e) => e.step);
    expect(steps[0]).toBe('global-umap');
    // k-NN rows: 30 % of the UMAP step, in twelfths; the layout the rest, up to 1.
    expect(events[0].fraction).toBeCloseTo(0.3 / 12, 12);
    const globalUmap = events.filter((e) => e.step === 'global-umap').map((e) => e.fraction);
    expect(globalUmap[11]).toBeCloseTo(0.3, 12);
    expect(globalUmap.at(-1)).toBe(1);
    expect(steps.indexOf('global-gmm')).toBe(globalUmap.length);
    expect(events[globalUmap.length].fraction).toBeUndefined();
    for (const e of events) {
      if (e.step.startsWith('local')) expect(e.group).toBeGreaterThanOrEqual(0);
      else expect(e.group).toBeUndefined();
    }
  });
});

describe('clusterNodesAsync with a pool (FAKE workers in this process)', () => {
  /** A pool that records its tasks and runs each with runLocalClusterTask. */
  function recordingPool(size: number): ClusterPool & { tasks: LocalClusterTask[] } {
    const tasks: LocalClusterTask[] = [];
    return {
      size,
      tasks,
      async run(task) {
        tasks.push(task);
        await new Promise((r) => setTimeout(r, 1));
        return runLocalClusterTask(task);
      },
    };
  }

  // Three far groups of 9, 5 and 7 nodes.
  const three = [
    ...blobs(1, 9, 8, 0.05, 11).vectors,
    ...blobs(1, 5, 8, 0.05, 12).vectors,
    ...blobs(1, 7, 8, 0.05, 13).vectors,
  ];
  const tokens = new Array(three.length).fill(10);
  const options = { reductionDim: 2, seed: 5 };

  it('gives the sequential clusters, hands the largest groups out first, counts finished groups', async () => {
    const pool = recordingPool(2);
    const events: ClusterProgress[] = [];
    const clusters = await clusterNodesAsync(three, tokens, {
      ...options,
      pool,
      onProgress: (p) => events.push(p),
    });
    expect(clusters).toEqual(clusterNodes(three, tokens, options));
    const sizes = pool.tasks.map((t) => t.n);
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    for (const task of pool.tasks) {
      expect(task).toMatchObject({ nNeighbors: 10, threshold: 0.1, maxClusters: 50 });
      expect(task.unit).toHaveLength(task.n * task.dim);
    }
    const local = events.filter((e) => e.step === 'local');
    const groups = pool.tasks.length;
    expect(local.map((e) => [e.done, e.groups, e.workers, e.fraction])).toEqual(
      Array.from({ length: groups + 1 }, (_, d) => [d, groups, 2, d / groups]),
    );
  });

  it('cannot run in the synchronous form', () => {
    expect(() => clusterNodes(three, tokens, { ...options, pool: recordingPool(1) })).toThrow();
  });

  it('stops with an AbortError when the signal has fired', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      clusterNodesAsync(three, tokens, { ...options, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('grouping by label and removing repeated clusters (hand-worked)', () => {
  it('groups node indices by each of their labels and skips a label no node has', () => {
    // Node 0 → label 0; node 1 → label 2; node 2 → labels 0 and 2 (soft membership); label 1 and 3 are empty.
    expect(groupByLabel([[0], [2], [0, 2]], 4)).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(groupByLabel([[1], [1]], 2)).toEqual([[0, 1]]);
  });

  it('removes only clusters with exactly the same members, keeping the first', () => {
    // [1, 23] and [12, 3] have the same digits in the same order: they are different clusters.
    expect(
      dedupe([
        [1, 23],
        [12, 3],
        [1, 23],
        [1, 2, 3],
        [12, 3],
      ]),
    ).toEqual([
      [1, 23],
      [12, 3],
      [1, 2, 3],
    ]);
  });
});

describe('oversized clusters (the paper: re-cluster a cluster whose text exceeds the budget)', () => {
  it('keeps a single node or a cluster whose text fits, up to exactly the budget', () => {
    expect(oversizedClusterAction(1, 9_999, 10, 0, 3_500)).toBe('keep');
    expect(oversizedClusterAction(2, 3_500, 10, 0, 3_500)).toBe('keep');
    expect(oversizedClusterAction(2, 3_501, 10, 0, 3_500)).toBe('recluster');
  });

  it(`clusters again while that can make progress, at most ${MAX_RECLUSTER_DEPTH} levels deep`, () => {
    expect(MAX_RECLUSTER_DEPTH).toBe(4);
    expect(oversizedClusterAction(5, 4_000, 10, 3, 3_500)).toBe('recluster');
    expect(oversizedClusterAction(5, 4_000, 10, 4, 3_500)).toBe('split-in-order');
    expect(oversizedClusterAction(5, 4_000, 10, 5, 3_500)).toBe('split-in-order');
    // All of its parent's nodes: clustering them again would find the same cluster.
    expect(oversizedClusterAction(10, 4_000, 10, 0, 3_500)).toBe('split-in-order');
    expect(oversizedClusterAction(9, 4_000, 10, 0, 3_500)).toBe('recluster');
  });
});

describe('re-clustering levels in the progress events', () => {
  it('reports level 0 for the first clustering and 1, 2 … for an oversized cluster clustered again', () => {
    const events: ClusterProgress[] = [];
    // 10 tokens a node and a budget of 25: every cluster of three or more nodes is clustered again.
    const clusters = clusterNodes(vectors, new Array(12).fill(10), {
      ...SMALL,
      maxClusterTokens: 25,
      onProgress: (p) => events.push(p),
    });
    for (const c of clusters) expect(c.length * 10).toBeLessThanOrEqual(25);
    const depths = events.filter((e) => e.step === 'global-umap').map((e) => e.depth);
    expect(depths[0]).toBe(0);
    expect(depths).toContain(1);
    for (const d of depths) {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(MAX_RECLUSTER_DEPTH);
    }
  });
});
