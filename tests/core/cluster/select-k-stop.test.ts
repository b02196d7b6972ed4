/**
 * The BIC sweep's early stop (`stop`, sweep-stop.ts) and its fit on a sample (`fitSample`): the same k as the
 * whole sweep with fewer or cheaper fits, the same choice whether the sweep runs in one piece or split (a FAKE
 * pool: `runSweepTask` in this process), and clear errors on bad options.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random';
import {
  runSweepTask,
  selectClusterCount,
  selectClusterCountSplit,
  type SweepTask,
} from '../../../src/core/cluster/select-k';
import { stopAfter, SWEEP_STOP } from '../../../src/core/cluster/sweep-stop';
import { GmmError } from '../../../src/core/cluster/gmm';

/** `groups` Gaussian blobs of `perGroup` points in `dim` dimensions, centres N(0, spread²) per coordinate. */
function blobPoints(groups: number, perGroup: number, dim: number, seed: number, spread = 8): Float64Array[] {
  const r = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const out: Float64Array[] = [];
  for (let g = 0; g < groups; g++) {
    const centre = Array.from({ length: dim }, () => spread * gauss());
    for (let i = 0; i < perGroup; i++) out.push(Float64Array.from(centre, (c) => c + gauss()));
  }
  return out;
}

const fitted = (bic: number[]) => bic.filter(Number.isFinite).length;

describe('stopAfter', () => {
  const rule = { patience: 3, nats: 10 };
  it('goes on while a k is within the margin of the best, and stops after `patience` worse ones', () => {
    expect(stopAfter([100, 50, 55, 58], [true, true, true, true], rule)).toBeUndefined();
    expect(stopAfter([100, 50, 70, 80, 90], [true, true, true, true, true], rule)).toBe(5);
    // A k back within the margin resets the count.
    expect(stopAfter([100, 50, 70, 55, 80, 90], [true, true, true, true, true, true], rule)).toBeUndefined();
  });
  it('counts inadmissible and failed fits as worse, and never takes their criterion as the best', () => {
    expect(stopAfter([100, 10, 90, NaN], [true, false, true, true], rule)).toBeUndefined();
    expect(stopAfter([100, 10, 5, NaN], [true, false, false, true], rule)).toBe(4);
  });
});

describe('selectClusterCount with the early stop', () => {
  for (const [label, points, options] of [
    ['full, 4 blobs in 10-d', blobPoints(4, 40, 10, 3), {}],
    ['full, 6 blobs in 10-d', blobPoints(6, 30, 10, 11), {}],
    [
      'spherical, 7 blobs in 10-d, impossible k skipped (the local step)',
      blobPoints(7, 8, 10, 5),
      { covariance: 'spherical' as const, minComponentSize: 3, skipImpossible: true },
    ],
  ] as const) {
    it(`chooses the whole sweep's k with fewer fits: ${label}`, () => {
      const whole = selectClusterCount(points, { ...options, maxClusters: 30 });
      const stopped = selectClusterCount(points, { ...options, maxClusters: 30, stop: SWEEP_STOP });
      expect(stopped.k).toBe(whole.k);
      expect(stopped.score).toBe(whole.score);
      expect(fitted(stopped.bic)).toBeLessThan(fitted(whole.bic));
      // The ks it fitted have the whole sweep's criteria; the rest are NaN and inadmissible.
      const n = fitted(stopped.bic);
      expect(stopped.bic.slice(0, n)).toEqual(whole.bic.slice(0, n));
      expect(stopped.bic.slice(n).every(Number.isNaN)).toBe(true);
      expect(stopped.admissible.slice(n).some(Boolean)).toBe(false);
      expect(stopped.bic).toHaveLength(whole.bic.length);
    });
  }

  it('stops where the one-piece sweep stops when split over 1, 2 and 5 parts', async () => {
    const points = blobPoints(5, 30, 10, 8);
    const options = { maxClusters: 40, stop: SWEEP_STOP };
    const whole = selectClusterCount(points, options);
    for (const parts of [1, 2, 5]) {
      const tasks: SweepTask[] = [];
      const split = await selectClusterCountSplit(points, options, parts, async (task) => {
        tasks.push(task);
        return structuredClone(runSweepTask(structuredClone(task)));
      });
      expect(split.k).toBe(whole.k);
      expect(split.bic).toEqual(whole.bic);
      // Rounds: it never fitted all 39 ks, and no part was asked to stop on its own.
      expect(tasks.flatMap((t) => t.ks).length).toBeLessThan(39);
      expect(tasks.every((t) => t.stop === undefined)).toBe(true);
    }
  });
});

describe('selectClusterCount fitted on a sample', () => {
  it('chooses the whole fit’s k on 3,000 points fitted on 600, scoring every point', () => {
    const points = blobPoints(6, 500, 10, 21, 6);
    const options = { maxClusters: 10, stop: SWEEP_STOP };
    const whole = selectClusterCount(points, options);
    const sampled = selectClusterCount(points, { ...options, fitSample: 600 });
    expect(whole.k).toBe(6);
    expect(sampled.k).toBe(whole.k);
    // Scored on all 3,000 points: the criteria are of the same size as the whole fit's, never below them by
    // more than rounding (the sample's fit is at best as likely on all points as the fit to all of them).
    for (let i = 0; i < 6; i++)
      expect(sampled.bic[i]).toBeGreaterThan(whole.bic[i] - 1e-6 * Math.abs(whole.bic[i]));
    // Fitted on the sample: not the whole fit's likelihood.
    expect(sampled.bic[5]).not.toBe(whole.bic[5]);
    // The model is fitted on all points at the chosen k.
    expect(sampled.model.componentSizes.reduce((a, b) => a + b, 0)).toBeCloseTo(3000, 6);
    expect(sampled.model.bic).toBeCloseTo(whole.model.bic, 6);
  });

  it('leaves a set no larger than the sample as it was', () => {
    const points = blobPoints(3, 20, 4, 2);
    const whole = selectClusterCount(points, { maxClusters: 8 });
    expect(selectClusterCount(points, { maxClusters: 8, fitSample: 60 })).toMatchObject({
      k: whole.k,
      bic: whole.bic,
    });
  });

  it('rejects a sample below 2 points or a stop rule without patience', () => {
    const points = blobPoints(2, 10, 3, 1);
    for (const bad of [{ fitSample: 1 }, { fitSample: 2.5 }, { stop: { patience: 0, nats: 10 } }]) {
      expect(() => selectClusterCount(points, bad)).toThrow(GmmError);
      try {
        selectClusterCount(points, bad);
      } catch (error) {
        expect((error as GmmError).code).toBe('INVALID_OPTION');
      }
    }
  });
});
