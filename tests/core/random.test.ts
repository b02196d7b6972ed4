/**
 * The seeded generator through properties any good one must have: determinism, range, uniformity (a
 * chi-square test at a fixed seed), independence of derived streams.
 */
import { describe, expect, it } from 'vitest';
import {
  counterDraw,
  counterKey,
  counterMix,
  deriveSeed,
  randomInt,
  randomState,
  seededRandom,
  setRandomState,
} from '../../src/core/random';

const draws = (seed: number, count: number) => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => random());
};

/** Pearson's chi-square statistic of counts against equal expected counts. */
function chiSquare(counts: number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
}

/** 99.9th percentile of chi-square with 99 degrees of freedom (tables): a fair generator exceeds it 1 in 1,000. */
const CHI2_99_DF_999 = 148.23;

describe('seededRandom', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(draws(42, 50)).toEqual(draws(42, 50));
    expect(draws(42, 50)).not.toEqual(draws(43, 50));
    // Seeds are 32-bit: 2^32 + 42 is 42; non-integers are truncated.
    expect(draws(2 ** 32 + 42, 5)).toEqual(draws(42, 5));
    expect(draws(42.9, 5)).toEqual(draws(42, 5));
    // Seed 0 is valid and not degenerate.
    expect(new Set(draws(0, 100)).size).toBe(100);
  });

  it('draws uniformly from [0, 1): range, mean, variance and a chi-square test over 100 bins', () => {
    for (const seed of [1, 224, 0xdeadbeef]) {
      const xs = draws(seed, 30_000);
      expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
      expect(Math.abs(mean - 0.5)).toBeLessThan(0.006);
      expect(Math.abs(variance - 1 / 12)).toBeLessThan(0.002);
      const bins = new Array(100).fill(0);
      for (const x of xs) bins[Math.floor(x * 100)]++;
      expect(chiSquare(bins)).toBeLessThan(CHI2_99_DF_999);
      // Uses the full 32 bits: hardly a draw repeats among 30,000 (a birthday repeat is likely only near 2^16 draws of
      // 16 bits, so a weaker generator would show duplicates).
      expect(new Set(xs).size).toBeGreaterThan(29_990);
    }
  });

  it('successive draws are not correlated (lag-1 correlation near 0)', () => {
    const xs = draws(7, 50_000);
    let s = 0;
    for (let i = 1; i < xs.length; i++) s += (xs[i] - 0.5) * (xs[i - 1] - 0.5);
    const correlation = s / (xs.length - 1) / (1 / 12);
    expect(Math.abs(correlation)).toBeLessThan(0.02);
  });
});

describe('deriveSeed', () => {
  it('is deterministic, 32-bit unsigned, and depends on the seed, every label and their order', () => {
    const a = deriveSeed(224, 1, 2);
    expect(deriveSeed(224, 1, 2)).toBe(a);
    expect(Number.isInteger(a) && a >= 0 && a < 2 ** 32).toBe(true);
    const others = [
      deriveSeed(225, 1, 2),
      deriveSeed(224, 2, 1),
      deriveSeed(224, 1, 3),
      deriveSeed(224, 1),
      deriveSeed(224),
    ];
    expect(new Set([a, ...others]).size).toBe(others.length + 1);
  });

  it('gives neighbouring labels unrelated streams', () => {
    const firstDraws = Array.from({ length: 1000 }, (_, g) => seededRandom(deriveSeed(9, 0, g))());
    expect(new Set(firstDraws).size).toBe(1000);
    const bins = new Array(10).fill(0);
    for (const x of firstDraws) bins[Math.floor(x * 10)]++;
    // Chi-square, 9 degrees of freedom, 99.9th percentile 27.88.
    expect(chiSquare(bins)).toBeLessThan(27.88);
  });
});

describe('randomInt', () => {
  it('covers 0 … n − 1 evenly and never returns n, even for a draw just below 1', () => {
    const random = seededRandom(3);
    const counts = new Array(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[randomInt(random, 7)]++;
    expect(counts.every((c) => c > 9_500 && c < 10_500)).toBe(true);
    expect(randomInt(() => 1 - 2 ** -53, 7)).toBe(6);
    expect(randomInt(() => 0, 7)).toBe(0);
    expect(randomInt(() => 0.5, 1)).toBe(0);
  });
});

describe('randomState / setRandomState (how a kernel continues a stream)', () => {
  it('a generator moved to another’s state draws what that one draws next', () => {
    const a = seededRandom(5);
    for (let i = 0; i < 17; i++) a();
    const b = seededRandom(99);
    setRandomState(b, randomState(a)!);
    const expected = Array.from({ length: 20 }, () => a());
    expect(Array.from({ length: 20 }, () => b())).toEqual(expected);
  });

  it('states are four unsigned 32-bit words, and the state advances with each draw', () => {
    const random = seededRandom(3);
    const before = randomState(random)!;
    expect(before).toHaveLength(4);
    for (const word of before) expect(word >>> 0).toBe(word);
    random();
    expect(randomState(random)).not.toEqual(before);
  });

  it('knows only its own generators', () => {
    const plain = () => 0.5;
    expect(randomState(plain)).toBeUndefined();
    setRandomState(plain, [1, 2, 3, 4]);
    expect(plain()).toBe(0.5);
  });
});

describe('counter-based draws (counterKey, counterMix, counterDraw)', () => {
  it('depend only on the key and the counter, and differ between keys and between counters', () => {
    const key = counterKey(224, 5, 9);
    expect(counterDraw(key, counterMix(3))).toBe(counterDraw(counterKey(224, 5, 9), counterMix(3)));
    expect(counterDraw(key, counterMix(3))).not.toBe(counterDraw(key, counterMix(4)));
    expect(counterDraw(key, counterMix(3))).not.toBe(counterDraw(counterKey(224, 9, 5), counterMix(3)));
    expect(counterDraw(key, counterMix(3))).not.toBe(counterDraw(counterKey(225, 5, 9), counterMix(3)));
  });

  it('draw uniformly from [0, 1) over keys and over counters: range and a chi-square test over 100 bins', () => {
    const byCounter = Array.from({ length: 30_000 }, (_, c) =>
      counterDraw(counterKey(1, 2, 3), counterMix(c)),
    );
    const byKey = Array.from({ length: 30_000 }, (_, k) => counterDraw(counterKey(1, k, 3), counterMix(0)));
    for (const xs of [byCounter, byKey]) {
      expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
      const counts = new Array(100).fill(0);
      for (const x of xs) counts[Math.floor(x * 100)]++;
      expect(chiSquare(counts)).toBeLessThan(CHI2_99_DF_999);
    }
  });
});
