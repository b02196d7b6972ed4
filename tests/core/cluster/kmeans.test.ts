import { describe, expect, it } from 'vitest';
import { kmeans, kmeansPlusPlus, meanVariance } from '../../../src/core/cluster/kmeans';
import { seededRandom } from '../../../src/core/random';
import { gaussianBlobs, samePartition } from '../../support/gaussian-blobs';

function flat(points: number[][]): Float64Array {
  return Float64Array.from(points.flat());
}

describe('kmeans (the mixture start)', () => {
  const dim = 5;
  const { points, labels } = gaussianBlobs(8, [25, 15, 30, 20], { dim });
  const data = flat(points);
  const n = points.length;

  it('seeds one centre in each of four far-apart clusters', () => {
    const centers = kmeansPlusPlus(data, n, dim, 4, seededRandom(1));
    const owners = new Set<number>();
    for (let j = 0; j < 4; j++) {
      const i = points.findIndex((p) => p.every((v, c) => v === centers[j * dim + c]));
      expect(i).toBeGreaterThanOrEqual(0);
      owners.add(labels[i]);
    }
    expect(owners.size).toBe(4);
  });

  it('converges to the clusters, each centre the mean of its points', () => {
    const result = kmeans(data, n, dim, 4, seededRandom(2));
    expect(samePartition(result.labels, labels)).toBe(true);
    for (let j = 0; j < 4; j++) {
      const members = points.filter((_, i) => result.labels[i] === j);
      for (let c = 0; c < dim; c++) {
        const mean = members.reduce((s, p) => s + p[c], 0) / members.length;
        expect(result.centers[j * dim + c]).toBeCloseTo(mean, 10);
      }
    }
  });

  it('gives every point its own cluster when k = N', () => {
    const few = flat(points.slice(0, 9));
    const result = kmeans(few, 9, dim, 9, seededRandom(3));
    expect(new Set(result.labels).size).toBe(9);
  });

  it('handles identical points without NaN', () => {
    const same = flat(Array.from({ length: 6 }, () => [2, 2, 2, 2, 2]));
    const result = kmeans(same, 6, dim, 3, seededRandom(4));
    expect(Array.from(result.centers).every(Number.isFinite)).toBe(true);
    expect(meanVariance(same, 6, dim)).toBe(0);
  });

  it('is deterministic for a seed', () => {
    const a = kmeans(data, n, dim, 6, seededRandom(5));
    const b = kmeans(data, n, dim, 6, seededRandom(5));
    expect(Array.from(b.centers)).toEqual(Array.from(a.centers));
    expect(Array.from(b.labels)).toEqual(Array.from(a.labels));
  });
});

/** A FAKE random source that replays the given numbers. */
function scripted(values: number[]) {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error('the script ran out');
    return values[i++];
  };
}

/** Index of the nearest centre (ties to the lower index), computed directly. */
function nearest(point: ArrayLike<number>, centers: Float64Array, k: number, dim: number): number {
  let best = 0;
  let bestDist = Infinity;
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let c = 0; c < dim; c++) s += (point[c] - centers[j * dim + c]) ** 2;
    if (s < bestDist) {
      bestDist = s;
      best = j;
    }
  }
  return best;
}

describe('kmeans (hand-worked cases and Lloyd’s fixed point)', () => {
  it('meanVariance is the mean over dimensions of the population variance', () => {
    // Dimension 0: 0, 2 (variance 1); dimension 1: 0, 4 (variance 4).
    expect(meanVariance(Float64Array.of(0, 0, 2, 4), 2, 2)).toBe(2.5);
    expect(meanVariance(Float64Array.of(1, 2, 3), 3, 1)).toBeCloseTo(2 / 3, 15);
  });

  it('k-means++ keeps, of its candidates, the one that lowers the potential most', () => {
    // Points 0, 1, 10 on a line. First centre: point 0 (draw 0). Potential 0 + 1 + 100 = 101; two candidates
    // (2 + ⌊ln 2⌋ trials): draw 0.005 × 101 lands on point 1, draw 0.5 × 101 on point 10. Point 10 leaves a
    // potential of 1 (point 1 to centre 0), point 1 one of 81: point 10 wins.
    const centers = kmeansPlusPlus(Float64Array.of(0, 1, 10), 3, 1, 2, scripted([0, 0.005, 0.5]));
    expect(Array.from(centers)).toEqual([0, 10]);
    // The same draws in the other order: still point 10.
    expect(Array.from(kmeansPlusPlus(Float64Array.of(0, 1, 10), 3, 1, 2, scripted([0, 0.5, 0.005])))).toEqual(
      [0, 10],
    );
  });

  it('k = 1 gives the mean; every run ends with each point at its nearest centre and each centre the mean', () => {
    const dim = 3;
    // 23 points: not a multiple of four, so the last points take the one-at-a-time path of the assignment.
    const { points } = gaussianBlobs(12, [8, 7, 8], { dim, centerSpread: 1.5 });
    const data = flat(points);
    const one = kmeans(data, points.length, dim, 1, seededRandom(1));
    for (let c = 0; c < dim; c++) {
      expect(one.centers[c]).toBeCloseTo(points.reduce((s, p) => s + p[c], 0) / points.length, 12);
    }
    for (const options of [{}, { tol: 1e9 }, { maxIter: 1 }]) {
      for (const seed of [1, 2, 3]) {
        const result = kmeans(data, points.length, dim, 3, seededRandom(seed), options);
        points.forEach((p, i) => expect(result.labels[i]).toBe(nearest(p, result.centers, 3, dim)));
      }
    }
    const converged = kmeans(data, points.length, dim, 3, seededRandom(4));
    for (let j = 0; j < 3; j++) {
      const members = points.filter((_, i) => converged.labels[i] === j);
      expect(members.length).toBeGreaterThan(0);
      for (let c = 0; c < dim; c++) {
        expect(converged.centers[j * dim + c]).toBeCloseTo(
          members.reduce((s, p) => s + p[c], 0) / members.length,
          10,
        );
      }
    }
  });

  it('honours maxIter and stops on the tolerance', () => {
    const dim = 2;
    const { points } = gaussianBlobs(13, [20, 20, 20], { dim, centerSpread: 1 });
    const data = flat(points);
    expect(kmeans(data, 60, dim, 3, seededRandom(5), { maxIter: 1 }).iterations).toBe(1);
    expect(kmeans(data, 60, dim, 3, seededRandom(5), { tol: 1e9 }).iterations).toBe(1);
    const full = kmeans(data, 60, dim, 3, seededRandom(5), { tol: 0 });
    expect(full.iterations).toBeGreaterThan(1);
    expect(full.iterations).toBeLessThanOrEqual(300);
  });

  it('breaks a tie between two equally near centres towards the lower index', () => {
    // k = 2 on points −1, 0 and 1 with centres seeded at −1 and 1 (draws pick points 0 and 2): the point at 0
    // is equally near both and goes to centre 0.
    const result = kmeans(Float64Array.of(-1, 0, 1), 3, 1, 2, scripted([0, 0.9, 0.9]), { maxIter: 1 });
    expect(Array.from(result.labels)).toEqual([0, 0, 1]);
  });

  it('gives an emptied cluster the point farthest from its centre', () => {
    // Duplicate points: k-means++ cannot find four distinct centres among three distinct values, so a cluster
    // starts empty and takes the farthest point; no centre is NaN and every label is in range.
    const data = Float64Array.of(0, 0, 0, 5, 5, 9);
    const result = kmeans(data, 6, 1, 4, seededRandom(6));
    expect(Array.from(result.centers).every(Number.isFinite)).toBe(true);
    expect(Array.from(result.labels).every((l) => l >= 0 && l < 4)).toBe(true);
    expect(new Set(Array.from(result.labels).map((l) => result.centers[l]))).toEqual(new Set([0, 5, 9]));
  });
});
