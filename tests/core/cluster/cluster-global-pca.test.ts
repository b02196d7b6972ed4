/**
 * The global step of `clusterNodes` lays out a layer's leading principal components (pca.ts), not its vectors:
 * the k-NN scan it hands to a FAKE pool is of the centred rows projected on their GLOBAL_COMPONENTS leading
 * directions, while a small layer keeps its own vectors. The pool's scan throws once it has seen its task, so
 * the test does not wait for the layout.
 */
import { describe, expect, it } from 'vitest';
import {
  clusterNodesAsync,
  GLOBAL_COMPONENTS,
  POOLED_KNN_MIN_POINTS,
  runLocalClusterTask,
  type ClusterPool,
} from '../../../src/core/cluster/cluster';
import type { KnnRowsTask } from '../../../src/core/cluster/knn';
import { principalProjection } from '../../../src/core/cluster/pca';
import { seededRandom } from '../../../src/core/random';

/** Stops the clustering at the global k-NN scan, recording its task. */
class SeenScan extends Error {}

function scanRecordingPool(): ClusterPool & { scans: KnnRowsTask[] } {
  const scans: KnnRowsTask[] = [];
  return {
    size: 2,
    scans,
    async run(task) {
      return runLocalClusterTask(task);
    },
    async knn(task) {
      scans.push(task);
      throw new SeenScan();
    },
  };
}

/** Random rows, and the unit vectors clusterNodes makes of them (float64 norm, float32 rows). */
function rows(n: number, dim: number, seed: number): { vectors: Float32Array[]; unit: Float32Array } {
  const random = seededRandom(seed);
  const vectors = Array.from({ length: n }, () => Float32Array.from({ length: dim }, () => random() - 0.5));
  const unit = new Float32Array(n * dim);
  vectors.forEach((v, i) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * v[t];
    const inv = 1 / Math.sqrt(s);
    for (let t = 0; t < dim; t++) unit[i * dim + t] = v[t] * inv;
  });
  return { vectors, unit };
}

describe('the global step on principal components', () => {
  it('scans the k-NN graph of the projected rows', async () => {
    const n = POOLED_KNN_MIN_POINTS + 20;
    const dim = 96;
    const { vectors, unit } = rows(n, dim, 44);
    const pool = scanRecordingPool();
    await expect(clusterNodesAsync(vectors, new Array(n).fill(10), { seed: 3, pool })).rejects.toThrow(
      SeenScan,
    );
    expect(pool.scans.length).toBeGreaterThan(0);
    const scan = pool.scans[0];
    expect(scan.dim).toBe(GLOBAL_COMPONENTS);
    expect(scan.n).toBe(n);
    expect(scan.unit).toEqual(principalProjection(unit, n, dim, GLOBAL_COMPONENTS));
  });

  it('keeps the vectors of a layer whose dimension is not above the components kept', async () => {
    const n = POOLED_KNN_MIN_POINTS + 20;
    const { vectors, unit } = rows(n, GLOBAL_COMPONENTS, 45);
    const pool = scanRecordingPool();
    await expect(clusterNodesAsync(vectors, new Array(n).fill(10), { seed: 3, pool })).rejects.toThrow(
      SeenScan,
    );
    expect(pool.scans[0].dim).toBe(GLOBAL_COMPONENTS);
    expect(pool.scans[0].unit).toEqual(unit);
  });
});
