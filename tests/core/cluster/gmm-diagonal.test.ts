/**
 * The diagonal loops of the 'diag' and 'spherical' mixtures (gmm-kernels.ts, kernels/gmm.ts): the full loops'
 * numbers bit for bit on a factor whose off-diagonal entries are 0 (as those families' are), in JavaScript and
 * in WebAssembly, for every dimension parity and every remainder of the blocks of four points; and a sweep of
 * each family, which now takes them, choosing as a fit of each k on its own does.
 */
import { describe, expect, it } from 'vitest';
import {
  accumulateDiagonalScatter,
  accumulateScatter,
  componentLogDensities,
  diagonalLogDensities,
} from '../../../src/core/cluster/gmm-kernels';
import { createGmmKernel } from '../../../src/core/cluster/gmm-wasm';
import { fitGmm } from '../../../src/core/cluster/gmm';
import { selectClusterCount } from '../../../src/core/cluster/select-k';
import { seededRandom } from '../../../src/core/random';

function randomArray(length: number, seed: number, scale = 1): Float64Array {
  const r = seededRandom(seed);
  return Float64Array.from({ length }, () => (r() - 0.5) * scale);
}

/** k packed lower-triangular factors with random diagonals and off-diagonal entries 0 (some −0, as L⁻¹'s are). */
function diagonalFactors(k: number, dim: number, seed: number): Float64Array {
  const packed = (dim * (dim + 1)) / 2;
  const r = seededRandom(seed);
  const out = new Float64Array(k * packed);
  for (let j = 0; j < k; j++) {
    for (let row = 0, p = j * packed; row < dim; p += ++row) {
      for (let c = 0; c < row; c++) out[p + c] = r() < 0.5 ? -0 : 0;
      out[p + row] = 0.2 + r() * 3;
    }
  }
  return out;
}

const DIMS = [1, 2, 3, 4, 5, 10, 11];

describe('the diagonal mixtures’ loops', () => {
  it('diagonalLogDensities: the full loop’s numbers bit for bit, in JavaScript and in WebAssembly', () => {
    for (const dim of DIMS) {
      for (const n of [1, 2, 3, 4, 5, 6, 7, 37]) {
        const packed = (dim * (dim + 1)) / 2;
        const maxK = 3;
        const data = randomArray(n * dim, dim * 100 + n, 4);
        const kernel = createGmmKernel(data, n, dim, maxK)!;
        const { precs, shifts, resp } = kernel.arrays;
        precs.set(diagonalFactors(maxK, dim, n + 1));
        shifts.set(randomArray(maxK * dim, n + 2));
        const full = new Float64Array(n * maxK);
        const diagonal = new Float64Array(n * maxK);
        for (let j = 0; j < maxK; j++) {
          const args = [data, n, dim, precs, j * packed, shifts, j * dim, -1.5 * j] as const;
          componentLogDensities(...args, full, maxK, j);
          diagonalLogDensities(...args, diagonal, maxK, j);
          kernel.logDensities(n, j * packed, j * dim, -1.5 * j, maxK, j, true);
        }
        expect(Array.from(diagonal)).toEqual(Array.from(full));
        expect(Array.from(resp.subarray(0, n * maxK))).toEqual(Array.from(full));
        kernel.release();
      }
    }
  });

  it('accumulateDiagonalScatter: the full scatter’s diagonal bit for bit, in JavaScript and in WebAssembly', () => {
    for (const dim of DIMS) {
      for (const count of [1, 3, 4, 6, 9, 30]) {
        const n = 31;
        const maxK = 2;
        const data = randomArray(n * dim, dim + count, 3);
        const kernel = createGmmKernel(data, n, dim, maxK)!;
        const { resp, means, members, acc } = kernel.arrays;
        resp.set(randomArray(n * maxK, count + 5).map(Math.abs));
        means.set(randomArray(maxK * dim, count + 6));
        const r = seededRandom(count);
        for (let m = 0; m < count; m++) members[m] = Math.floor(r() * n);
        const full = new Float64Array(dim * dim);
        accumulateScatter(
          data,
          dim,
          members,
          count,
          resp,
          maxK,
          1,
          means,
          dim,
          full,
          new Float64Array(8 * dim),
        );
        const diagonal = new Float64Array(dim * dim);
        accumulateDiagonalScatter(data, dim, members, count, resp, maxK, 1, means, dim, diagonal);
        acc.fill(0);
        kernel.diagonalScatter(count, maxK, 1, dim);
        for (let a = 0; a < dim; a++) {
          expect(diagonal[a * dim + a]).toBe(full[a * dim + a]);
          expect(acc[a * dim + a]).toBe(full[a * dim + a]);
        }
        kernel.release();
      }
    }
  });

  it('a spherical and a diag sweep score every k as a fit of that k alone does, and choose its k', () => {
    const r = seededRandom(12);
    const points = Array.from({ length: 150 }, (_, i) =>
      Float64Array.from({ length: 10 }, () => (i % 5) * 4 + (r() - 0.5) * 2),
    );
    for (const covariance of ['spherical', 'diag'] as const) {
      const sweep = selectClusterCount(points, { covariance, maxClusters: 12, seed: 5, minComponentSize: 3 });
      expect(sweep.k).toBe(5);
      for (const k of [1, 4, 5, 9]) {
        const alone = fitGmm(points, k, { covariance, seed: 5, regCovarMode: 'relative' });
        expect(sweep.bic[k - 1]).toBe(alone.bic);
      }
    }
  });
});
