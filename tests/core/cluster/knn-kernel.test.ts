/**
 * The k-NN scan's WebAssembly kernel (kernels/knn.ts) against its JavaScript twin: the same dot products bit
 * for bit, for every dimension remainder (dim mod 4) and every block size, hence the same graphs.
 */
import { describe, expect, it } from 'vitest';
import { exactCosineKnn, rowScorer } from '../../../src/core/cluster/knn';
import { seededRandom } from '../../../src/core/random';
import { runSync } from '../../../src/core/yield';

function randomUnit(n: number, dim: number, seed: number): Float32Array {
  const r = seededRandom(seed);
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < dim; t++) s += (out[i * dim + t] = r() - 0.5) ** 2;
    for (let t = 0; t < dim; t++) out[i * dim + t] /= Math.sqrt(s);
  }
  return out;
}

describe('the k-NN scan kernel', () => {
  it('gives the JavaScript scan’s dot products bit for bit, for dim mod 4 = 0 … 3 and blocks of 1–4 rows', () => {
    const n = 37;
    for (const dim of [1, 3, 4, 10, 381, 382, 383, 384]) {
      const unit = randomUnit(n, dim, dim);
      const kernel = rowScorer(unit, n, dim, 'auto');
      const js = rowScorer(unit, n, dim, 'js');
      for (const [first, count] of [
        [0, 4],
        [5, 3],
        [33, 4],
        [36, 1],
        [10, 2],
      ]) {
        const a = Array.from(kernel.score(first, count).subarray(0, count * n));
        const b = Array.from(js.score(first, count).subarray(0, count * n));
        expect(a).toEqual(b);
      }
    }
  });

  it('is a real dot product: row · row is 1 for unit rows, and matches a plain sum closely', () => {
    const n = 9;
    const dim = 50;
    const unit = randomUnit(n, dim, 4);
    const dots = rowScorer(unit, n, dim, 'auto').score(2, 3);
    for (let q = 0; q < 3; q++) {
      expect(dots[q * n + 2 + q]).toBeCloseTo(1, 6);
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let t = 0; t < dim; t++) s += unit[(2 + q) * dim + t] * unit[j * dim + t];
        expect(dots[q * n + j]).toBeCloseTo(s, 12);
      }
    }
  });

  it('gives the JavaScript scan’s graph, rows in blocks of four with a remainder', () => {
    const n = 103;
    const dim = 24;
    const unit = randomUnit(n, dim, 8);
    expect(runSync(exactCosineKnn(unit, n, dim, 7))).toEqual(runSync(exactCosineKnn(unit, n, dim, 7, 'js')));
  });
});
