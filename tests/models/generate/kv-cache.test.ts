/**
 * The batch's key/value cache arithmetic on small arrays: gathering rows left-padded (joining, leaving,
 * trimming), and the attention mask of a step.
 */
import { describe, expect, it } from 'vitest';
import { gatherRows, KvCacheError, stepAttentionMask, type KvTensor } from '../../../src/models/generate';

/** A cache of `rows` rows, 2 heads, `positions` positions, dim 2, whose values say where they are. */
function cache(rows: number, positions: number, tag = 0): KvTensor<Float32Array> {
  const heads = 2;
  const dim = 2;
  const data = new Float32Array(rows * heads * positions * dim);
  for (let r = 0; r < rows; r++)
    for (let h = 0; h < heads; h++)
      for (let p = 0; p < positions; p++)
        for (let d = 0; d < dim; d++)
          data[((r * heads + h) * positions + p) * dim + d] = tag + r * 1000 + h * 100 + p * 10 + d + 1;
  return { data, dims: [rows, heads, positions, dim] };
}

/** Row `row`, head `head` of a cache as [position][dim]. */
function slice(t: KvTensor, row: number, head: number): number[][] {
  const [, heads, positions, dim] = t.dims;
  return Array.from({ length: positions }, (_, p) =>
    Array.from({ length: dim }, (_, d) => t.data[((row * heads + head) * positions + p) * dim + d]),
  );
}

describe('gatherRows', () => {
  it('places each row’s real positions at the end, zeros before them', () => {
    const a = cache(1, 3, 0); // a prompt of 3 positions
    const b = cache(1, 5, 50_000); // a prompt of 5
    const out = gatherRows(
      [
        { cache: a, row: 0, positions: 3 },
        { cache: b, row: 0, positions: 5 },
      ],
      5,
    );
    expect(out.dims).toEqual([2, 2, 5, 2]);
    expect(out.data).toBeInstanceOf(Float32Array);
    expect(slice(out, 0, 1)).toEqual([[0, 0], [0, 0], ...slice(a, 0, 1)]);
    expect(slice(out, 1, 0)).toEqual(slice(b, 0, 0));
  });

  it('drops a row and the padding no remaining row needs (a row leaving the batch)', () => {
    const batch = gatherRows(
      [
        { cache: cache(1, 2), row: 0, positions: 2 },
        { cache: cache(1, 6, 7_000), row: 0, positions: 6 },
        { cache: cache(1, 4, 9_000), row: 0, positions: 4 },
      ],
      6,
    );
    // The longest row leaves: the cache shrinks to the longest remaining row.
    const out = gatherRows(
      [
        { cache: batch, row: 0, positions: 2 },
        { cache: batch, row: 2, positions: 4 },
      ],
      4,
    );
    expect(out.dims).toEqual([2, 2, 4, 2]);
    expect(slice(out, 0, 0)).toEqual([[0, 0], [0, 0], ...slice(cache(1, 2), 0, 0)]);
    expect(slice(out, 1, 1)).toEqual(slice(cache(1, 4, 9_000), 0, 1));
  });

  it('keeps the array type (fp16 caches are Uint16Array)', () => {
    const half: KvTensor<Uint16Array> = { data: new Uint16Array([1, 2, 3, 4]), dims: [1, 1, 2, 2] };
    const out = gatherRows([{ cache: half, row: 0, positions: 2 }], 3);
    expect(out.data).toBeInstanceOf(Uint16Array);
    expect([...out.data]).toEqual([0, 0, 1, 2, 3, 4]);
  });

  it('refuses rows of other shapes, or that do not fit', () => {
    const wide: KvTensor = { data: new Float32Array(12), dims: [1, 2, 2, 3] };
    expect(() =>
      gatherRows(
        [
          { cache: cache(1, 2), row: 0, positions: 2 },
          { cache: wide, row: 0, positions: 2 },
        ],
        2,
      ),
    ).toThrow(KvCacheError);
    expect(() => gatherRows([{ cache: cache(1, 4), row: 0, positions: 4 }], 3)).toThrow(KvCacheError);
    expect(() => gatherRows([{ cache: cache(1, 4), row: 1, positions: 2 }], 4)).toThrow(KvCacheError);
    expect(() => gatherRows([], 4)).toThrow(KvCacheError);
  });
});

describe('stepAttentionMask', () => {
  it('hides each row’s padding and shows its real positions and the new token', () => {
    expect([...stepAttentionMask([2, 4, 0], 4)]).toEqual(
      [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1].map(BigInt),
    );
    expect(() => stepAttentionMask([5], 4)).toThrow(KvCacheError);
  });
});
