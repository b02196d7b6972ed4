/**
 * `selectClusterCountSplit`: the BIC sweep split into parts (run here by a FAKE pool: `runSweepTask` in this
 * process after a structured-clone round trip and a random delay, so parts finish out of order) chooses what
 * the one-piece `selectClusterCount` chooses, with the same criterion for every k.
 */
import { describe, expect, it } from 'vitest';
import { flattenPoints } from '../../../src/core/cluster/gmm';
import { seededRandom } from '../../../src/core/random';
import {
  runSweepTask,
  selectClusterCount,
  selectClusterCountSplit,
  type SelectClusterCountOptions,
  type SweepTask,
} from '../../../src/core/cluster/select-k';

/** `groups` Gaussian blobs in `dim` dimensions. */
function blobPoints(groups: number, perGroup: number, dim: number, seed: number): Float64Array[] {
  const r = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const out: Float64Array[] = [];
  for (let g = 0; g < groups; g++) {
    const centre = Array.from({ length: dim }, () => 6 * gauss());
    for (let i = 0; i < perGroup; i++) out.push(Float64Array.from(centre, (c) => c + gauss()));
  }
  return out;
}

function fakeSweeper(seed: number) {
  const random = seededRandom(seed);
  const tasks: SweepTask[] = [];
  return {
    tasks,
    sweep: async (task: SweepTask) => {
      tasks.push(task);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 10)));
      return structuredClone(runSweepTask(structuredClone(task)));
    },
  };
}

const cases: [string, SelectClusterCountOptions][] = [
  ['full covariances, BIC (the global step)', { seed: 4, maxClusters: 12 }],
  [
    'spherical, skipping impossible k (the local step)',
    { seed: 9, covariance: 'spherical', skipImpossible: true, minComponentSize: 8 },
  ],
  ['diagonal, ICL', { seed: 2, covariance: 'diag', criterion: 'icl', maxClusters: 9 }],
];

describe('selectClusterCountSplit', () => {
  const points = blobPoints(4, 15, 3, 77);
  for (const [label, options] of cases) {
    it(`chooses as the one-piece sweep with 1, 2, 3 and 40 parts: ${label}`, async () => {
      const whole = selectClusterCount(points, options);
      for (const parts of [1, 2, 3, 40]) {
        const { tasks, sweep } = fakeSweeper(parts);
        const split = await selectClusterCountSplit(points, options, parts, sweep);
        expect(split.k).toBe(whole.k);
        expect(split.bic).toEqual(whole.bic);
        expect(split.admissible).toEqual(whole.admissible);
        expect(split.score).toBe(whole.score);
        expect(split.model.means).toEqual(whole.model.means);
        // Never more parts than fits, every fitted k once, and no k the one-piece sweep skipped.
        const fitted = whole.bic.flatMap((b, i) => (Number.isNaN(b) ? [] : [i + 1]));
        expect(tasks.length).toBe(Math.min(parts, fitted.length));
        expect(tasks.flatMap((t) => t.ks).sort((a, b) => a - b)).toEqual(fitted);
      }
    });
  }

  it('reports progress as parts finish, ending at every k of the sweep', async () => {
    const seen: [number, number][] = [];
    const { sweep } = fakeSweeper(5);
    await selectClusterCountSplit(
      points,
      { seed: 1, maxClusters: 10, onProgress: (d, t) => seen.push([d, t]) },
      3,
      sweep,
    );
    expect(seen.map(([, t]) => t)).toEqual([9, 9, 9]);
    expect(seen.map(([d]) => d).sort((a, b) => a - b)).toEqual(seen.map(([d]) => d));
    expect(seen[seen.length - 1][0]).toBe(9);
  });

  it('runSweepTask fits exactly the ks it is given, in order', () => {
    const whole = selectClusterCount(points, { seed: 6, maxClusters: 8 });
    const flatData = flattenPoints(points).data; // centred, as the sweep sees them
    const part = runSweepTask({
      data: flatData,
      n: points.length,
      dim: 3,
      ks: [2, 5, 7],
      seed: 6,
      regCovar: 1e-6,
      covariance: 'full',
      minComponentSize: 3,
      criterion: 'bic',
    });
    expect(part.bic).toEqual([whole.bic[1], whole.bic[4], whole.bic[6]]);
    expect(part.admissible).toEqual([whole.admissible[1], whole.admissible[4], whole.admissible[6]]);
  });

  it("runSweepTask's JavaScript loops (engine 'js', what the bench times the kernel against) give the kernel's numbers", async () => {
    const points = blobPoints(3, 30, 4, 9);
    let task: SweepTask | undefined;
    await selectClusterCountSplit(points, { seed: 5, maxClusters: 8 }, 1, async (t) => {
      task = t;
      return runSweepTask(t);
    });
    const kernel = runSweepTask(task!);
    const js = runSweepTask(task!, undefined, undefined, 'js');
    expect(js.bic).toEqual(kernel.bic);
    expect(js.admissible).toEqual(kernel.admissible);
    expect(kernel.bic.every(Number.isFinite)).toBe(true);
  });
});
