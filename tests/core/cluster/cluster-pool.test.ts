/**
 * Local clusterings in a pool: the same clusters with no pool and with pools of 1, 2 and 3 workers, whatever
 * order the workers finish in; honest progress counts; failures and aborts. The workers are FAKE workers: each
 * runs `runLocalClusterTask` in this process after a structured-clone round trip of its task and result (what
 * crossing a worker boundary does) and a seeded random delay, so tasks finish out of order. The fake workers
 * also run parts of the global BIC sweep (`runSweepTask`) the same way, for layers of ≥ 200 nodes, and blocks
 * of rows of the global exact k-NN scan (`runKnnRowsTask`), for layers of ≥ 500 nodes.
 */
import { describe, expect, it } from 'vitest';
import {
  clusterNodes,
  clusterNodesAsync,
  runLocalClusterTask,
  type ClusterProgress,
  type LocalClusterTask,
} from '../../../src/core/cluster/cluster';
import { createClusterPool, type ClusterWorker } from '../../../src/core/cluster/cluster-pool';
import { runSweepTask, type SweepTask } from '../../../src/core/cluster/select-k';
import { runKnnRowsTask, type KnnRowsTask } from '../../../src/core/cluster/knn';
import { seededRandom } from '../../../src/core/random';
import { blobs } from '../../support/fake-embedder';

/** A fake worker: a cloned task, run here after a random delay, and a cloned result. */
function fakeWorker(
  random: () => number,
  log: { started: number; running: number; most: number; sweeps?: SweepTask[]; knn?: KnnRowsTask[] },
): ClusterWorker {
  return {
    async run(task: LocalClusterTask) {
      log.running++;
      log.most = Math.max(log.most, log.running);
      try {
        await new Promise((r) => setTimeout(r, Math.floor(random() * 15)));
        return structuredClone(runLocalClusterTask(structuredClone(task)));
      } finally {
        log.running--;
      }
    },
    async sweep(task: SweepTask) {
      log.sweeps?.push(task);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 15)));
      return structuredClone(runSweepTask(structuredClone(task)));
    },
    async knn(task: KnnRowsTask) {
      log.knn?.push(task);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 15)));
      return structuredClone(runKnnRowsTask(structuredClone(task)));
    },
    terminate() {},
  };
}

function poolOf(size: number, seed: number) {
  const random = seededRandom(seed);
  const log = { started: 0, running: 0, most: 0, sweeps: [] as SweepTask[], knn: [] as KnnRowsTask[] };
  const pool = createClusterPool(size, () => {
    log.started++;
    return fakeWorker(random, log);
  });
  return { pool, log };
}

// Five well-separated groups of 30: the global step finds several groups, each clustered locally.
const { vectors } = blobs(5, 30, 24, 0.35, 20241124);
const tokens = new Array(vectors.length).fill(60);

describe('local clusterings in a pool of workers', () => {
  const sequential = clusterNodes(vectors, tokens, { seed: 5 });

  it('finds several global groups here (so the pool has work to share)', () => {
    expect(sequential.length).toBeGreaterThan(5);
  });

  for (const size of [1, 2, 3]) {
    it(`gives exactly the sequential clusters with ${size} fake worker(s), tasks finishing out of order`, async () => {
      const { pool, log } = poolOf(size, size * 31);
      const progress: ClusterProgress[] = [];
      const clusters = await clusterNodesAsync(vectors, tokens, {
        seed: 5,
        pool,
        onProgress: (p) => progress.push(p),
      });
      expect(clusters).toEqual(sequential);
      expect(log.started).toBe(size);
      expect(log.most).toBe(size);
      // Progress counts finished groups, one more each time, up to all of them, with the pool's size.
      const local = progress.filter((p) => p.step === 'local');
      const groups = local[0].groups!;
      expect(groups).toBeGreaterThan(1);
      expect(local.map((p) => p.done)).toEqual(Array.from({ length: groups + 1 }, (_, i) => i));
      expect(local.every((p) => p.groups === groups && p.workers === size)).toBe(true);
      expect(local[local.length - 1].fraction).toBe(1);
      expect(progress.some((p) => p.step === 'local-umap' || p.step === 'local-gmm')).toBe(false);
    });
  }

  it('the same clusters for another seed, with 1 and 3 workers', async () => {
    for (const seed of [1]) {
      const expected = clusterNodes(vectors, tokens, { seed });
      for (const size of [1, 3]) {
        const { pool } = poolOf(size, seed + size);
        expect(await clusterNodesAsync(vectors, tokens, { seed, pool })).toEqual(expected);
      }
    }
  });

  it('splits the global BIC sweep of a large layer over the workers, with the same clusters', async () => {
    // 8 groups of 30 = 240 nodes: the global sweep goes to the pool in interleaved parts. It could fit k = 1 … 25
    // (a full 10-d component needs 10 nodes, rounded sizes: k · 9.5 ≤ 240; larger k are skipped as impossible)
    // and stops early once BIC has clearly passed its minimum.
    const large = blobs(8, 30, 24, 0.35, 20251124).vectors;
    const largeTokens = new Array(large.length).fill(60);
    const expected = clusterNodes(large, largeTokens, { seed: 3 });
    for (const size of [2, 3]) {
      const { pool, log } = poolOf(size, 7 * size);
      const progress: ClusterProgress[] = [];
      const clusters = await clusterNodesAsync(large, largeTokens, {
        seed: 3,
        pool,
        onProgress: (p) => progress.push(p),
      });
      expect(clusters).toEqual(expected);
      // In rounds of one part per worker, each part's ks every size-th k, until the early stop (sweep-stop.ts):
      // the ks fitted are 1 … K, each exactly once, K short of the 25 possible.
      const fitted = log.sweeps.flatMap((t) => t.ks).sort((a, b) => a - b);
      expect(fitted).toEqual(Array.from({ length: fitted.length }, (_, i) => i + 1));
      expect(fitted.length).toBeLessThan(25);
      expect(log.sweeps.length).toBeGreaterThanOrEqual(size);
      for (const t of log.sweeps) t.ks.slice(1).forEach((k, i) => expect(k - t.ks[i]).toBe(size));
      expect(log.sweeps.every((t) => t.stop === undefined)).toBe(true);
      // The global mixture step's progress rises to 1 as the parts finish.
      const gmm = progress.filter((p) => p.step === 'global-gmm' && p.fraction !== undefined);
      expect(gmm.map((p) => p.fraction)).toEqual([...gmm.map((p) => p.fraction!)].sort((a, b) => a - b));
      expect(gmm[gmm.length - 1].fraction).toBe(1);
    }
  });

  it('splits the global k-NN scan of a layer of ≥ 500 nodes over the workers, with the same clusters', async () => {
    // 11 groups of 46 = 506 nodes: the global step's exact k-NN scan (⌊√505⌋ = 22 neighbours) goes to the
    // pool in one block of rows per worker; smaller layers (every test above, every local clustering) do not.
    const large = blobs(11, 46, 24, 0.35, 20261124).vectors;
    const largeTokens = new Array(large.length).fill(60);
    const expected = clusterNodes(large, largeTokens, { seed: 5 });
    const { pool, log } = poolOf(2, 11);
    const progress: ClusterProgress[] = [];
    const clusters = await clusterNodesAsync(large, largeTokens, {
      seed: 5,
      pool,
      onProgress: (p) => progress.push(p),
    });
    expect(clusters).toEqual(expected);
    expect(log.knn.map((t) => [t.start, t.end, t.n, t.k])).toEqual([
      [0, 253, 506, 22],
      [253, 506, 506, 22],
    ]);
    // The global UMAP's progress covers the scan (to 0.3, as its rows are done) and then the layout.
    const umap = progress.filter((p) => p.step === 'global-umap' && p.depth === 0).map((p) => p.fraction!);
    expect(umap).toEqual([...umap].sort((a, b) => a - b));
    expect(umap).toContain(0.3);
  });

  it('rejects with the error of a failing worker', async () => {
    const pool = createClusterPool(2, () => ({
      run: () => Promise.reject(new Error('worker crashed')),
      terminate() {},
    }));
    await expect(clusterNodesAsync(vectors, tokens, { seed: 5, pool })).rejects.toThrow('worker crashed');
  });

  it('stops with an AbortError when the signal fires while the pool works', async () => {
    const controller = new AbortController();
    const aborting = createClusterPool(2, () => {
      const inner = createClusterPool(1, () =>
        fakeWorker(seededRandom(1), { started: 0, running: 0, most: 0 }),
      );
      return {
        run: (task) => {
          controller.abort();
          return inner.run(task);
        },
        terminate() {},
      };
    });
    await expect(
      clusterNodesAsync(vectors, tokens, { seed: 5, pool: aborting, signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('cannot be used by the synchronous clusterNodes', () => {
    const { pool } = poolOf(1, 1);
    expect(() => clusterNodes(vectors, tokens, { seed: 5, pool })).toThrow(/runAsync/);
  });
});
