import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitGmm } from '../../../src/core/cluster/gmm';
import { selectClusterCount } from '../../../src/core/cluster/select-k';
import { gaussianBlobs, permutation, samePartition } from '../../support/gaussian-blobs';

interface ReferenceSet {
  name: string;
  trueK: number;
  points: number[][];
  labels: number[];
  sweep: { k: number; bic: number[]; smallestComponentAtK: number };
}
const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/gmm-reference.json', import.meta.url), 'utf8'),
) as {
  sets: ReferenceSet[];
};
const SEED = 224;

describe('selectClusterCount against the reference sweep (tests/fixtures/gmm-reference.json)', () => {
  for (const set of fixture.sets) {
    it(`${set.name}: recovers k = ${set.trueK} where scikit-learn's sweep picks ${set.sweep.k}`, () => {
      const dim = set.points[0].length;
      // The reference's choice is degenerate: its smallest component holds fewer points than dimensions.
      expect(set.sweep.k).toBeGreaterThan(set.trueK);
      expect(set.sweep.smallestComponentAtK).toBeLessThan(dim);
      const selection = selectClusterCount(set.points, { seed: SEED });
      expect(selection.k).toBe(set.trueK);
      expect(selection.admissible[set.sweep.k - 1]).toBe(false);
      expect(samePartition(selection.model.predict(set.points), set.labels)).toBe(true);
      expect(selection.bic).toHaveLength(set.sweep.bic.length);
    });
  }
});

describe('selectClusterCount recovers well-separated clusters in 10-d', () => {
  const cases: [string, number[]][] = [
    ['3 × 20', [20, 20, 20]],
    ['2 × 25', [25, 25]],
    ['4 × 15', [15, 15, 15, 15]],
    ['5 × 10', [10, 10, 10, 10, 10]],
  ];
  for (const [name, sizes] of cases) {
    for (const seed of [1, 2]) {
      it(`${name} points, data seed ${seed}`, () => {
        const { points, labels } = gaussianBlobs(seed, sizes);
        const selection = selectClusterCount(points, { seed: SEED });
        expect(selection.k).toBe(sizes.length);
        expect(samePartition(selection.model.predict(points), labels)).toBe(true);
      });
    }
  }

  it('~1,000 points in 8 clusters of varied size and spread', () => {
    const sizes = [90, 110, 130, 150, 100, 140, 120, 160];
    const spreads = [0.5, 1, 1.5, 2, 2.5, 0.8, 1.2, 1.8];
    const { points, labels } = gaussianBlobs(3, sizes, { centerSpread: 10, spreads });
    const selection = selectClusterCount(points, { seed: SEED });
    expect(selection.k).toBe(8);
    expect(samePartition(selection.model.predict(points), labels)).toBe(true);
  });

  it('one Gaussian stays one cluster', () => {
    const { points } = gaussianBlobs(4, [60]);
    expect(selectClusterCount(points, { seed: SEED }).k).toBe(1);
  });

  it('needs the size rule: without it BIC over-splits 5 × 10, with d + 1 it cannot split it', () => {
    const { points } = fixture.sets.find((s) => s.name === 'five-by-10')!;
    expect(selectClusterCount(points, { seed: SEED, minComponentSize: 0 }).k).toBeGreaterThan(5);
    expect(selectClusterCount(points, { seed: SEED, minComponentSize: 11 }).k).toBeLessThan(5);
  });
});

describe('selectClusterCount contract', () => {
  const { points } = gaussianBlobs(6, [15, 15, 15, 15]);

  it('returns the BIC of k = i + 1 at index i for k = 1 … min(maxClusters, N) − 1', () => {
    const selection = selectClusterCount(points, { seed: SEED });
    expect(selection.bic).toHaveLength(49);
    expect(selection.admissible[0]).toBe(true);
    for (const k of [1, 3, 6]) {
      const model = fitGmm(points, k, { seed: SEED, regCovarMode: 'relative' });
      expect(selection.bic[k - 1]).toBe(model.bic);
    }
    expect(selectClusterCount(points, { seed: SEED, maxClusters: 5 }).bic).toHaveLength(4);
    expect(selectClusterCount(points.slice(0, 20), { seed: SEED }).bic).toHaveLength(19);
  });

  it('returns k = 1 for N ≤ 2 and identical points', () => {
    const one = selectClusterCount([[1, 2, 3]]);
    expect(one.k).toBe(1);
    expect(one.bic).toEqual([]);
    const two = selectClusterCount([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(two.k).toBe(1);
    expect(two.bic).toHaveLength(1);
    const same = selectClusterCount(Array.from({ length: 20 }, () => [0.5, 0.5]));
    expect(same.k).toBe(1);
    expect(same.model.means[0]).toEqual([0.5, 0.5]);
  });

  it('does not depend on the order of the points', () => {
    const order = permutation(points.length, 17);
    const shuffled = order.map((i) => points[i]);
    const a = selectClusterCount(points, { seed: SEED });
    const b = selectClusterCount(shuffled, { seed: SEED });
    expect(b.k).toBe(a.k);
    expect(samePartition(b.model.predict(points), a.model.predict(points))).toBe(true);
  });

  it('does not depend on the units: scaling and translating shift every BIC by 2·N·d·ln c', () => {
    const a = selectClusterCount(points, { seed: SEED });
    for (const scale of [1e-3, 250]) {
      const moved = points.map((p) => p.map((v, c) => scale * v + 7 * c - 3));
      const b = selectClusterCount(moved, { seed: SEED });
      expect(b.k).toBe(a.k);
      expect(samePartition(b.model.predict(moved), a.model.predict(points))).toBe(true);
      const shift = 2 * points.length * points[0].length * Math.log(scale);
      a.bic.forEach((value, i) => expect(b.bic[i]).toBeCloseTo(value + shift, 4));
    }
  });

  it('is bit-identical for the same seed', () => {
    const a = selectClusterCount(points, { seed: 5 });
    const b = selectClusterCount(points, { seed: 5 });
    expect(b.k).toBe(a.k);
    a.bic.forEach((value, i) => expect(Object.is(b.bic[i], value)).toBe(true));
  });

  it('rejects a maxClusters that is not a positive integer and a negative regCovar', () => {
    for (const options of [
      { maxClusters: 0 },
      { maxClusters: 2.5 },
      { maxClusters: NaN },
      { regCovar: -1 },
    ]) {
      expect(() => selectClusterCount(points, options)).toThrow(
        expect.objectContaining({ code: 'INVALID_OPTION' }),
      );
    }
  });

  it('reports progress after every k and stops when aborted', () => {
    const calls: [number, number][] = [];
    selectClusterCount(points.slice(0, 12), { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls).toEqual(Array.from({ length: 11 }, (_, i) => [i + 1, 11]));
    expect(() => selectClusterCount(points, { signal: { aborted: true } })).toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
  });
});

describe('selectClusterCount with skipImpossible', () => {
  it('chooses the same k while fitting only the k the component-size rule allows', () => {
    for (const [seed, sizes] of [
      [11, [20, 20, 20]],
      [12, [12, 12, 12, 12]],
      [13, [40]],
      [14, [15, 25]],
    ] as const) {
      const { points } = gaussianBlobs(seed, [...sizes]);
      const full = selectClusterCount(points, { seed: 5 });
      const fast = selectClusterCount(points, { seed: 5, skipImpossible: true });
      expect(fast.k).toBe(full.k);
      expect(fast.bic.length).toBe(full.bic.length);
      const n = points.length;
      const bound = Math.floor(n / (full.minComponentSize - 0.5));
      fast.bic.forEach((value, i) => {
        const k = i + 1;
        if (k > bound) {
          expect(value).toBeNaN();
          expect(fast.admissible[i]).toBe(false);
          expect(full.admissible[i]).toBe(false); // the skipped fits could never have been chosen
        } else {
          expect(value).toBe(full.bic[i]);
        }
      });
    }
  });
});
