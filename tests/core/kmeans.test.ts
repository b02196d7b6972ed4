import { describe, expect, it } from 'vitest';
import { kmeans, kmeansPlusPlus, meanVariance } from '../../src/core/kmeans';
import { seededRandom } from '../../src/core/random';
import { gaussianBlobs, samePartition } from '../support/gaussian-blobs';

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
