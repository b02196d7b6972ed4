/**
 * The stable layout's negative samples (negative-ring.ts): a draw lands on a point by consistent hashing of the
 * points' ids, so a point joining or leaving the set moves only the draws that land on it (⌊u · n⌋ moved a
 * quarter to a half of them), and the push weights make every point repel as often as under a uniform draw.
 */
import { describe, expect, it } from 'vitest';
import { negativeRing, ringPoint, RING_PLACES } from '../../../src/core/cluster/negative-ring';
import { counterBits, counterKey, counterMix } from '../../../src/core/random';

const SEED = 17;
const ids = Array.from({ length: 300 }, (_, i) => 3 * i + 5);
/** Draws like an edge's: a key per edge, a counter per sample. */
const draws = Array.from({ length: 20000 }, (_, i) =>
  counterBits(counterKey(SEED, i % 997, 1), counterMix(i)),
);

describe('negativeRing', () => {
  const ring = negativeRing(ids, SEED);

  it('places RING_PLACES places per point in ascending order, each draw on the first place at or after it', () => {
    expect(ring.hash.length).toBe(ids.length * RING_PLACES);
    for (let j = 1; j < ring.hash.length; j++) expect(ring.hash[j]).toBeGreaterThanOrEqual(ring.hash[j - 1]);
    for (const bits of draws.slice(0, 2000)) {
      const place = ring.hash.findIndex((h) => h >= bits);
      expect(ringPoint(ring, bits)).toBe(ring.point[place === -1 ? 0 : place]);
    }
  });

  it('moves only the draws that land on a point that leaves or joins (position draws move ~half)', () => {
    const gone = 123;
    const without = ids.filter((_, i) => i !== gone);
    const smaller = negativeRing(without, SEED);
    let moved = 0;
    let movedByPosition = 0;
    for (const bits of draws) {
      const before = ringPoint(ring, bits);
      const after = without[ringPoint(smaller, bits)];
      if (ids[before] !== after) {
        moved++;
        // Only the draws that landed on the point that left land elsewhere.
        expect(before).toBe(gone);
      }
      const u = bits / 4294967296;
      if (ids[Math.floor(u * ids.length)] !== without[Math.floor(u * without.length)]) movedByPosition++;
    }
    expect(moved).toBeLessThan(draws.length * (3 / ids.length));
    expect(movedByPosition).toBeGreaterThan(draws.length / 4);
  });

  it('weights each point by 1 / (n · its share): the weighted draws are uniform over the points', () => {
    const hits = new Float64Array(ids.length);
    for (const bits of draws) {
      const p = ringPoint(ring, bits);
      hits[p] += ring.weight[p];
    }
    const expected = draws.length / ids.length;
    const total = hits.reduce((a, b) => a + b, 0);
    expect(Math.abs(total - draws.length)).toBeLessThan(0.03 * draws.length);
    // The shares themselves spread (16 places each); the weights bring them to n · share · weight = 1.
    let sum = 0;
    for (let i = 0; i < ids.length; i++) sum += 1 / ring.weight[i];
    expect(sum / ids.length).toBeCloseTo(1, 10);
    expect(Math.min(...ring.weight)).toBeGreaterThan(0.3);
    expect(Math.max(...ring.weight)).toBeLessThan(3);
    expect(Math.max(...hits) / expected).toBeLessThan(3);
  });

  it('depends on the ids and the seed, not on the order the points come in', () => {
    const reversed = negativeRing([...ids].reverse(), SEED);
    for (const bits of draws.slice(0, 2000)) {
      expect(ids[ids.length - 1 - ringPoint(reversed, bits)]).toBe(ids[ringPoint(ring, bits)]);
    }
    const other = negativeRing(ids, SEED + 1);
    expect(Array.from(other.hash)).not.toEqual(Array.from(ring.hash));
  });
});
