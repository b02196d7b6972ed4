import { describe, expect, it } from 'vitest';
import { fitToTokenBudget } from '../../../src/core/text/budget';
import { splitSentences } from '../../../src/core/text/sentences';
import { countTokens } from '../../../src/core/text/tokens';
import { seededRandom } from '../../../src/core/random';

const SENTENCES = [
  'Cinderella lived with her stepmother.',
  'The prince held a ball that lasted three nights!',
  'Did the slipper fit?',
  'At midnight the coach became a pumpkin again, and the horses turned back into mice.',
  'Dr. Grimm wrote it down in 1812.',
];

/** A text of `count` sentences drawn from SENTENCES with a seeded generator. */
function prose(count: number, seed: number): string {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => SENTENCES[Math.floor(random() * SENTENCES.length)]).join(' ');
}

describe('fitToTokenBudget', () => {
  it('returns a text within the budget unchanged', () => {
    const text = SENTENCES.slice(0, 2).join(' ');
    expect(fitToTokenBudget(text, countTokens(text))).toEqual({ text, cut: false });
  });

  it('keeps the longest run of whole sentences within the budget (any budget, any text)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const text = prose(30, seed);
      const budget = 8 + ((seed * 7) % 120);
      const fitted = fitToTokenBudget(text, budget);
      expect(fitted.cut).toBe(true);
      expect(countTokens(fitted.text)).toBeLessThanOrEqual(budget);
      expect(text.startsWith(fitted.text.replace(/…$/, ''))).toBe(true);
      const ends = splitSentences(text).map((s) => s.end);
      if (ends.includes(fitted.text.length)) {
        // …and no later sentence end would still fit.
        const next = ends.find((e) => e > fitted.text.length)!;
        expect(countTokens(text.slice(0, next))).toBeGreaterThan(budget);
      } else {
        // Only when the first sentence alone is over the budget: words, then an ellipsis.
        expect(countTokens(text.slice(0, ends[0]))).toBeGreaterThan(budget);
        expect(fitted.text.endsWith('…')).toBe(true);
      }
    }
  });

  it('never takes an abbreviation or a cut inside a sentence for its end', () => {
    const text = `${SENTENCES[4]} ${SENTENCES[3]}`;
    const fitted = fitToTokenBudget(text, countTokens(SENTENCES[4]) + 4);
    expect(fitted.text).toBe(SENTENCES[4]);
  });

  it('cuts a text with no sentence end between words, with an ellipsis that fits', () => {
    const fitted = fitToTokenBudget('lorem ipsum '.repeat(200), 10);
    expect(fitted).toEqual({ text: expect.stringMatching(/ipsum…$|lorem…$/), cut: true });
    expect(countTokens(fitted.text)).toBeLessThanOrEqual(10);
  });
});
