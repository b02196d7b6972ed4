import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random';
import { backoffDelayMs, retryAfterMs } from '../../src/llm';

const headers = (values: Record<string, string>) => new Headers(values);

describe('retryAfterMs', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('reads delta-seconds, fractional seconds and OpenAI retry-after-ms', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': '0.25' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(retryAfterMs(headers({ 'retry-after': 'Sat, 01 Mar 2025 12:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': 'Sat, 01 Mar 2025 11:59:00 GMT' }), now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-5' }), now)).toBeUndefined();
  });
});

describe('backoffDelayMs (full jitter)', () => {
  it('stays within [0, min(max, base·2^retry)) and spreads over that range', () => {
    const random = seededRandom(3);
    for (let retry = 0; retry < 8; retry++) {
      const ceiling = Math.min(20_000, 1_000 * 2 ** retry);
      const delays = Array.from({ length: 200 }, () => backoffDelayMs(retry, 1_000, 20_000, random));
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...delays)).toBeLessThan(ceiling);
      // Full jitter uses the whole range, not just its top.
      expect(Math.min(...delays)).toBeLessThan(ceiling * 0.1);
      expect(Math.max(...delays)).toBeGreaterThan(ceiling * 0.9);
    }
  });

  it('is repeatable for a seed', () => {
    const a = seededRandom(11);
    const b = seededRandom(11);
    for (let retry = 0; retry < 5; retry++) {
      expect(backoffDelayMs(retry, 500, 8_000, a)).toBe(backoffDelayMs(retry, 500, 8_000, b));
    }
  });
});
