/**
 * The stability figure's parts (bench/baselines/agreement.ts): the adjusted Rand index against values worked
 * out by hand and its invariances, primary parents among soft clusters, and seeded noise.
 */
import { describe, expect, it } from 'vitest';
import { adjustedRandIndex, perturbed, primaryParents } from '../../bench/baselines/agreement';

describe('adjustedRandIndex', () => {
  it('is 1 for the same partition under other label names, and symmetric', () => {
    expect(adjustedRandIndex([0, 0, 1, 1, 2], [5, 5, 3, 3, 9])).toBe(1);
    const a = [0, 0, 0, 1, 1, 1, 2, 2];
    const b = [0, 0, 1, 1, 2, 2, 2, 0];
    expect(adjustedRandIndex(a, b)).toBeCloseTo(adjustedRandIndex(b, a), 15);
  });

  it('gives the hand-worked value: [0,0,0,1,1,1] vs [0,0,1,1,2,2] is 0.24242…', () => {
    // Joint counts 2,1,1,2 → Σ C(·,2) = 2; rows 3,3 → 6; columns 2,2,2 → 3; expected 6·3/15 = 1.2;
    // max (6 + 3)/2 = 4.5; ARI = (2 − 1.2)/(4.5 − 1.2) = 0.8/3.3.
    expect(adjustedRandIndex([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2])).toBeCloseTo(0.8 / 3.3, 15);
  });

  it('is about 0 for independent labelings and negative for opposed ones', () => {
    const n = 4000;
    const a = Array.from({ length: n }, (_, i) => i % 7);
    const b = Array.from({ length: n }, (_, i) => Math.floor(i / 7) % 5);
    expect(Math.abs(adjustedRandIndex(a, b))).toBeLessThan(0.01);
    expect(adjustedRandIndex([0, 0, 1, 1], [0, 1, 0, 1])).toBeLessThan(0);
  });

  it('counts one group against one group, and singletons against singletons, as agreement', () => {
    expect(adjustedRandIndex([1, 1, 1], [4, 4, 4])).toBe(1);
    expect(adjustedRandIndex([0, 1, 2], [2, 0, 1])).toBe(1);
    expect(() => adjustedRandIndex([0, 1], [0])).toThrow(RangeError);
  });
});

describe('primaryParents', () => {
  it('picks, of the clusters holding a node, the one whose centroid is nearest by cosine', () => {
    const vectors = [
      [1, 0],
      [0.9, 0.1],
      [0.1, 0.9],
      [0, 1],
      [0.6, 0.5],
    ];
    // Node 4 sits in both clusters; it points more towards the first cluster's centroid.
    const parents = primaryParents(
      [
        [0, 1, 4],
        [2, 3, 4],
      ],
      vectors,
    );
    expect(Array.from(parents)).toEqual([0, 0, 1, 1, 0]);
    // A node in no cluster has none.
    expect(Array.from(primaryParents([[0, 1]], vectors.slice(0, 3)))).toEqual([0, 0, -1]);
  });
});

describe('perturbed', () => {
  it('adds seeded uniform noise within ±amplitude to every coordinate, the same for the same seed', () => {
    const vectors = [Float32Array.of(0.5, -0.25, 1), Float32Array.of(0, 2, -3)];
    const a = perturbed(vectors, 1e-3, 7);
    expect(a.map((v) => Array.from(v))).toEqual(perturbed(vectors, 1e-3, 7).map((v) => Array.from(v)));
    expect(a.map((v) => Array.from(v))).not.toEqual(perturbed(vectors, 1e-3, 8).map((v) => Array.from(v)));
    a.forEach((v, i) =>
      v.forEach((x, t) => {
        expect(Math.abs(x - vectors[i][t])).toBeLessThanOrEqual(1e-3 + 1e-7);
        expect(x).not.toBe(vectors[i][t]);
      }),
    );
  });
});
