/**
 * Small, fast checks of gmm-em.ts on hand-worked inputs: the stopping rule (strict, as scikit-learn's), the
 * cut-off of negligible responsibilities, and the error for a covariance that cannot be factored.
 */
import { describe, expect, it } from 'vitest';
import { createWorkspace, eStep } from '../../../src/core/cluster/gmm-em';
import { fitGmm, GmmError } from '../../../src/core/cluster/gmm';

describe('EM stopping rule', () => {
  it('stops when the change is strictly below tol: with tol 0 it runs every iteration', () => {
    // One component: every responsibility is exactly 1, so from the second iteration on the mean
    // log-likelihood does not change at all (change exactly 0).
    const points = [[0], [1], [3], [7]];
    const strict = fitGmm(points, 1, { tol: 0, maxIter: 7 });
    expect(strict.iterations).toBe(7);
    expect(strict.converged).toBe(false);
    const tiny = fitGmm(points, 1, { tol: Number.MIN_VALUE, maxIter: 7 });
    expect(tiny.iterations).toBe(2);
    expect(tiny.converged).toBe(true);
    expect(tiny.logLikelihood).toBe(strict.logLikelihood);
  });
});

describe('E-step', () => {
  /** Two unit-variance 1-D components centred at 0 with log normalisers 0 and `second`; one point at 0. */
  function responsibilities(second: number): { resp: Float64Array; total: number } {
    const ws = createWorkspace(1, 1, 2);
    ws.precs.set([1, 1]);
    ws.shifts.set([0, 0]);
    ws.logNorm.set([0, second]);
    const resp = new Float64Array(2);
    const total = eStep(new Float64Array([0]), 1, 2, ws, resp);
    return { resp, total };
  }

  it('keeps a component exactly 50 nats below the best, drops one more than 50 below', () => {
    const at = responsibilities(-50);
    const e = Math.exp(-50);
    expect(at.resp[1]).toBeGreaterThan(0);
    expect(at.resp[1]).toBeCloseTo(e / (1 + e), 35);
    expect(at.resp[0]).toBe(1 / (1 + e));
    const beyond = responsibilities(-50 - 1e-9);
    expect(Array.from(beyond.resp)).toEqual([1, 0]);
    const near = responsibilities(-3);
    expect(near.resp[1]).toBeCloseTo(Math.exp(-3) / (1 + Math.exp(-3)), 15);
    expect(near.total).toBeCloseTo(Math.log(1 + Math.exp(-3)), 15);
  });
});

describe('ill-conditioned covariance', () => {
  it('names the component, the row and the pivot, and says what to change', () => {
    // The second coordinate is constant: with no regulariser the covariance is [[v, 0], [0, 0]], whose Cholesky
    // pivot at row 1 is exactly 0.
    let error: unknown;
    try {
      fitGmm(
        [
          [0, 5],
          [1, 5],
          [2, 5],
        ],
        1,
        { regCovar: 0 },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GmmError);
    const gmmError = error as GmmError;
    expect(gmmError.code).toBe('ILL_CONDITIONED_COVARIANCE');
    expect(gmmError.message).toBe(
      'Component 0 has a covariance that is not positive definite (pivot 0 at row 1); ' +
        'increase regCovar or use regCovarMode "relative".',
    );
    expect(gmmError.details).toEqual({ component: 0, row: 1, pivot: 0 });
    // The same points with the default regulariser fit.
    expect(
      fitGmm(
        [
          [0, 5],
          [1, 5],
          [2, 5],
        ],
        1,
      ).covariances[0][1][1],
    ).toBe(1e-6);
  });
});
