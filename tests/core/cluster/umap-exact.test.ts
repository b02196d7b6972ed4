/**
 * `reduceDimensions` against umap-js itself: given the same k-NN graph (brute force, worked out here), the
 * same options and the same seeded generator, umap-js's own `initializeFit` / `step` loop gives the layout.
 * A dozen points in 4-d, quick enough for the mutation selection.
 */
import { describe, expect, it } from 'vitest';
import { UMAP } from 'umap-js';
import { cosine } from 'umap-js/dist/umap';
import { seededRandom } from '../../../src/core/random';
import { reduceDimensions, UMAP_MIN_DIST } from '../../../src/core/cluster/umap';
import { runSync } from '../../../src/core/yield';
import { blobs } from '../../support/fake-embedder';

/** Each row's k nearest rows by cosine distance 1 − u·v (itself first), by sorting all n distances. */
function bruteForceKnn(rows: number[][], k: number): { indices: number[][]; distances: number[][] } {
  const indices: number[][] = [];
  const distances: number[][] = [];
  rows.forEach((u, i) => {
    const d = rows.map((v, j) => ({
      j,
      d: j === i ? 0 : Math.max(0, 1 - (u[0] * v[0] + u[1] * v[1] + u[2] * v[2] + u[3] * v[3])),
    }));
    d.sort((a, b) => (a.j === i ? -1 : b.j === i ? 1 : a.d - b.d || a.j - b.j));
    indices.push(d.slice(0, k).map((e) => e.j));
    distances.push(d.slice(0, k).map((e) => e.d));
  });
  return { indices, distances };
}

describe('reduceDimensions against umap-js', () => {
  it('gives umap-js’s layout for the same exact k-NN graph, options and seed', () => {
    const { vectors } = blobs(2, 6, 4, 0.3, 5);
    const n = vectors.length;
    const unit = new Float32Array(n * 4);
    vectors.forEach((v, i) => {
      const inv = 1 / Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      v.forEach((x, t) => (unit[i * 4 + t] = x * inv));
    });
    const rows = Array.from({ length: n }, (_, i) => Array.from(unit.subarray(i * 4, (i + 1) * 4)));
    const options = { nComponents: 3, nNeighbors: 4, seed: 77 };

    const umap = new UMAP({
      nComponents: 3,
      nNeighbors: 4,
      minDist: UMAP_MIN_DIST,
      distanceFn: cosine,
      random: seededRandom(77),
    });
    const knn = bruteForceKnn(rows, 4);
    umap.setPrecomputedKNN(knn.indices, knn.distances);
    const epochs = umap.initializeFit(rows);
    for (let e = 0; e < epochs; e++) umap.step();
    const expected = umap.getEmbedding().flat();

    // JavaScript's layout in umap-js's schedule, umap-js's arithmetic (the kernel's is held to it in
    // umap-kernel.test.ts).
    const reduced = runSync(reduceDimensions(unit, n, 4, { ...options, engine: 'js', schedule: 'umap-js' }));
    expect(reduced).toHaveLength(n * 3);
    expect(Array.from(reduced)).toEqual(expected);
  });
});
