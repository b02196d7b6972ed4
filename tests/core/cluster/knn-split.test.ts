/**
 * The exact k-NN scan in blocks of rows (`runKnnRowsTask`, `exactCosineKnnSplit`), as a pool of workers runs
 * it: the same graph as the one-piece scan (`exactCosineKnn`) for any number of parts, blocks finishing in any
 * order. The "workers" here are FAKE: `runKnnRowsTask` called in this process after a structured-clone round
 * trip and a random delay.
 */
import { describe, expect, it } from 'vitest';
import {
  exactCosineKnn,
  exactCosineKnnSplit,
  runKnnRowsTask,
  type KnnRowsTask,
} from '../../../src/core/cluster/knn';
import { seededRandom } from '../../../src/core/random';
import { reduceDimensions } from '../../../src/core/cluster/umap';
import { runSync } from '../../../src/core/yield';

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

/** The one-piece graph. */
const wholeGraph = (unit: Float32Array, n: number, dim: number, k: number) =>
  runSync(exactCosineKnn(unit, n, dim, k));

describe('exactCosineKnnSplit', () => {
  for (const [n, dim, k] of [
    [1, 3, 1],
    [2, 4, 2],
    [9, 5, 4],
    [60, 16, 8],
    [131, 7, 11],
  ]) {
    it(`gives exactCosineKnn's graph for ${n} rows, k = ${k}, in 1, 2, 3, 7 and ${n + 4} parts`, async () => {
      const unit = unitRows(n, dim, n * 31 + k);
      const expected = wholeGraph(unit, n, dim, k);
      const random = seededRandom(n);
      for (const parts of [1, 2, 3, 7, n + 4]) {
        const tasks: KnnRowsTask[] = [];
        const done: number[] = [];
        const graph = await exactCosineKnnSplit(
          unit,
          n,
          dim,
          k,
          parts,
          async (task) => {
            tasks.push(task);
            await new Promise((r) => setTimeout(r, Math.floor(random() * 8)));
            return structuredClone(runKnnRowsTask(structuredClone(task)));
          },
          (rows) => done.push(rows),
        );
        expect(graph).toEqual(expected);
        // Contiguous blocks covering every row once, at most one per row.
        const blocks = tasks.map((t) => [t.start, t.end]).sort((a, b) => a[0] - b[0]);
        expect(blocks.length).toBe(Math.min(parts, n));
        expect(blocks[0][0]).toBe(0);
        expect(blocks[blocks.length - 1][1]).toBe(n);
        blocks.slice(1).forEach((b, i) => expect(b[0]).toBe(blocks[i][1]));
        expect(done[done.length - 1]).toBe(n);
        expect(done).toEqual([...done].sort((a, b) => a - b));
      }
    });
  }

  it('runKnnRowsTask gives the rows it was asked for, row-major, self first', () => {
    const unit = Float32Array.from([1, 0, 0.6, 0.8, 0, 1, -1, 0]);
    const rows = runKnnRowsTask({ unit, n: 4, dim: 2, k: 3, start: 1, end: 3 });
    // Row 1 (0.6, 0.8): row 2 (0, 1) at 1 − 0.8, then row 0 at 1 − 0.6. Row 2: row 1, then row 0 at distance 1.
    expect(Array.from(rows.indices)).toEqual([1, 2, 0, 2, 1, 0]);
    expect(Array.from(rows.distances)).toEqual([
      0,
      1 - 0.800000011920929,
      1 - 0.6000000238418579,
      0,
      1 - 0.800000011920929,
      1,
    ]);
  });
});

describe('reduceDimensions with a given graph', () => {
  it('gives the coordinates it computes from its own exact graph, bit for bit', () => {
    const n = 80;
    const dim = 12;
    const unit = unitRows(n, dim, 5);
    const options = { nComponents: 3, nNeighbors: 9, seed: 17 };
    const own = runSync(reduceDimensions(unit, n, dim, options));
    const given = runSync(reduceDimensions(unit, n, dim, { ...options, graph: wholeGraph(unit, n, dim, 9) }));
    expect(given.length).toBe(own.length);
    expect(Array.from(given).every((x, i) => Object.is(x, own[i]))).toBe(true);
  });

  it('refuses a graph with another neighbour count or row count', () => {
    const unit = unitRows(30, 4, 6);
    const options = { nComponents: 2, nNeighbors: 5, seed: 1 };
    expect(() =>
      runSync(reduceDimensions(unit, 30, 4, { ...options, graph: wholeGraph(unit, 30, 4, 6) })),
    ).toThrow(/exact graph of the 30 points with 5 neighbours/);
    expect(() =>
      runSync(
        reduceDimensions(unit, 30, 4, { ...options, graph: wholeGraph(unit.subarray(0, 29 * 4), 29, 4, 5) }),
      ),
    ).toThrow(RangeError);
  });
});
