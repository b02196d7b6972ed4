/**
 * The WebAssembly scoring kernel (dot-kernel.ts) against the JavaScript loop it replaces: bit-for-bit the same
 * dot products, for dimensions that are and are not multiples of four, and the same collapsed-tree selections.
 */
import { describe, expect, it } from 'vitest';
import {
  allocateRows,
  createDotKernel,
  DOT_KERNEL_BYTES,
  KERNEL_MEMORY_MIN_VALUES,
} from '../../src/core/dot-kernel';
import { seededRandom } from '../../src/core/random';
import { norm } from '../../src/core/vector';

/** retrieve.ts's `queryDot`, written out: four running sums, leftovers into the first, (s0 + s1) + (s2 + s3). */
function referenceDot(query: Float64Array, rows: Float32Array, offset: number): number {
  const whole = query.length - (query.length % 4);
  const s = [0, 0, 0, 0];
  let k = 0;
  for (; k < whole; k++) s[k % 4] += query[k] * rows[offset + k];
  for (; k < query.length; k++) s[0] += query[k] * rows[offset + k];
  return s[0] + s[1] + (s[2] + s[3]);
}

/** vector.ts's `norm`, written out: one float64 running sum of the squares in coordinate order, then √. */
function referenceNorm(rows: Float32Array, offset: number, dim: number): number {
  let s = 0;
  for (let k = 0; k < dim; k++) s += rows[offset + k] * rows[offset + k];
  return Math.sqrt(s);
}

describe('DotKernel.norms', () => {
  // Row counts around multiples of the eight rows it sums side by side, so both of its loops run.
  for (const [count, dim] of [
    [1, 384],
    [7, 5],
    [8, 3],
    [9, 1],
    [17, 387],
    [23, 2],
    [500, 384],
    [3, 768],
  ]) {
    it(`gives vector.ts's norm of every row bit for bit (${count} rows × ${dim})`, () => {
      const random = seededRandom(count * 7 + dim);
      // Magnitudes from 1e-20 to 1e3 in one row, so the order of the additions shows in the last bits.
      const rows = Float32Array.from(
        { length: count * dim },
        (_, i) => (random() - 0.5) * 10 ** ((i % 8) * 3 - 20),
      );
      const kernel = createDotKernel(rows, count, dim)!;
      const out = new Float64Array(count).fill(-1);
      kernel.norms(out);
      const mismatches: number[] = [];
      for (let r = 0; r < count; r++) {
        const expected = referenceNorm(rows, r * dim, dim);
        if (!Object.is(out[r], expected) || !Object.is(out[r], norm(rows.subarray(r * dim, (r + 1) * dim))))
          mismatches.push(r);
      }
      expect(mismatches).toEqual([]);
    });
  }

  it('gives each row its own norm (rows differ only in scale)', () => {
    const count = 19;
    const dim = 4;
    const rows = new Float32Array(count * dim);
    for (let r = 0; r < count; r++) rows.set([3 * (r + 1), 4 * (r + 1), 0, 0], r * dim);
    const out = new Float64Array(count);
    createDotKernel(rows, count, dim)!.norms(out);
    expect(Array.from(out)).toEqual(Array.from({ length: count }, (_, r) => 5 * (r + 1)));
  });
});

describe('createDotKernel', () => {
  it('is valid WebAssembly with SIMD here (Node 20, as in Chromium)', () => {
    expect(WebAssembly.validate(DOT_KERNEL_BYTES)).toBe(true);
  });

  for (const [count, dim] of [
    [500, 384],
    [33, 387],
    [9, 1],
    [4, 2],
    [7, 5],
    [3, 768],
  ]) {
    it(`gives the JavaScript loop's dot products bit for bit (${count} rows × ${dim})`, () => {
      const random = seededRandom(count * 1000 + dim);
      const rows = Float32Array.from({ length: count * dim }, () => random() * 2 - 1);
      const query = Float64Array.from({ length: dim }, () => random() * 2 - 1);
      const kernel = createDotKernel(rows, count, dim);
      expect(kernel).toBeDefined();
      const out = new Float64Array(count);
      kernel!.dots(query, out);
      const mismatches: number[] = [];
      for (let r = 0; r < count; r++)
        if (!Object.is(out[r], referenceDot(query, rows, r * dim))) mismatches.push(r);
      expect(mismatches).toEqual([]);
      // A second query on the same kernel: nothing left over from the first.
      const again = Float64Array.from({ length: dim }, () => random() - 0.5);
      kernel!.dots(again, out);
      expect(out[count - 1]).toBe(referenceDot(again, rows, (count - 1) * dim));
    });
  }

  it('scores from its own copy of the rows, taken when it is made', () => {
    const rows = Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0]);
    const kernel = createDotKernel(rows, 2, 4)!;
    rows[0] = 5;
    const out = new Float64Array(2);
    kernel.dots(Float64Array.from([1, 1, 0, 0]), out);
    expect(Array.from(out)).toEqual([1, 1]);
  });

  it('makes no kernel for nothing to score', () => {
    expect(createDotKernel(new Float32Array(0), 0, 384)).toBeUndefined();
    expect(createDotKernel(new Float32Array(0), 5, 0)).toBeUndefined();
  });
});

describe('allocateRows', () => {
  it('keeps small trees in a plain Float32Array (copied for the kernel at their first query)', () => {
    const small = allocateRows(10, 384);
    expect(small.byteOffset).toBe(0);
    expect(small.buffer.byteLength).toBe(10 * 384 * 4);
    const large = allocateRows(200, 384);
    expect(large.byteOffset).toBeGreaterThan(0);
    expect(large.length).toBe(200 * 384);
  });

  it('places rows in kernel memory, where the kernel scores them in place (no copy)', () => {
    const rows = allocateRows(3, 4, 0);
    expect(rows.length).toBe(12);
    expect(Array.from(rows)).toEqual(new Array(12).fill(0));
    // After the query (4 float64) and score (3 float64) slots, 16-byte aligned.
    expect(rows.byteOffset).toBe(32 + 32);
    rows.set([1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0]);
    const kernel = createDotKernel(rows, 3, 4)!;
    const out = new Float64Array(3);
    kernel.dots(Float64Array.from([1, 1, 1, 1]), out);
    expect(Array.from(out)).toEqual([1, 2, 3]);
    // In place: a later write to the rows is what the kernel reads.
    rows[0] = 7;
    kernel.dots(Float64Array.from([1, 1, 1, 1]), out);
    expect(out[0]).toBe(7);
  });

  it('a view of only some rows of kernel memory is copied, not read in place', () => {
    const rows = allocateRows(4, 2, 0);
    rows.set([1, 0, 2, 0, 3, 0, 4, 0]);
    const kernel = createDotKernel(rows.subarray(2), 3, 2)!;
    const out = new Float64Array(3);
    kernel.dots(Float64Array.from([1, 0]), out);
    expect(Array.from(out)).toEqual([2, 3, 4]);
  });
});

describe('rows the kernel must not read in place', () => {
  it('a view of as many rows further into kernel memory is copied', () => {
    const rows = allocateRows(4, 2, 0);
    rows.set([1, 0, 2, 0, 3, 0, 4, 0]);
    // Four rows from row 1: the same count and dimension, another offset (the memory's page has room).
    const shifted = new Float32Array(rows.buffer, rows.byteOffset + 2 * 4, 8);
    const kernel = createDotKernel(shifted, 4, 2)!;
    const out = new Float64Array(4);
    kernel.dots(Float64Array.from([1, 0]), out);
    expect(Array.from(out)).toEqual([2, 3, 4, 0]);
  });

  it('rows laid out for a smaller dimension are copied (the query would overlap their score slots)', () => {
    const rows = allocateRows(4, 2, 0);
    // The same place read as 4 rows of 3 (the memory's page has room): a 3-d query is longer than the 2-d
    // one the layout left room for, so scoring in place would overwrite it with the first score.
    const wider = new Float32Array(rows.buffer, rows.byteOffset, 12);
    wider.set(Array.from({ length: 12 }, (_, i) => i + 1));
    const kernel = createDotKernel(wider, 4, 3)!;
    const out = new Float64Array(4);
    kernel.dots(Float64Array.from([0, 0, 1]), out);
    expect(Array.from(out)).toEqual([3, 6, 9, 12]);
    const norms = new Float64Array(4);
    kernel.norms(norms);
    expect(Array.from(norms)).toEqual([14, 77, 194, 365].map(Math.sqrt));
  });

  it('allocateRows falls back to a plain array when WebAssembly memory cannot be had', () => {
    const wasm = WebAssembly as unknown as { Memory: unknown };
    const original = wasm.Memory;
    wasm.Memory = function () {
      throw new RangeError('WebAssembly.Memory(): could not allocate memory');
    };
    try {
      const rows = allocateRows(200, 384);
      expect(rows.byteOffset).toBe(0);
      expect(rows.buffer.byteLength).toBe(200 * 384 * 4);
      expect(rows.length).toBe(200 * 384);
    } finally {
      wasm.Memory = original;
    }
  });
});

describe('the kernel in retrieval', () => {
  it('is what scores the official Cinderella tree (40 nodes × 1536), whose retrieval cases it must pass', async () => {
    const { readFileSync } = await import('node:fs');
    const { parseTree } = await import('../../src/core/tree-format');
    const tree = parseTree(JSON.parse(readFileSync('tests/fixtures/official-cinderella-tree.json', 'utf8')));
    // Loaded into kernel memory (offset past the query and score slots), so scored in place there.
    expect(40 * 1536).toBeGreaterThanOrEqual(KERNEL_MEMORY_MIN_VALUES);
    expect(tree.nodes[0].embedding.byteOffset).toBe(1536 * 8 + 40 * 8);
  });
});
