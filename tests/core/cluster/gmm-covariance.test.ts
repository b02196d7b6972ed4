/**
 * Constrained covariance families ('diag', 'spherical', 'tied') against scikit-learn's GaussianMixture on the
 * same points (tests/fixtures/gmm-covariance-reference.json, written by
 * scripts/reference/gmm_covariance_reference.py from the sets of gmm-reference.json), and the shapes each family
 * promises.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitGmm, gmmParameterCount, type CovarianceType } from '../../../src/core/cluster/gmm';
import { selectClusterCount } from '../../../src/core/cluster/select-k';
import { gaussianBlobs, samePartition } from '../../support/gaussian-blobs';

interface ReferenceFit {
  covariance: Exclude<CovarianceType, 'full'>;
  k: number;
  logLikelihood: number;
  bic: number;
  parameters: number;
  labels: number[];
}
const points = new Map(
  (
    JSON.parse(readFileSync(new URL('../../fixtures/gmm-reference.json', import.meta.url), 'utf8')) as {
      sets: { name: string; points: number[][] }[];
    }
  ).sets.map((s) => [s.name, s.points]),
);
const reference = JSON.parse(
  readFileSync(new URL('../../fixtures/gmm-covariance-reference.json', import.meta.url), 'utf8'),
) as { sets: { name: string; trueK: number; fits: ReferenceFit[] }[] };
const SEED = 224;
/** Our EM may end a little higher than scikit-learn's (other k-means++ draws), never meaningfully lower. */
const LIKELIHOOD_SLACK = 1e-6;

describe('covariance families match scikit-learn (tests/fixtures/gmm-covariance-reference.json)', () => {
  for (const set of reference.sets) {
    const data = points.get(set.name)!;
    for (const ref of set.fits) {
      it(`${set.name}, ${ref.covariance}, k = ${ref.k}`, () => {
        const model = fitGmm(data, ref.k, { seed: SEED, covariance: ref.covariance });
        expect(gmmParameterCount(ref.k, data[0].length, ref.covariance)).toBe(ref.parameters);
        expect(model.covariance).toBe(ref.covariance);
        expect(model.logLikelihood).toBeGreaterThanOrEqual(
          ref.logLikelihood - LIKELIHOOD_SLACK * Math.abs(ref.logLikelihood),
        );
        expect(model.bic).toBeCloseTo(-2 * model.logLikelihood + ref.parameters * Math.log(data.length), 6);
        if (ref.k === set.trueK) {
          expect(samePartition(model.predict(data), ref.labels)).toBe(true);
          expect(model.logLikelihood).toBeCloseTo(ref.logLikelihood, 3);
        }
      });
    }
  }
});

describe('covariance families keep their shape', () => {
  const { points: data } = gaussianBlobs(5, [30, 25, 20]);
  const dim = data[0].length;

  it('diag: no covariance between coordinates', () => {
    const model = fitGmm(data, 3, { seed: SEED, covariance: 'diag' });
    for (const cov of model.covariances) {
      for (let a = 0; a < dim; a++) for (let b = 0; b < dim; b++) if (a !== b) expect(cov[a][b]).toBe(0);
      // Different coordinates have different variances (the blobs are anisotropic).
      expect(new Set(cov.map((row, a) => row[a])).size).toBeGreaterThan(1);
    }
  });

  it('spherical: one variance per component, different between components', () => {
    const { points: spread } = gaussianBlobs(6, [30, 30], { spreads: [0.5, 2] });
    const model = fitGmm(spread, 2, { seed: SEED, covariance: 'spherical' });
    const variances = model.covariances.map((cov) => {
      for (let a = 0; a < dim; a++) {
        for (let b = 0; b < dim; b++) expect(cov[a][b]).toBe(a === b ? cov[0][0] : 0);
      }
      return cov[0][0];
    });
    expect(Math.max(...variances) / Math.min(...variances)).toBeGreaterThan(4);
  });

  it('tied: one full matrix shared by all components', () => {
    const model = fitGmm(data, 3, { seed: SEED, covariance: 'tied' });
    for (const cov of model.covariances.slice(1)) expect(cov).toEqual(model.covariances[0]);
    expect(model.covariances[0][0][1]).not.toBe(0);
  });

  it('a constrained family never fits better than the full one, and costs fewer parameters', () => {
    const full = fitGmm(data, 3, { seed: SEED });
    for (const covariance of ['diag', 'spherical', 'tied'] as const) {
      const constrained = fitGmm(data, 3, { seed: SEED, covariance });
      expect(constrained.logLikelihood).toBeLessThanOrEqual(full.logLikelihood + 1e-9);
      expect(gmmParameterCount(3, dim, covariance)).toBeLessThan(gmmParameterCount(3, dim, 'full'));
    }
  });
});

describe('covariance option errors', () => {
  it('rejects an unknown covariance type with INVALID_OPTION naming it', () => {
    const { points: data } = gaussianBlobs(7, [10, 10]);
    const bogus = 'round' as CovarianceType;
    expect(() => fitGmm(data, 2, { covariance: bogus })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('"round"') }),
    );
    expect(() => selectClusterCount(data, { covariance: bogus })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
  });
});
