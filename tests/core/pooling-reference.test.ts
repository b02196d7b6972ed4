/**
 * `poolRows` against transformers.js's own `mean_pooling` and `Tensor.normalize` (the pipeline's
 * `pooling: 'mean', normalize: true`), bit for bit, on random token states; and rows pooled in any order
 * into one output array leave every other row as it was.
 */
import { mean_pooling, Tensor } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { poolRows } from '../../src/core/pooling';
import { seededRandom } from '../../src/core/random';

describe('poolRows equals transformers.js mean pooling and normalisation', () => {
  it('bit for bit, for texts of several lengths padded to one width', () => {
    const random = seededRandom(5);
    const [batch, width, dim] = [4, 9, 7];
    const lengths = [9, 1, 5, 3];
    const states = Float32Array.from({ length: batch * width * dim }, () => random() * 4 - 2);
    const mask = BigInt64Array.from({ length: batch * width }, (_, i) =>
      i % width < lengths[Math.floor(i / width)] ? 1n : 0n,
    );
    const reference = mean_pooling(
      new Tensor('float32', states, [batch, width, dim]),
      new Tensor('int64', mask, [batch, width]),
    ).normalize(2, -1).data as Float32Array;
    const out = new Float32Array(batch * dim);
    lengths.forEach((length, row) => poolRows(states, row * width * dim, dim, 0, length, out, row * dim));
    expect(Array.from(out)).toEqual(Array.from(reference));
  });
});

describe('poolRows writes only its own row', () => {
  it('rows pooled last-first into one array equal rows pooled alone', () => {
    const random = seededRandom(9);
    const [rows, tokens, dim] = [5, 4, 3];
    const states = Float32Array.from({ length: rows * tokens * dim }, () => random() * 2 - 1);
    const together = new Float32Array(rows * dim);
    for (let row = rows - 1; row >= 0; row--)
      poolRows(states, row * tokens * dim, dim, 0, tokens, together, row * dim);
    for (let row = 0; row < rows; row++) {
      const alone = new Float32Array(dim);
      poolRows(states, row * tokens * dim, dim, 0, tokens, alone, 0);
      expect(Array.from(together.subarray(row * dim, (row + 1) * dim))).toEqual(Array.from(alone));
    }
  });
});
