/**
 * Duplicate points (same-points.ts): unit vectors within SAME_POINT_DISTANCE by cosine distance form one set,
 * found without comparing every pair; the clustering lays each set out once.
 */
import { describe, expect, it } from 'vitest';
import { clusterNodes } from '../../../src/core/cluster/cluster';
import { seededRandom } from '../../../src/core/random';
import { distinctPoints } from '../../../src/core/cluster/same-points';
import { SAME_POINT_DISTANCE } from '../../../src/core/cluster/umap-layout';
import { blobs } from '../../support/fake-embedder';

function unitRows(vectors: ArrayLike<number>[]): Float32Array {
  const dim = vectors[0].length;
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * v[t];
    for (let t = 0; t < dim; t++) out[i * dim + t] = v[t] / Math.sqrt(s);
  });
  return out;
}

/** Sets of equal points by brute force: i and j linked when 1 − u·v ≤ SAME_POINT_DISTANCE, closed transitively. */
function bruteForce(unit: Float32Array, n: number, dim: number): number[] {
  const rep = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (rep[i] === i ? i : (rep[i] = find(rep[i])));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let dot = 0;
      for (let t = 0; t < dim; t++) dot += unit[i * dim + t] * unit[j * dim + t];
      if (1 - dot <= SAME_POINT_DISTANCE) {
        const [a, b] = [find(i), find(j)];
        rep[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  return Array.from({ length: n }, (_, i) => find(i));
}

describe('distinctPoints', () => {
  it('finds none among distinct vectors', () => {
    const { vectors } = blobs(3, 20, 16, 0.05, 4);
    expect(distinctPoints(unitRows(vectors), 60, 16)).toBeUndefined();
  });

  it('puts exact and last-bit copies with their first point, and nothing else', () => {
    const { vectors } = blobs(3, 20, 16, 0.05, 4);
    const random = seededRandom(2);
    // Copies of points 3 and 17 (exact), of 5 moved by ±1e-7, and a point 1e-3 away from 8 (distinct).
    const copies = [
      vectors[3],
      Float32Array.from(vectors[5], (x) => x + 1e-7 * (2 * random() - 1)),
      vectors[17],
      vectors[3],
      Float32Array.from(vectors[8], (x, t) => x + (t === 0 ? 1e-2 : 0)),
    ];
    const all = [...vectors, ...copies];
    const unit = unitRows(all);
    const found = distinctPoints(unit, all.length, 16)!;
    expect(found.reps).toHaveLength(61);
    const firstOf = (i: number) => found.reps[found.repOf[i]];
    expect([60, 61, 62, 63, 64].map(firstOf)).toEqual([3, 5, 17, 3, 64]);
    // The same sets as comparing every pair.
    expect(Array.from({ length: all.length }, (_, i) => firstOf(i))).toEqual(
      bruteForce(unit, all.length, 16),
    );
    // Representatives ascend, and each is its own.
    expect(Array.from(found.reps)).toEqual([...found.reps].sort((a, b) => a - b));
    found.reps.forEach((r, p) => expect(found.repOf[r]).toBe(p));
  });

  it('links chains: a ≈ b and b ≈ c put a, b and c in one set', () => {
    const a = Float32Array.of(1, 0, 0);
    const b = Float32Array.of(1, 1e-3, 0);
    const c = Float32Array.of(1, 2e-3, 0);
    // 1 − cos ≈ 5e-7 between neighbours, 2e-6 between a and c.
    const found = distinctPoints(unitRows([a, c, b]), 3, 3)!;
    expect(Array.from(found.reps)).toEqual([0]);
  });
});

describe('clusterNodes with duplicates', () => {
  it('gives every copy its first point’s clusters, and the copies do not change the others’ clusters', () => {
    const { vectors } = blobs(4, 12, 16, 0.3, 9);
    const tokens = new Array(48).fill(20);
    const plain = clusterNodes(vectors, tokens, { seed: 5 });
    const withCopies = clusterNodes([...vectors, vectors[7], vectors[30]], [...tokens, 20, 20], { seed: 5 });
    const clustersOf = (clusters: number[][], i: number) =>
      clusters.filter((c) => c.includes(i)).map((c) => c.filter((m) => m < 48).join(','));
    expect(clustersOf(withCopies, 48)).toEqual(clustersOf(withCopies, 7));
    expect(clustersOf(withCopies, 49)).toEqual(clustersOf(withCopies, 30));
    // The copies are laid out as their first point, so the other nodes' clusters are those without them.
    expect(withCopies.map((c) => c.filter((m) => m < 48).join(',')).sort()).toEqual(
      plain.map((c) => c.join(',')).sort(),
    );
  });
});
