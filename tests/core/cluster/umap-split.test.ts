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
  quarterOf,
  splitEdges,
  SPLIT_ROUNDS,
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
    async layoutRound(y, epoch, alpha, round) {
      await sleep(delays());
      rounds.push(round);
      return structuredClone(far!.round(structuredClone(y), epoch, alpha, round));
    },
    async layoutEnd() {
      far?.close();
      far = undefined;
    },
    terminate() {},
  };
}

describe('the split layout', () => {
  it('puts every edge in one round and side, both of its points on that side, in the edges’ order', () => {
    const n = 37;
    const random = seededRandom(3);
    const edges = 400;
    const head = Int32Array.from({ length: edges }, () => Math.floor(random() * n));
    const tail = Int32Array.from({ length: edges }, () => Math.floor(random() * n));
    const weight = Float64Array.from({ length: edges }, () => 0.05 + random());
    const ids = Array.from({ length: n }, (_, i) => i);
    const schedule = stableSchedule(tail, head, weight, 200, 11, ids);
    const { near, far } = splitEdges({ n, head, tail, schedule });
    const seen: string[] = [];
    const nearQuarters = [
      [0, 1],
      [0, 2],
      [0, 3],
    ];
    for (const [side, part] of [near, far].entries()) {
      for (let r = 0; r < SPLIT_ROUNDS; r++) {
        let last = -1;
        for (let e = part.starts[r]; e < part.starts[r + 1]; e++) {
          for (const point of [part.head[e], part.tail[e]]) {
            expect(nearQuarters[r].includes(quarterOf(point, n))).toBe(side === 0);
          }
          // The edge's own place in the graph: its key and ends, found once, after the last one.
          const at = Array.from(head.keys()).find(
            (i) => i > last && head[i] === part.head[e] && tail[i] === part.tail[e] && schedule.key[i] === part.key[e],
          )!;
          expect(at).toBeGreaterThan(last);
          expect(part.scale[e]).toBe(schedule.scale[at]);
          expect(part.periodLog2[e]).toBe(schedule.periodLog2[at]);
          last = at;
          seen.push(`${part.head[e]}-${part.tail[e]}-${part.key[e]}`);
        }
      }
    }
    const all = Array.from(head.keys(), (i) => `${head[i]}-${tail[i]}-${schedule.key[i]}`);
    expect(seen.sort()).toEqual(all.sort());
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
    // Every epoch's three rounds ran on the worker (500 epochs at this size).
    expect(rounds.length).toBe(500 * SPLIT_ROUNDS);
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
    expect(started[0].length).toBe(2 * 500 * SPLIT_ROUNDS);
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
