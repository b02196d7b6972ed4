import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../src/core/errors';
import { cosineSimilarity, dot, norm, normalized } from '../../src/core/vector';

describe('vector helpers (hand-computed values)', () => {
  it('dot and norm', () => {
    expect(dot([1, 2, 3], Float32Array.of(4, -5, 6))).toBe(12);
    expect(dot([], [])).toBe(0);
    expect(norm([3, 4])).toBe(5);
    expect(norm(Float64Array.of(1, 2, 2))).toBe(3);
  });

  it('dot names both lengths when they differ', () => {
    expect(() => dot([1, 2], [1, 2, 3])).toThrow(DimensionError);
    expect(() => dot([1, 2], [1, 2, 3])).toThrow(
      expect.objectContaining({ code: 'DIMENSION_MISMATCH', details: { a: 2, b: 3 } }),
    );
    expect(() => dot([1, 2], [1, 2, 3])).toThrow(/2 and 3/);
  });

  it('cosine similarity: 1, 0, −1, scale-free, and 0 for a zero vector', () => {
    expect(cosineSimilarity([1, 0], [5, 0])).toBe(1);
    expect(cosineSimilarity([1, 0], [0, 2])).toBe(0);
    expect(cosineSimilarity([1, 1], [-3, -3])).toBeCloseTo(-1, 15);
    expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(24 / 25, 15);
    expect(cosineSimilarity([0, 0], [1, 2])).toBe(0);
    expect(cosineSimilarity([1, 2], [0, 0])).toBe(0);
  });

  it('normalized returns a unit float32 copy and leaves a zero vector zero', () => {
    const input = [3, 4];
    const unit = normalized(input);
    expect(unit).toBeInstanceOf(Float32Array);
    expect(Array.from(unit)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(input).toEqual([3, 4]);
    expect(Array.from(normalized([0, 0, 0]))).toEqual([0, 0, 0]);
  });
});
