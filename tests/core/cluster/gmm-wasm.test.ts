/**
 * The mixture's WebAssembly loops (kernels/gmm.ts via src/core/cluster/gmm-wasm.ts) against their JavaScript twins in
 * gmm-kernels.ts: the same numbers bit for bit for every dimension parity and every remainder of the blocks of
 * four points, and so the same fits, BIC sweeps and choices of k.
 */
import { describe, expect, it } from 'vitest';
import { accumulateScatter, componentLogDensities } from '../../../src/core/cluster/gmm-kernels';
import { createWorkspace, runEm } from '../../../src/core/cluster/gmm-em';
import { createGmmKernel } from '../../../src/core/cluster/gmm-wasm';
import { seededRandom } from '../../../src/core/random';
import { runSweepTask } from '../../../src/core/cluster/select-k';

function randomArray(length: number, seed: number, scale = 1): Float64Array {
  const r = seededRandom(seed);
  return Float64Array.from({ length }, () => (r() - 0.5) * scale);
}

describe('the mixture’s WebAssembly loops', () => {
  it('componentLogDensities: the JavaScript numbers bit for bit (dims 1–11, n mod 4 = 0 … 3)', () => {
    for (const dim of [1, 2, 3, 4, 5, 10, 11]) {
      for (const n of [1, 2, 3, 4, 5, 6, 7, 37]) {
        const packed = (dim * (dim + 1)) / 2;
        const maxK = 3;
        const data = randomArray(n * dim, dim * 100 + n, 4);
        const kernel = createGmmKernel(data, n, dim, maxK)!;
        expect(kernel).toBeDefined();
        const { precs, shifts, resp } = kernel.arrays;
        precs.set(randomArray(maxK * packed, n + 1));
        shifts.set(randomArray(maxK * dim, n + 2));
        const expected = new Float64Array(n * maxK);
        for (let j = 0; j < maxK; j++) {
          componentLogDensities(
            data,
            n,
            dim,
            precs,
            j * packed,
            shifts,
            j * dim,
            -1.5 * j,
            expected,
            maxK,
            j,
          );
          kernel.logDensities(n, j * packed, j * dim, -1.5 * j, maxK, j);
        }
        expect(Array.from(resp.subarray(0, n * maxK))).toEqual(Array.from(expected));
        kernel.release();
      }
    }
  });

  it('accumulateScatter: the JavaScript sums bit for bit (dims 1–11, member counts mod 4 = 0 … 3)', () => {
    for (const dim of [1, 2, 3, 4, 5, 10, 11]) {
      for (const count of [1, 3, 4, 6, 9, 30]) {
        const n = 31;
        const maxK = 2;
        const data = randomArray(n * dim, dim + count, 3);
        const kernel = createGmmKernel(data, n, dim, maxK)!;
        const { resp, means, members, acc, block } = kernel.arrays;
        resp.set(randomArray(n * maxK, count).map(Math.abs));
        means.set(randomArray(maxK * dim, count + 7));
        // Members in a scrambled order, as the M-step lists the points a component owns.
        for (let m = 0; m < count; m++) members[m] = (m * 7 + 3) % n;
        const expected = randomArray(dim * dim, 5);
        acc.set(expected);
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
          expected,
          new Float64Array(8 * dim),
        );
        kernel.scatter(count, maxK, 1, dim);
        expect(Array.from(acc.subarray(0, dim * dim))).toEqual(Array.from(expected));
        // The block scratch was written too: the kernel worked in its own memory.
        expect(block.some((v) => v !== 0)).toBe(true);
        kernel.release();
      }
    }
  });

  it('EM through the kernel fits exactly what plain JavaScript fits (full and spherical)', () => {
    const n = 203;
    const dim = 10;
    const data = randomArray(n * dim, 11, 6);
    // Three shifted groups so EM has structure to find.
    for (let i = 0; i < n; i++) data[i * dim] += (i % 3) * 4;
    for (const covariance of ['full', 'spherical'] as const) {
      const withKernel = createWorkspace(n, dim, 5, data);
      const plain = createWorkspace(n, dim, 5);
      expect(withKernel.kernel).toBeDefined();
      expect(plain.kernel).toBeUndefined();
      const options = { maxIter: 100, tol: 1e-3, reg: 1e-6, covariance };
      const a = runEm(data, 5, seededRandom(2), options, withKernel);
      const b = runEm(data, 5, seededRandom(2), options, plain);
      expect(a).toEqual(b);
      expect(Array.from(withKernel.resp.subarray(0, n * 5))).toEqual(
        Array.from(plain.resp.subarray(0, n * 5)),
      );
      expect(Array.from(withKernel.covs)).toEqual(Array.from(plain.covs));
      withKernel.kernel!.release();
    }
  });

  it('a BIC sweep gives the same criteria whether or not the kernel runs it', () => {
    const n = 120;
    const dim = 4;
    const data = randomArray(n * dim, 21, 5);
    const task = {
      data,
      n,
      dim,
      ks: [1, 2, 3, 4, 5, 6],
      seed: 9,
      regCovar: 1e-6,
      covariance: 'full' as const,
      minComponentSize: dim,
      criterion: 'bic' as const,
    };
    const kernelRun = runSweepTask(task);
    const original = globalThis.WebAssembly;
    let jsRun;
    try {
      // Without WebAssembly the same workspaces hold plain arrays and EM runs in JavaScript.
      (globalThis as { WebAssembly?: unknown }).WebAssembly = undefined;
      expect(createWorkspace(n, dim, 6, data).kernel).toBeUndefined();
      jsRun = runSweepTask(task);
    } finally {
      (globalThis as { WebAssembly?: unknown }).WebAssembly = original;
    }
    expect(kernelRun.bic.every(Number.isFinite)).toBe(true);
    expect(kernelRun).toEqual(jsRun);
  });
});
