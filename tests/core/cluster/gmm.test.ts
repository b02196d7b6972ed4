import { readFileSync } from 'node:fs';
import { determinant, inverse, Matrix } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../../src/core/errors';
import {
  fitGmm,
  GmmError,
  gmmParameterCount,
  type GaussianMixtureModel,
} from '../../../src/core/cluster/gmm';
import { gaussianBlobs, samePartition } from '../../support/gaussian-blobs';

interface ReferenceFit {
  k: number;
  logLikelihood: number;
  bic: number;
  parameterCount: number;
  weights: number[];
  labels: number[];
  iterations: number;
}
interface ReferenceSet {
  name: string;
  trueK: number;
  points: number[][];
  fits: ReferenceFit[];
}
const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/gmm-reference.json', import.meta.url), 'utf8'),
) as {
  sets: ReferenceSet[];
};

/** scikit-learn's tolerance for the comparison: at least its likelihood, to a relative 1e-6. */
const RELATIVE_SLACK = 1e-6;
const SEED = 224;

function allNumbers(model: GaussianMixtureModel, points: number[][]): number[] {
  return [
    model.logLikelihood,
    model.bic,
    ...model.weights,
    ...model.means.flat(),
    ...model.covariances.flat(2),
    ...model.predictProba(points).flat(),
  ];
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('fitGmm matches scikit-learn GaussianMixture (tests/fixtures/gmm-reference.json)', () => {
  for (const set of fixture.sets) {
    for (const ref of set.fits) {
      it(`${set.name}, k = ${ref.k}: at least scikit-learn's log-likelihood, same partition and weights`, () => {
        const model = fitGmm(set.points, ref.k, { seed: SEED });
        expect(model.logLikelihood).toBeGreaterThanOrEqual(
          ref.logLikelihood - RELATIVE_SLACK * Math.abs(ref.logLikelihood),
        );
        expect(samePartition(model.predict(set.points), ref.labels)).toBe(true);
        const ours = [...model.weights].sort((a, b) => a - b);
        const theirs = [...ref.weights].sort((a, b) => a - b);
        ours.forEach((w, j) => expect(w).toBeCloseTo(theirs[j], 8));
        expect(model.converged).toBe(true);
      });
    }
    it(`${set.name}: BIC counts parameters as scikit-learn does`, () => {
      const { k, parameterCount } = set.fits[set.fits.length - 1];
      const model = fitGmm(set.points, k, { seed: SEED });
      expect(gmmParameterCount(k, set.points[0].length)).toBe(parameterCount);
      expect(model.bic).toBeCloseTo(
        -2 * model.logLikelihood + parameterCount * Math.log(set.points.length),
        9,
      );
    });
  }
});

describe('fitGmm runs EM as scikit-learn does', () => {
  for (const set of fixture.sets) {
    for (const ref of set.fits) {
      it(`${set.name}, k = ${ref.k}: scikit-learn's log-likelihood and number of EM iterations`, () => {
        // Well-separated sets: both start in the same basin, so the optimum and the iteration count agree.
        const model = fitGmm(set.points, ref.k, { seed: SEED });
        expect(model.logLikelihood).toBeCloseTo(ref.logLikelihood, 6);
        expect(model.iterations).toBe(ref.iterations);
      });
    }
  }

  // Three overlapping 2-d clusters: EM needs many iterations, so its rules show.
  const { points: overlapping } = gaussianBlobs(5, [15, 15, 15], { dim: 2, centerSpread: 2 });
  const n = overlapping.length;
  /** Log-likelihood after exactly t EM iterations (same seed, same start). */
  const after = (t: number) => fitGmm(overlapping, 3, { seed: 7, maxIter: t, tol: 0 }).logLikelihood;

  it('never lowers the log-likelihood from one iteration to the next (the EM guarantee)', () => {
    const full = fitGmm(overlapping, 3, { seed: 7 });
    expect(full.iterations).toBeGreaterThan(5);
    let previous = -Infinity;
    for (let t = 1; t <= full.iterations + 2; t++) {
      const value = after(t);
      expect(value).toBeGreaterThanOrEqual(previous - 1e-9 * Math.abs(value));
      previous = value;
    }
  });

  it('stops at the first iteration whose mean per-point log-likelihood moved less than tol', () => {
    for (const tol of [1e-2, 1e-3, 1e-5]) {
      const model = fitGmm(overlapping, 3, { seed: 7, tol });
      const T = model.iterations;
      expect(model.converged).toBe(true);
      expect(T).toBeGreaterThanOrEqual(3);
      // scikit-learn compares, at iteration t, the likelihood of the parameters of t − 1 and of t − 2.
      const L = Array.from({ length: T + 1 }, (_, t) => (t === 0 ? NaN : after(t)));
      for (let t = 3; t < T; t++) expect(Math.abs(L[t - 1] - L[t - 2]) / n).toBeGreaterThanOrEqual(tol);
      expect(Math.abs(L[T - 1] - L[T - 2]) / n).toBeLessThan(tol);
      expect(model.logLikelihood).toBe(L[T]);
    }
  });

  it('converges to a fixed point of EM: the parameters recomputed from its own posteriors are its own', () => {
    const regCovar = 1e-4;
    const model = fitGmm(overlapping, 3, { seed: 7, tol: 1e-12, maxIter: 5000, regCovar });
    expect(model.converged).toBe(true);
    const proba = model.predictProba(overlapping);
    for (let j = 0; j < 3; j++) {
      const mass = proba.reduce((sum, row) => sum + row[j], 0);
      expect(model.weights[j]).toBeCloseTo(mass / n, 6);
      const mean = [0, 1].map(
        (c) => proba.reduce((sum, row, i) => sum + row[j] * overlapping[i][c], 0) / mass,
      );
      mean.forEach((v, c) => expect(model.means[j][c]).toBeCloseTo(v, 5));
      for (let a = 0; a < 2; a++) {
        for (let b = 0; b < 2; b++) {
          const cov =
            proba.reduce(
              (sum, row, i) => sum + row[j] * (overlapping[i][a] - mean[a]) * (overlapping[i][b] - mean[b]),
              0,
            ) /
              mass +
            (a === b ? regCovar : 0);
          expect(model.covariances[j][a][b]).toBeCloseTo(cov, 5);
        }
      }
    }
  });
});

describe('fitGmm behaviour', () => {
  const { points, labels } = gaussianBlobs(3, [30, 30, 30], { dim: 4 });

  it('recovers separated clusters: posteriors are rows summing to 1 and new points go to the nearest cluster', () => {
    const model = fitGmm(points, 3, { seed: SEED });
    expect(samePartition(model.predict(points), labels)).toBe(true);
    const proba = model.predictProba(points);
    expect(proba).toHaveLength(points.length);
    for (const row of proba) {
      expect(row).toHaveLength(3);
      expect(row.every((p) => p >= 0 && p <= 1)).toBe(true);
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    const nearMeans = model.means.map((m) => m.map((v) => v + 0.01));
    expect(model.predict(nearMeans)).toEqual([0, 1, 2]);
    expect(model.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    model.componentSizes.forEach((size) => expect(size).toBeCloseTo(30, 6));
  });

  it('returns symmetric covariances with the regulariser on the diagonal', () => {
    const model = fitGmm(points, 2, { seed: SEED, regCovar: 0.5 });
    expect(model.regCovar).toBe(0.5);
    for (const cov of model.covariances) {
      cov.forEach((row, a) => row.forEach((v, b) => expect(v).toBe(cov[b][a])));
      cov.forEach((row, a) => expect(row[a]).toBeGreaterThan(0.5));
    }
  });

  it('accepts number[][], Float32Array[] and Float64Array[] alike', () => {
    const f32 = points.map((p) => Float32Array.from(p));
    const asNumbers = f32.map((p) => Array.from(p));
    const f64 = f32.map((p) => Float64Array.from(p));
    const a = fitGmm(asNumbers, 3, { seed: SEED });
    const b = fitGmm(f32, 3, { seed: SEED });
    const c = fitGmm(f64, 3, { seed: SEED });
    expect(b.logLikelihood).toBe(a.logLikelihood);
    expect(c.logLikelihood).toBe(a.logLikelihood);
    expect(b.predictProba(f32)).toEqual(a.predictProba(asNumbers));
  });

  it('is bit-identical for the same seed', () => {
    const { points: overlapping } = gaussianBlobs(9, [20, 20, 20, 20], { dim: 3, centerSpread: 2 });
    const first = allNumbers(fitGmm(overlapping, 4, { seed: 11 }), overlapping);
    const second = allNumbers(fitGmm(overlapping, 4, { seed: 11 }), overlapping);
    expect(second.length).toBe(first.length);
    second.forEach((v, i) => expect(Object.is(v, first[i])).toBe(true));
  });

  it('with the relative regulariser, scaling and translating only shifts the log-likelihood by N·d·ln c', () => {
    const scale = 1e-3;
    const moved = points.map((p) => p.map((v) => scale * v + 42));
    const a = fitGmm(points, 3, { seed: SEED, regCovarMode: 'relative' });
    const b = fitGmm(moved, 3, { seed: SEED, regCovarMode: 'relative' });
    const shift = -points.length * points[0].length * Math.log(scale);
    expect(b.logLikelihood).toBeCloseTo(a.logLikelihood + shift, 6);
    expect(samePartition(b.predict(moved), a.predict(points))).toBe(true);
  });

  it('stops at maxIter and reports it did not converge', () => {
    const { points: overlapping } = gaussianBlobs(9, [20, 20, 20, 20], { dim: 3, centerSpread: 2 });
    const model = fitGmm(overlapping, 4, { seed: SEED, maxIter: 1 });
    expect(model.iterations).toBe(1);
    expect(model.converged).toBe(false);
  });

  it('stops with an AbortError when the signal has fired', () => {
    const error = thrown(() => fitGmm(points, 3, { signal: { aborted: true } }));
    expect((error as Error).name).toBe('AbortError');
  });
});

/** log N(x | mean, cov), computed independently with ml-matrix (determinant and inverse). */
function logGaussian(x: number[], mean: number[], cov: number[][]): number {
  const diff = Matrix.columnVector(x.map((v, c) => v - mean[c]));
  const maha = diff
    .transpose()
    .mmul(inverse(new Matrix(cov)))
    .mmul(diff)
    .get(0, 0);
  return -0.5 * (x.length * Math.log(2 * Math.PI) + Math.log(determinant(new Matrix(cov))) + maha);
}

describe('fitGmm agrees with the model it returns (odd dimensions, N not a multiple of 4)', () => {
  for (const dim of [1, 3, 4, 7]) {
    const { points } = gaussianBlobs(20 + dim, [11, 12], { dim, centerSpread: 1.5 });

    it(`d = ${dim}: log-likelihood and posteriors equal the densities of the returned parameters`, () => {
      const model = fitGmm(points, 3, { seed: SEED });
      let total = 0;
      const proba = model.predictProba(points);
      points.forEach((x, i) => {
        const joint = model.weights.map(
          (w, j) => Math.log(w) + logGaussian(x, model.means[j], model.covariances[j]),
        );
        const max = Math.max(...joint);
        const norm = max + Math.log(joint.reduce((s, v) => s + Math.exp(v - max), 0));
        total += norm;
        joint.forEach((v, j) => expect(proba[i][j]).toBeCloseTo(Math.exp(v - norm), 9));
      });
      expect(model.logLikelihood).toBeCloseTo(total, 7);
    });

    it(`d = ${dim}: one component is the sample mean and (biased) covariance plus regCovar`, () => {
      const model = fitGmm(points, 1, { regCovar: 1e-3 });
      const n = points.length;
      const mean = Array.from({ length: dim }, (_, c) => points.reduce((s, p) => s + p[c], 0) / n);
      model.means[0].forEach((v, c) => expect(v).toBeCloseTo(mean[c], 10));
      for (let a = 0; a < dim; a++) {
        for (let b = 0; b < dim; b++) {
          const cov = points.reduce((s, p) => s + (p[a] - mean[a]) * (p[b] - mean[b]), 0) / n;
          expect(model.covariances[0][a][b]).toBeCloseTo(cov + (a === b ? 1e-3 : 0), 10);
        }
      }
    });
  }
});

describe('fitGmm edge cases and errors', () => {
  it('fits identical points, a single point and k = N without throwing', () => {
    const same = Array.from({ length: 10 }, () => [1, 2, 3]);
    for (const k of [1, 3]) {
      const model = fitGmm(same, k);
      expect(Number.isFinite(model.logLikelihood)).toBe(true);
      expect(model.means[0]).toEqual([1, 2, 3]);
      model.predictProba(same).forEach((row) => expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12));
    }
    expect(fitGmm(same, 1).covariances[0]).toEqual([
      [1e-6, 0, 0],
      [0, 1e-6, 0],
      [0, 0, 1e-6],
    ]);
    const single = fitGmm([[5, -1]], 1);
    expect(single.means).toEqual([[5, -1]]);
    const { points } = gaussianBlobs(4, [6, 6], { dim: 3 });
    const full = fitGmm(points, points.length);
    expect(Number.isFinite(full.logLikelihood)).toBe(true);
    expect(full.weights).toHaveLength(12);
  });

  it('names both dimensions when a point has the wrong length', () => {
    const error = thrown(() =>
      fitGmm(
        [
          [1, 2, 3],
          [4, 5],
        ],
        1,
      ),
    );
    expect(error).toBeInstanceOf(DimensionError);
    expect((error as DimensionError).code).toBe('DIMENSION_MISMATCH');
    expect((error as DimensionError).details).toMatchObject({ expected: 3, actual: 2 });
    expect((error as Error).message).toMatch(/2.*3/);
    const model = fitGmm(
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
      1,
    );
    expect(() => model.predictProba([[1, 2]])).toThrow(DimensionError);
  });

  it('rejects k < 1, k > N and non-integer k with INVALID_COMPONENT_COUNT', () => {
    const points = [[0], [1], [2]];
    for (const k of [0, 4, 1.5]) {
      const error = thrown(() => fitGmm(points, k));
      expect(error).toBeInstanceOf(GmmError);
      expect((error as GmmError).code).toBe('INVALID_COMPONENT_COUNT');
      expect((error as GmmError).details).toMatchObject({ k, points: 3 });
    }
  });

  it('rejects empty input, non-finite coordinates and invalid options with typed errors', () => {
    expect((thrown(() => fitGmm([], 1)) as DimensionError).code).toBe('EMPTY_INPUT');
    expect((thrown(() => fitGmm([[1], [NaN]], 1)) as GmmError).code).toBe('NON_FINITE_INPUT');
    for (const options of [{ regCovar: -1 }, { tol: -1 }, { maxIter: 0 }]) {
      expect((thrown(() => fitGmm([[1], [2]], 1, options)) as GmmError).code).toBe('INVALID_OPTION');
    }
  });

  it('reports a covariance that cannot be factored (identical points, no regulariser)', () => {
    const error = thrown(() =>
      fitGmm(
        [
          [1, 1],
          [1, 1],
          [1, 1],
        ],
        1,
        { regCovar: 0 },
      ),
    );
    expect(error).toBeInstanceOf(GmmError);
    expect((error as GmmError).code).toBe('ILL_CONDITIONED_COVARIANCE');
  });
});
