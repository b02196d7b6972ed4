/** Mean pooling of token states over a text and its sentences, on hand-worked numbers. */
import { describe, expect, it } from 'vitest';
import { poolRows, sentenceRanges } from '../../src/core/pooling';

describe('poolRows', () => {
  it('writes the unit-length mean of the chosen rows, reading the block from its base', () => {
    // Two blocks of three 2-d rows; the second block starts at 6.
    const states = Float32Array.from([9, 9, 9, 9, 9, 9, 1, 2, 3, 2, 99, 99]);
    const out = new Float32Array(4);
    poolRows(states, 6, 2, 0, 2, out, 2);
    // Mean of (1,2) and (3,2) = (2,2); unit length (0.7071, 0.7071); written at 2, nothing before it.
    expect(Array.from(out.subarray(0, 2))).toEqual([0, 0]);
    expect(out[2]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(out[3]).toBeCloseTo(Math.SQRT1_2, 6);
    poolRows(states, 6, 2, 1, 2, out, 0);
    expect(out[0]).toBeCloseTo(3 / Math.sqrt(13), 6);
    expect(out[1]).toBeCloseTo(2 / Math.sqrt(13), 6);
  });

  it('leaves a zero mean at zero instead of dividing by zero', () => {
    const out = new Float32Array(2);
    poolRows(Float32Array.from([1, -1, -1, 1]), 0, 2, 0, 2, out, 0);
    expect(Array.from(out)).toEqual([0, 0]);
  });
});

describe('sentenceRanges', () => {
  it('places sentences one after the other between the special tokens', () => {
    expect(sentenceRanges(9, [3, 4])).toEqual([
      [1, 4],
      [4, 8],
    ]);
    expect(sentenceRanges(5, [5], 0, 0)).toEqual([[0, 5]]);
  });

  it('gives none when the sentences do not add up to the text or one is empty', () => {
    expect(sentenceRanges(10, [3, 4])).toBeUndefined();
    expect(sentenceRanges(8, [3, 4])).toBeUndefined();
    expect(sentenceRanges(6, [4, 0])).toBeUndefined();
  });
});
