import { describe, expect, it } from 'vitest';
import { paddingShare } from '../../bench/build/padding';

describe('paddingShare', () => {
  it('pads each batch to its longest text, within calls taken in the given order', () => {
    const lengths = [10, 2, 8, 4];
    // One call of all four, batches of 2 longest first: [10, 8] → 20, [4, 2] → 8; real 24.
    expect(paddingShare(lengths, [0, 1, 2, 3], 4, 2)).toBeCloseTo(28 / 24 - 1, 12);
    // Calls of 2 in document order: [10, 2] → 20, [8, 4] → 16; real 24.
    expect(paddingShare(lengths, [0, 1, 2, 3], 2, 2)).toBeCloseTo(36 / 24 - 1, 12);
    // Calls of 2 longest first: [10, 8] and [4, 2], as in one call.
    expect(paddingShare(lengths, [0, 2, 3, 1], 2, 2)).toBeCloseTo(28 / 24 - 1, 12);
    // Batches of 1 never pad; equal lengths never pad; nothing to embed pads nothing.
    expect(paddingShare(lengths, [0, 1, 2, 3], 2, 1)).toBe(0);
    expect(paddingShare([5, 5, 5], [2, 0, 1], 3, 3)).toBe(0);
    expect(paddingShare([], [], 4, 2)).toBe(0);
  });
});
