/**
 * Aerie's own BM25+ index (src/core/search/bm25.ts), held to figures worked by hand: the own field, the nearby
 * field summed from the neighbours' own counts at question time, repeats in the question and MiniSearch's
 * "quality" factor (the scores MiniSearch gave, which the retrieval settings were measured with).
 */
import { describe, expect, it } from 'vitest';
import { Bm25Index, inverseFrequency } from '../../../src/core/search/bm25';

/**
 * Leaves 0–2 of one document (each the others' neighbour) and a summary 3:
 * 0 "a b", 1 "a a c", 2 "d", 3 "b". Own lengths (distinct terms) 2, 2, 1, 1 (mean 1.5); nearby fields
 * 0: {a a c d} (3 distinct), 1: {a b d} (3), 2: {a b a a c} (3), 3: none (mean 9 / 4 = 2.25).
 */
function small(): Bm25Index {
  const index = new Bm25Index(4, [[1, 2], [0, 2], [0, 1], undefined], 0.1);
  index.add(0, ['a', 'b'], 3);
  index.add(1, ['a', 'a', 'c'], 3);
  index.add(2, ['d'], 3);
  index.add(3, ['b'], 0);
  return index;
}

describe('Bm25Index', () => {
  it('scores the own and the nearby field as BM25+ with k1 1.2, b 0.7, δ 0.5', () => {
    const scores = new Float64Array(4);
    expect(small().score(['a'], scores)).toBe(3);
    // Own: idf ln(1 + 2.5 / 2.5) = ln 2; node 0 (tf 1, length 2): 0.5 + 2.2 / (1 + 1.2 (0.3 + 0.7 · 2 / 1.5)).
    // Nearby ("a" in 3 leaves' nearby fields): idf ln(1 + 1.5 / 3.5), weight 0.1; tf 2, 1 and 3, length 3 each.
    expect(scores[0]).toBeCloseTo(0.961462 + 0.062931, 5);
    expect(scores[1]).toBeCloseTo(1.222967 + 0.049474, 5);
    expect(scores[2]).toBeCloseTo(0.07038, 5);
    expect(scores[3]).toBe(0);
  });

  it('counts a repeated question word again, and multiplies by the distinct words a node matched', () => {
    const index = small();
    const once = new Float64Array(4);
    const twice = new Float64Array(4);
    index.score(['b'], once);
    index.score(['b', 'b'], twice);
    expect(twice[3]).toBeCloseTo(2 * once[3], 12);
    const both = new Float64Array(4);
    const a = new Float64Array(4);
    index.score(['a'], a);
    index.score(['a', 'b'], both);
    // Node 0 holds both words: (its "a" part + its "b" part) × 2. Node 3 holds "b" only: × 1.
    expect(both[0]).toBeCloseTo(2 * (a[0] + once[0]), 12);
    expect(both[3]).toBeCloseTo(once[3], 12);
  });

  it('clears earlier scores, ignores unknown words and says how many nodes matched', () => {
    const index = small();
    const scores = new Float64Array(4).fill(9);
    expect(index.score(['zzz'], scores)).toBe(0);
    expect([...scores]).toEqual([0, 0, 0, 0]);
    expect(index.score(['c'], scores)).toBe(3);
    expect(index.holding('a')).toBe(2);
    expect(index.terms).toBe(4);
    expect(inverseFrequency(4, 2)).toBeCloseTo(Math.LN2, 12);
  });
});
