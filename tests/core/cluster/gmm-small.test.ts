/**
 * Small, fast checks of gmm.ts (the public mixture API) on hand-worked inputs: the exact text and details of
 * every input error, centring on a given centre, a fit in a larger (sweep) workspace, and `predict` as the
 * argmax of `predictProba` with ties to the lower index.
 */
import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../../src/core/errors';
import { createWorkspace } from '../../../src/core/cluster/gmm-em';
import {
  fitGmm,
  fitGmmFlat,
  flattenPoints,
  GmmError,
  type CovarianceType,
} from '../../../src/core/cluster/gmm';
import { seededRandom } from '../../../src/core/random';

function thrown(fn: () => unknown): Error & { code?: string; details?: unknown } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code?: string; details?: unknown };
  }
  throw new Error('expected a throw');
}

/** Three 1-D clusters of three points around 1, 6 and 11 (variance 2/3 each). */
const THREE_CLUSTERS = [0, 1, 2, 5, 6, 7, 10, 11, 12].map((x) => [x]);

describe('input errors name the problem and its numbers', () => {
  it('no points, or points without coordinates: EMPTY_INPUT with both counts', () => {
    const cases: [() => unknown, number, number][] = [
      [() => fitGmm([], 1), 0, 0],
      [() => fitGmm([[], []], 1), 2, 0],
      [() => flattenPoints([], 3), 0, 3],
    ];
    for (const [fn, points, dim] of cases) {
      const error = thrown(fn);
      expect(error).toBeInstanceOf(DimensionError);
      expect(error.code).toBe('EMPTY_INPUT');
      expect(error.message).toBe(
        `Need at least one point with at least one coordinate (got ${points} points of dimension ${dim}).`,
      );
      expect(error.details).toEqual({ points, dim });
    }
  });

  it('a non-finite coordinate: NON_FINITE_INPUT naming the point, the value and the coordinate', () => {
    const error = thrown(() =>
      fitGmm(
        [
          [1, 2],
          [3, Infinity],
        ],
        1,
      ),
    );
    expect(error).toBeInstanceOf(GmmError);
    expect(error.code).toBe('NON_FINITE_INPUT');
    expect(error.message).toBe('Point 1 has a non-finite coordinate Infinity at 1.');
    expect(error.details).toEqual({ index: 1, coordinate: 1 });
  });

  it('an unknown covariance type: INVALID_OPTION listing the four families', () => {
    const error = thrown(() => fitGmm(THREE_CLUSTERS, 1, { covariance: 'cubic' as CovarianceType }));
    expect(error).toBeInstanceOf(GmmError);
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe('Unknown covariance type "cubic": use one of full, diag, spherical, tied.');
    expect(error.details).toEqual({ covariance: 'cubic' });
  });

  it('a component count outside 1 … N: INVALID_COMPONENT_COUNT with the admissible range', () => {
    const error = thrown(() => fitGmm([[0], [1], [2]], 4));
    expect(error.code).toBe('INVALID_COMPONENT_COUNT');
    expect(error.message).toBe('Cannot fit 4 components to 3 points: need an integer 1 ≤ k ≤ 3.');
  });

  it('a negative regulariser or tolerance, or a bad maxIter: INVALID_OPTION with the three values', () => {
    const cases: [object, number, number, number][] = [
      [{ regCovar: -1 }, -1, 1e-3, 100],
      [{ tol: -0.5 }, 1e-6, -0.5, 100],
      [{ maxIter: 2.5 }, 1e-6, 1e-3, 2.5],
    ];
    for (const [options, regCovar, tol, maxIter] of cases) {
      const error = thrown(() => fitGmm([[1], [2]], 1, options));
      expect(error).toBeInstanceOf(GmmError);
      expect(error.code).toBe('INVALID_OPTION');
      expect(error.message).toBe(
        `Need regCovar ≥ 0, tol ≥ 0 and an integer maxIter ≥ 1 (got ${regCovar}, ${tol}, ${maxIter}).`,
      );
      expect(error.details).toEqual({ regCovar, tol, maxIter });
    }
  });
});

describe('flattenPoints', () => {
  it('centres on its own mean, or on the centre it is given (hand-worked)', () => {
    const own = flattenPoints([
      [1, 2],
      [3, 6],
    ]);
    expect(Array.from(own.center)).toEqual([2, 4]);
    expect(Array.from(own.data)).toEqual([-1, -2, 1, 2]);
    const center = new Float64Array([10, 20]);
    const given = flattenPoints(
      [
        [1, 2],
        [3, 6],
      ],
      2,
      center,
    );
    expect(given.center).toBe(center);
    expect(Array.from(given.center)).toEqual([10, 20]);
    expect(Array.from(given.data)).toEqual([-9, -18, -7, -14]);
  });
});

describe('the fitted model', () => {
  it("a point's posteriors do not depend on the other points asked with it", () => {
    const model = fitGmm(THREE_CLUSTERS, 3, { seed: 5 });
    const queries = [[-1], [3.5], [6], [8.4], [13]];
    const together = model.predictProba(queries);
    queries.forEach((q, i) => expect(model.predictProba([q])[0]).toEqual(together[i]));
    // And a point alone goes to its nearest cluster, whatever the batch's mean.
    const left = model.predict([[0.5]])[0];
    const right = model.predict([[11.5]])[0];
    expect(left).not.toBe(right);
    expect(model.means[left][0]).toBeCloseTo(1, 3);
    expect(model.means[right][0]).toBeCloseTo(11, 3);
  });

  it('answers an empty question with an empty answer', () => {
    const model = fitGmm(THREE_CLUSTERS, 2);
    expect(model.predictProba([])).toEqual([]);
    expect(model.predict([])).toEqual([]);
  });

  it('fitted in a larger sweep workspace, equals the fit in its own workspace', () => {
    const flat = () => flattenPoints(THREE_CLUSTERS);
    for (const k of [1, 2]) {
      const alone = fitGmmFlat(flat(), k, { seed: 3 });
      const shared = fitGmmFlat(flat(), k, { seed: 3 }, createWorkspace(THREE_CLUSTERS.length, 1, 4));
      expect(shared.weights).toEqual(alone.weights);
      expect(shared.means).toEqual(alone.means);
      expect(shared.covariances).toEqual(alone.covariances);
      expect(shared.logLikelihood).toBe(alone.logLikelihood);
      expect(shared.predictProba(THREE_CLUSTERS)).toEqual(alone.predictProba(THREE_CLUSTERS));
    }
  });

  it('predict is the most probable component of each row of predictProba (brute-force argmax)', () => {
    const model = fitGmm(THREE_CLUSTERS, 3, { seed: 5 });
    const random = seededRandom(17);
    // Points all over the line, in random order, so ambiguous rows sit next to confident ones.
    const queries = Array.from({ length: 300 }, () => [-2 + 16 * random()]);
    const proba = model.predictProba(queries);
    const expected = proba.map((row) => row.indexOf(Math.max(...row)));
    expect(model.predict(queries)).toEqual(expected);
    expect(new Set(expected).size).toBe(3);
  });

  it('gives an exact tie to the lower index (two mirror-image clusters, a point halfway)', () => {
    // Centred data are symmetric about 0 and the clusters are 840 nats apart, so EM keeps responsibilities of
    // exactly 0 and 1: the two components are mirror images to the last bit.
    const model = fitGmm([[-11], [-10], [10], [11]], 2);
    expect(model.means[0][0]).toBe(-model.means[1][0]);
    expect(model.predictProba([[0]])).toEqual([[0.5, 0.5]]);
    expect(model.predict([[0]])).toEqual([0]);
  });
});
