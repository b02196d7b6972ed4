/**
 * The stable layout on two cores (umap-split.ts): its far side in another worker gives the same bits as in
 * this thread, whatever the timing of its rounds, and a pool runs it on one of its workers, held for the
 * layout and freed after. The "workers" here are FAKE: `startFarLayout` called in this process after a
 * structured-clone round trip and a random delay.
 */
import { describe, expect, it } from 'vitest';
import { createClusterPool, type ClusterWorker } from '../../../src/core/cluster/cluster-pool';
import { seededRandom } from '../../../src/core/random';
import { reduceDimensions } from '../../../src/core/cluster/umap';
import {
  secondHalfStart,
  splitEdges,
  SPLIT_EPOCHS_PER_ROUND,
  startFarLayout,
  type FarLayout,
  type FarLayoutSetup,
} from '../../../src/core/cluster/umap-split';
import { stableSchedule } from '../../../src/core/cluster/umap-stable';
import { runAsync, runSync } from '../../../src/core/yield';

function unitRows(n: number, dim: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const unit = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < dim; t++) s += (unit[i * dim + t] = random() * 2 - 1) ** 2;
    for (let t = 0; t < dim; t++) unit[i * dim + t] /= Math.sqrt(s);
  }
  return unit;
}

const N = 240;
const DIM = 12;
const OPTIONS = { nComponents: 10, nNeighbors: 15, seed: 7 } as const;
/** Rounds of a layout of 500 epochs (umap-js's count at these sizes). */
const ROUNDS = Math.ceil(500 / SPLIT_EPOCHS_PER_ROUND);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A FAKE cluster worker whose far side runs here, after a clone and a random delay. */
function fakeWorker(delays: () => number, rounds: number[]): ClusterWorker {
  let far: FarLayout | undefined;
  const fail = () => Promise.reject(new Error('not in this test'));
  return {
    run: fail,
    async layoutStart(setup: FarLayoutSetup) {
      await sleep(delays());
      far = startFarLayout(structuredClone(setup));
    },
    async layoutRound(y, firstEpoch, alphas) {
      await sleep(delays());
      rounds.push(firstEpoch);
      return structuredClone(far!.round(structuredClone(y), firstEpoch, structuredClone(alphas)));
    },
    async layoutEnd() {
      far?.close();
      far = undefined;
    },
    terminate() {},
  };
}

describe('the split layout', () => {
  it('puts every edge with a point in a half on that half’s side, in the edges’ order, and only those', () => {
    const n = 37;
    const random = seededRandom(3);
    const edges = 400;
    const head = Int32Array.from({ length: edges }, () => Math.floor(random() * n));
    const tail = Int32Array.from({ length: edges }, () => Math.floor(random() * n));
    const weight = Float64Array.from({ length: edges }, () => 0.05 + random());
    const ids = Array.from({ length: n }, (_, i) => i);
    const schedule = stableSchedule(tail, head, weight, 200, 11, ids);
    const sides = splitEdges({ n, head, tail, schedule });
    const half = secondHalfStart(n);
    expect(half).toBe(19);
    for (const [side, part] of [sides.near, sides.far].entries()) {
      const inSide = (p: number) => (side === 0 ? p < half : p >= half);
      const expected = Array.from(head.keys()).filter((e) => inSide(head[e]) || inSide(tail[e]));
      expect(Array.from(part.head)).toEqual(expected.map((e) => head[e]));
      expect(Array.from(part.tail)).toEqual(expected.map((e) => tail[e]));
      expect(Array.from(part.key)).toEqual(expected.map((e) => schedule.key[e]));
      expect(Array.from(part.scale)).toEqual(expected.map((e) => schedule.scale[e]));
      expect(Array.from(part.periodLog2)).toEqual(expected.map((e) => schedule.periodLog2[e]));
    }
    // Every edge is on a side; the edges between the halves are on both.
    const crossing = Array.from(head.keys()).filter((e) => head[e] < half !== tail[e] < half).length;
    expect(crossing).toBeGreaterThan(0);
    expect(sides.near.head.length + sides.far.head.length).toBe(edges + crossing);
  });

  it('gives the same bits with its far side on a worker, rounds answered late and in any timing, as in one thread', async () => {
    const unit = unitRows(N, DIM, 5);
    const own = runSync(reduceDimensions(unit, N, DIM, { ...OPTIONS, split: true }));
    const random = seededRandom(9);
    const rounds: number[] = [];
    const worker = fakeWorker(() => Math.floor(random() * 3), rounds);
    const pool = createClusterPool(2, () => worker);
    const pooled = await runAsync(
      reduceDimensions(unit, N, DIM, { ...OPTIONS, split: true, far: pool.layout!.bind(pool) }),
    );
    expect(Array.from(pooled)).toEqual(Array.from(own));
    // A round per SPLIT_EPOCHS_PER_ROUND epochs ran on the worker, each from the epoch after the last one's.
    expect(rounds).toEqual(Array.from({ length: ROUNDS }, (_, r) => r * SPLIT_EPOCHS_PER_ROUND));
    // JavaScript's epochs give the kernel's bits in the split order too.
    const js = runSync(reduceDimensions(unit, N, DIM, { ...OPTIONS, split: true, engine: 'js' }));
    expect(Array.from(js)).toEqual(Array.from(own));
    // A layout in one order is another layout: the split order is what ran.
    const one = runSync(reduceDimensions(unit, N, DIM, { ...OPTIONS, split: false }));
    expect(Array.from(one)).not.toEqual(Array.from(own));
  });

  it('holds one worker of the pool for the layout and frees it when the layout ends', async () => {
    const unit = unitRows(60, DIM, 6);
    const started: number[][] = [];
    // One worker: a layout that kept it would leave the second waiting for good.
    const pool = createClusterPool(1, () => {
      const rounds: number[] = [];
      started.push(rounds);
      return fakeWorker(() => 0, rounds);
    });
    const options = { nComponents: 4, nNeighbors: 6, seed: 3, split: true, far: pool.layout!.bind(pool) };
    await runAsync(reduceDimensions(unit, 60, DIM, options));
    await runAsync(reduceDimensions(unit, 60, DIM, options));
    // The second layout got the first one's worker back: freed, not leaked.
    expect(started.length).toBe(1);
    expect(started[0].length).toBe(2 * ROUNDS);
  });

  it('fails clearly on a worker that cannot run a layout, and frees it', async () => {
    const pool = createClusterPool(1, () => ({
      run: () => Promise.reject(new Error('unused')),
      terminate() {},
    }));
    await expect(pool.layout!({} as FarLayoutSetup)).rejects.toThrow(/cannot run a layout/);
    await expect(pool.layout!({} as FarLayoutSetup)).rejects.toThrow(/cannot run a layout/);
  });
});
