/**
 * The BIC sweep on small inputs (2–3 dimensions, a few dozen points, at most five k): each rule of
 * `selectClusterCount` checked against a recomputation from its definition — the BIC of each k is the BIC of a
 * separate `fitGmm` (itself checked against scikit-learn in gmm.test.ts), admissibility is the rounded
 * component sizes against the floor, ICL adds the memberships' entropy computed here. Quick enough for the
 * mutation run, which leaves out select-k.test.ts's larger sweeps (vitest.mutate.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { fitGmm, type CovarianceType } from '../../../src/core/cluster/gmm';
import { minimumComponentSize, selectClusterCount } from '../../../src/core/cluster/select-k';
import { gaussianBlobs, samePartition } from '../../support/gaussian-blobs';

const SEED = 224;
const MAX = 6; // k = 1 … 5

/** Three well-separated groups of eight points in 2-d. */
const { points, labels } = gaussianBlobs(31, [8, 8, 8], { dim: 2 });

/** −Σ r ln r over the posteriors (zeros contribute nothing). */
function entropy(proba: number[][]): number {
  let h = 0;
  for (const row of proba) for (const r of row) if (r > 0) h -= r * Math.log(r);
  return h;
}

/** The sweep recomputed from separate fits: BIC, admissibility (rounded sizes ≥ floor) and the chosen k. */
function expectedSweep(
  data: number[][],
  maxK: number,
  floor: number,
  covariance: CovarianceType = 'full',
): { bic: number[]; admissible: boolean[]; k: number } {
  const bic: number[] = [];
  const admissible: boolean[] = [];
  let k = 1;
  for (let c = 1; c <= maxK; c++) {
    const model = fitGmm(data, c, { seed: SEED, regCovarMode: 'relative', covariance });
    bic.push(model.bic);
    const ok = c === 1 || Math.min(...model.componentSizes.map(Math.round)) >= floor;
    admissible.push(ok);
    if (ok && model.bic < bic[k - 1]) k = c;
  }
  return { bic, admissible, k };
}

describe('selectClusterCount on small inputs', () => {
  it('each BIC is a separate fit’s; k is the lowest among fits whose components own ≥ d points', () => {
    const selection = selectClusterCount(points, { seed: SEED, maxClusters: MAX });
    const expected = expectedSweep(points, MAX - 1, 2);
    expect(selection.bic).toEqual(expected.bic);
    expect(selection.admissible).toEqual(expected.admissible);
    expect(selection.minComponentSize).toBe(2);
    expect(selection.k).toBe(expected.k);
    // In 2-d a floor of d = 2 lets BIC split the groups further; it never merges two of them.
    expect(selection.k).toBeGreaterThanOrEqual(3);
  });

  it('with a floor of 5 (no group of 8 splits into two such components) k is the three groups', () => {
    const selection = selectClusterCount(points, { seed: SEED, maxClusters: MAX, minComponentSize: 5 });
    const expected = expectedSweep(points, MAX - 1, 5);
    expect(selection.admissible).toEqual(expected.admissible);
    expect(selection.admissible.slice(0, 3)).toEqual([true, true, true]);
    expect(selection.k).toBe(expected.k);
    expect(selection.k).toBe(3);
    expect(selection.score).toBe(selection.bic[2]);
    expect(selection.model.k).toBe(3);
    expect(selection.model.bic).toBe(selection.bic[2]);
    expect(samePartition(selection.model.predict(points), labels)).toBe(true);
  });

  it('a higher floor rules out the fits with smaller components, even of lower BIC', () => {
    // Floor 9: no split of three groups of 8 passes, so only k = 1 is admissible.
    const selection = selectClusterCount(points, { seed: SEED, maxClusters: MAX, minComponentSize: 9 });
    const expected = expectedSweep(points, MAX - 1, 9);
    expect(selection.admissible).toEqual(expected.admissible);
    expect(selection.admissible).toEqual([true, false, false, false, false]);
    expect(selection.k).toBe(1);
    expect(selection.bic[2]).toBeLessThan(selection.bic[0]);
    expect(selection.score).toBe(selection.bic[0]);
    // Floor 8 (the groups' own size) lets the three groups through.
    expect(selectClusterCount(points, { seed: SEED, maxClusters: MAX, minComponentSize: 8 }).k).toBe(3);
  });

  it('the default floor is the family’s: d for full, 2 for diag and spherical, 1 for tied', () => {
    expect(minimumComponentSize('full', 7)).toBe(7);
    expect(minimumComponentSize('diag', 7)).toBe(2);
    expect(minimumComponentSize('spherical', 7)).toBe(2);
    expect(minimumComponentSize('tied', 7)).toBe(1);
    const three = gaussianBlobs(32, [6, 6], { dim: 3 }).points;
    for (const covariance of ['full', 'diag', 'spherical', 'tied'] as const) {
      const selection = selectClusterCount(three, { seed: SEED, maxClusters: 4, covariance });
      expect(selection.minComponentSize).toBe(minimumComponentSize(covariance, 3));
      expect(selection.model.covariance).toBe(covariance);
    }
  });

  it('tied: a fit is admissible only while N − k > d (the pooled covariance’s support)', () => {
    // 6 points in 3-d: k = 1, 2 leave 5 and 4 > 3 points of support; k = 3, 4, 5 do not.
    const few = gaussianBlobs(33, [3, 3], { dim: 3 }).points;
    const selection = selectClusterCount(few, { seed: SEED, covariance: 'tied' });
    expect(selection.bic).toHaveLength(5);
    expect(selection.admissible.slice(2)).toEqual([false, false, false]);
    expect(selection.admissible[0]).toBe(true);
    // k = 2 leaves 4 > 3 points of support, and each component owns its 3 points (≥ the floor of 1).
    expect(selection.admissible[1]).toBe(true);
    expect(selection.k).toBeLessThanOrEqual(2);
    // The support rule is the tied family's alone: full components of ≥ 1 point pass it at k = 3 (N − k = 3).
    const full = selectClusterCount(few, { seed: SEED, covariance: 'full', minComponentSize: 1 });
    expect(full.admissible[2]).toBe(true);
  });

  it('ICL is BIC plus twice the memberships’ entropy, and chooses by it', () => {
    const floor = { seed: SEED, maxClusters: MAX, minComponentSize: 5 };
    const bic = selectClusterCount(points, floor);
    const icl = selectClusterCount(points, { ...floor, criterion: 'icl' });
    for (let k = 1; k < MAX; k++) {
      const model = fitGmm(points, k, { seed: SEED, regCovarMode: 'relative' });
      const expected = model.bic + 2 * entropy(model.predictProba(points));
      expect(Number.isFinite(icl.bic[k - 1])).toBe(true);
      expect(icl.bic[k - 1]).toBeCloseTo(expected, 6);
      expect(icl.bic[k - 1]).toBeGreaterThanOrEqual(bic.bic[k - 1]);
    }
    // Separated groups: memberships are certain at k = 3, so ICL picks it too, with its BIC plus ~0.
    expect(icl.k).toBe(3);
    expect(icl.score).toBe(icl.bic[2]);
    expect(icl.score).toBeCloseTo(bic.score, 3);
  });

  it('skipImpossible: k·(m − ½) > N is not fitted (NaN, inadmissible), the rest as without it', () => {
    // m = 8, N = 24: k ≤ ⌊24 / 7.5⌋ = 3 are possible.
    const calls: [number, number][] = [];
    const full = selectClusterCount(points, { seed: SEED, maxClusters: MAX, minComponentSize: 8 });
    const fast = selectClusterCount(points, {
      seed: SEED,
      maxClusters: MAX,
      minComponentSize: 8,
      skipImpossible: true,
      onProgress: (done, total) => calls.push([done, total]),
    });
    expect(fast.bic.slice(0, 3)).toEqual(full.bic.slice(0, 3));
    expect(fast.bic.slice(3)).toEqual([NaN, NaN]);
    expect(fast.admissible).toEqual([...full.admissible.slice(0, 3), false, false]);
    expect(fast.k).toBe(full.k);
    expect(fast.k).toBe(3);
    // Progress counts the skipped k too.
    expect(calls).toEqual([1, 2, 3, 4, 5].map((k) => [k, 5]));
    // m = 4.5: ⌊24 / 4⌋ = 6 ≥ 5, nothing skipped.
    const loose = selectClusterCount(points, {
      seed: SEED,
      maxClusters: MAX,
      minComponentSize: 4.5,
      skipImpossible: true,
    });
    expect(loose.bic.every(Number.isFinite)).toBe(true);
  });

  it('a k whose covariance cannot be factored is ruled out, not the whole sweep', () => {
    // Four points on a line and one off it, no regulariser: k = 1 spans the plane; every split leaves a
    // component on the line or a lone point, whose covariance is singular.
    const line = [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [0, 1],
    ];
    const selection = selectClusterCount(line, { seed: SEED, regCovar: 0, minComponentSize: 0 });
    expect(Number.isFinite(selection.bic[0])).toBe(true);
    expect(selection.bic.slice(1)).toEqual([NaN, NaN, NaN]);
    expect(selection.admissible).toEqual([true, false, false, false]);
    expect(selection.k).toBe(1);
  });

  it('k = 1 is always admissible, even under a floor no component can reach, and its BIC is the score', () => {
    const selection = selectClusterCount(points, { seed: SEED, maxClusters: MAX, minComponentSize: 100 });
    expect(selection.admissible).toEqual([true, false, false, false, false]);
    expect(selection.k).toBe(1);
    expect(selection.score).toBe(selection.bic[0]);
  });

  it('skipImpossible with a floor of 0 or ½ skips nothing: every k is fitted as without it', () => {
    for (const minComponentSize of [0, 0.5]) {
      const full = selectClusterCount(points, { seed: SEED, maxClusters: MAX, minComponentSize });
      const fast = selectClusterCount(points, {
        seed: SEED,
        maxClusters: MAX,
        minComponentSize,
        skipImpossible: true,
      });
      expect(fast.bic).toEqual(full.bic);
      expect(fast.bic.every(Number.isFinite)).toBe(true);
      expect(fast.k).toBe(full.k);
    }
  });

  it('one point: k = 1, nothing swept, score 0; two points: only k = 1 is swept', () => {
    const one = selectClusterCount([[3, 4]]);
    expect(one).toMatchObject({ k: 1, bic: [], admissible: [], score: 0 });
    expect(one.model.means).toEqual([[3, 4]]);
    const two = selectClusterCount([
      [0, 1],
      [2, 5],
    ]);
    expect(two.k).toBe(1);
    expect(two.bic).toHaveLength(1);
    expect(two.score).toBe(two.bic[0]);
    expect(two.model.means[0]).toEqual([1, 3]);
  });

  it('maxClusters caps the sweep at min(maxClusters, N) − 1; maxClusters 1 fits nothing', () => {
    expect(selectClusterCount(points, { seed: SEED, maxClusters: 3 }).bic).toHaveLength(2);
    expect(selectClusterCount(points.slice(0, 4), { seed: SEED, maxClusters: 50 }).bic).toHaveLength(3);
    const capped = selectClusterCount(points, { seed: SEED, maxClusters: 1 });
    expect(capped.bic).toEqual([]);
    expect(capped.k).toBe(1);
    expect(capped.score).toBe(0);
  });

  it('rejects bad options with INVALID_OPTION, naming the values', () => {
    for (const options of [
      { maxClusters: 0 },
      { maxClusters: 1.5 },
      { minComponentSize: -1 },
      { regCovar: -1e-9 },
    ]) {
      let error: unknown;
      try {
        selectClusterCount(points, options);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: 'INVALID_OPTION' });
      expect((error as Error).message).toMatch(/maxClusters ≥ 1, minComponentSize ≥ 0 and regCovar ≥ 0/);
      const details = (error as { details: Record<string, number> }).details;
      expect((error as Error).message).toContain(
        `(got ${details.maxClusters}, ${details.minComponentSize}, ${details.regCovar}).`,
      );
      expect(details).toEqual({
        maxClusters: options.maxClusters ?? 50,
        minComponentSize: options.minComponentSize ?? 2,
        regCovar: options.regCovar ?? 1e-6,
      });
    }
    expect(() => selectClusterCount(points, { covariance: 'banana' as CovarianceType })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
    // The smallest valid values are accepted.
    expect(selectClusterCount(points, { maxClusters: 1, minComponentSize: 0, regCovar: 0 }).k).toBe(1);
  });

  it('a signal that fires during the sweep (after k = 1) stops it with an AbortError', () => {
    const signal = { aborted: false };
    const done: number[] = [];
    const onProgress = (k: number) => {
      done.push(k);
      signal.aborted = true;
    };
    expect(() => selectClusterCount(points, { seed: SEED, maxClusters: MAX, signal, onProgress })).toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
    // No k after the first was fitted.
    expect(done).toEqual([1]);
  });

  it('stops with an AbortError when the signal has fired', () => {
    expect(() => selectClusterCount(points, { signal: { aborted: true } })).toThrow(
      expect.objectContaining({ name: 'AbortError' }),
    );
  });
});
