/**
 * selectClusterCount with the constrained covariance families (the local mixtures of the paper-shaped trees):
 * the non-degeneracy floor of each family, what each can and cannot split, and the ICL criterion.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitGmm } from '../../../src/core/cluster/gmm';
import { minimumComponentSize, selectClusterCount } from '../../../src/core/cluster/select-k';
import { gaussianBlobs } from '../../support/gaussian-blobs';

const SEED = 224;
const sets = (
  JSON.parse(readFileSync(new URL('../../fixtures/gmm-reference.json', import.meta.url), 'utf8')) as {
    sets: { name: string; trueK: number; points: number[][]; labels: number[] }[];
  }
).sets;

/** True when every found cluster lies inside one true cluster (found = truth, or a refinement of it). */
function refines(found: number[], truth: number[]): boolean {
  const owner = new Map<number, number>();
  return found.every((f, i) => (owner.get(f) ?? truth[i]) === truth[i] && owner.set(f, truth[i]));
}

describe('minimumComponentSize: the fewest points whose covariance comes from the points', () => {
  it('is d for full, 2 for diag and spherical, 1 for tied', () => {
    expect(minimumComponentSize('full', 10)).toBe(10);
    expect(minimumComponentSize('diag', 10)).toBe(2);
    expect(minimumComponentSize('spherical', 10)).toBe(2);
    expect(minimumComponentSize('tied', 10)).toBe(1);
  });

  it('is what selectClusterCount applies by default', () => {
    const { points } = gaussianBlobs(3, [12, 12]);
    for (const covariance of ['full', 'diag', 'spherical', 'tied'] as const) {
      expect(selectClusterCount(points, { covariance, seed: SEED }).minComponentSize).toBe(
        minimumComponentSize(covariance, 10),
      );
    }
  });
});

describe('spherical and diagonal mixtures on well-separated blobs (tests/fixtures/gmm-reference.json)', () => {
  for (const set of sets) {
    for (const covariance of ['spherical', 'diag'] as const) {
      it(`${set.name}, ${covariance}: never merges two blobs, never leaves a component below 3 points`, () => {
        const selection = selectClusterCount(set.points, { covariance, seed: SEED, minComponentSize: 3 });
        expect(selection.k).toBeGreaterThanOrEqual(set.trueK);
        expect(refines(selection.model.predict(set.points), set.labels)).toBe(true);
        for (const size of selection.model.componentSizes) expect(Math.round(size)).toBeGreaterThanOrEqual(3);
      });
    }
  }

  it('a spherical component holding two points is a real fit: its variance is not the regulariser', () => {
    const { points } = gaussianBlobs(8, [2, 2, 2, 2], { centerSpread: 50 });
    const model = fitGmm(points, 4, { seed: SEED, covariance: 'spherical', regCovarMode: 'relative' });
    for (const cov of model.covariances) expect(cov[0][0]).toBeGreaterThan(100 * model.regCovar);
  });
});

describe('selectClusterCount options of the local mixtures', () => {
  it('tied: admissible only while the pooled covariance has N − k > d points of support', () => {
    const { points } = gaussianBlobs(9, [4, 4, 4, 4]);
    const selection = selectClusterCount(points, { covariance: 'tied', seed: SEED });
    selection.admissible.forEach((ok, i) => {
      if (points.length - (i + 1) <= 10) expect(ok).toBe(false);
    });
    expect(selection.k).toBeLessThanOrEqual(points.length - 11);
  });

  it('reports the criterion of the chosen fit as its score', () => {
    const { points } = gaussianBlobs(10, [20, 20, 20]);
    const bic = selectClusterCount(points, { seed: SEED });
    expect(bic.score).toBe(bic.bic[bic.k - 1]);
    expect(selectClusterCount(points.slice(0, 1), { seed: SEED }).score).toBe(0);
  });

  it('ICL adds twice the memberships’ entropy to BIC: equal at k = 1, never lower', () => {
    const { points } = gaussianBlobs(12, [20, 20], { centerSpread: 2 });
    const bic = selectClusterCount(points, { seed: SEED, covariance: 'spherical' });
    const icl = selectClusterCount(points, { seed: SEED, covariance: 'spherical', criterion: 'icl' });
    expect(icl.bic[0]).toBeCloseTo(bic.bic[0], 9);
    icl.bic.forEach((value, i) => {
      if (Number.isFinite(value)) expect(value).toBeGreaterThanOrEqual(bic.bic[i] - 1e-9);
    });
    expect(icl.k).toBeLessThanOrEqual(bic.k);
  });
});
