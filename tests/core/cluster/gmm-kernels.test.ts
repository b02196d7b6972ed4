/**
 * The EM kernels against the sums they stand for, computed term by term here: every count of points (passes of
 * four and the remainder), odd and even dimensions (row pairs and the last row alone), responsibilities other than
 * 1, and nothing written outside the documented output (other columns, rows past n, the lower triangle).
 */
import { describe, expect, it } from 'vitest';
import { accumulateScatter, componentLogDensities } from '../../../src/core/cluster/gmm-kernels';
import { seededRandom } from '../../../src/core/random';

const SENTINEL = 1234.5;

function randomArray(random: () => number, length: number): Float64Array {
  return Float64Array.from({ length }, () => random() * 4 - 2);
}

describe('componentLogDensities', () => {
  it('writes norm − ½‖P x − s‖² to its column of rows 0 … n − 1 only', () => {
    const random = seededRandom(31);
    for (let dim = 1; dim <= 4; dim++) {
      const packed = (dim * (dim + 1)) / 2;
      for (let n = 1; n <= 9; n++) {
        // Data sized exactly n × dim; the parameters of component 1 of 2, at their offsets.
        const data = randomArray(random, n * dim);
        const precs = randomArray(random, 2 * packed);
        const shifts = randomArray(random, 2 * dim);
        const norm = random() - 3;
        const stride = 3;
        const column = 1;
        // Two spare rows past n: nothing may land there.
        const out = new Float64Array((n + 2) * stride).fill(SENTINEL);
        componentLogDensities(data, n, dim, precs, packed, shifts, dim, norm, out, stride, column);
        for (let i = 0; i < n + 2; i++) {
          for (let col = 0; col < stride; col++) {
            const got = out[i * stride + col];
            if (i >= n || col !== column) {
              expect(got).toBe(SENTINEL);
              continue;
            }
            // Row r of the packed lower triangle starts at r(r + 1)/2.
            let m = 0;
            for (let r = 0; r < dim; r++) {
              let y = -shifts[dim + r];
              for (let c = 0; c <= r; c++) y += precs[packed + (r * (r + 1)) / 2 + c] * data[i * dim + c];
              m += y * y;
            }
            expect(got).toBeCloseTo(norm - 0.5 * m, 12);
          }
        }
      }
    }
  });
});

describe('accumulateScatter', () => {
  it('adds Σ r (x − μ)(x − μ)ᵀ over the members to the upper triangle, and touches nothing else', () => {
    const random = seededRandom(32);
    for (let dim = 1; dim <= 5; dim++) {
      for (let count = 0; count <= 9; count++) {
        const n = count + 3;
        const data = randomArray(random, n * dim);
        const stride = 2;
        const column = 1;
        // Responsibilities in (0, 1), never 1: a kernel that forgot one would be caught.
        const resp = Float64Array.from({ length: n * stride }, () => 0.05 + 0.9 * random());
        // Members: a scrambled subset of the points.
        const members = Int32Array.from(
          Array.from({ length: n }, (_, i) => i)
            .sort((a, b) => ((a * 7) % n) - ((b * 7) % n) || a - b)
            .slice(0, count),
        );
        const means = randomArray(random, 2 * dim);
        const mo = dim;
        // acc: a starting upper triangle (the kernel adds), the lower triangle and a spare tail as sentinels.
        const acc = new Float64Array(dim * dim + dim + 1).fill(SENTINEL);
        const start = new Float64Array(dim * dim);
        for (let a = 0; a < dim; a++) {
          for (let b = a; b < dim; b++) acc[a * dim + b] = start[a * dim + b] = random();
        }
        accumulateScatter(
          data,
          dim,
          members,
          count,
          resp,
          stride,
          column,
          means,
          mo,
          acc,
          new Float64Array(8 * dim),
        );
        for (let a = 0; a < dim; a++) {
          for (let b = 0; b < dim; b++) {
            if (b < a) {
              expect(acc[a * dim + b]).toBe(SENTINEL);
              continue;
            }
            let s = start[a * dim + b];
            for (const i of members) {
              s +=
                resp[i * stride + column] *
                (data[i * dim + a] - means[mo + a]) *
                (data[i * dim + b] - means[mo + b]);
            }
            expect(acc[a * dim + b]).toBeCloseTo(s, 12);
          }
        }
        for (let t = dim * dim; t < acc.length; t++) expect(acc[t]).toBe(SENTINEL);
      }
    }
  });
});
