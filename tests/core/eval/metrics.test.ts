import { describe, expect, it } from 'vitest';
import {
  answerTokens,
  chosenOption,
  multipleChoiceAccuracy,
  optionLetter,
  rougeL,
  tokenF1,
} from '../../../src/core/eval/answer-metrics';
import {
  evidenceFound,
  evidenceSpans,
  evidenceRecall,
  matchEvidence,
  normalizeForMatch,
} from '../../../src/core/eval/evidence';
import { firstHitRank, reciprocalRank } from '../../../src/core/eval/ranking';

describe('evidence recall (worked by hand)', () => {
  it('finds quotes whatever their case and whitespace, and counts the share found', () => {
    const context = 'The CAT\n sat  on the mat.\n\nA dog barked.\n\n';
    const evidence = ['the cat sat', 'DOG   barked', 'a bird'];
    expect(evidenceFound(context, evidence)).toEqual([true, true, false]);
    expect(evidenceRecall(context, evidence)).toBeCloseTo(2 / 3, 12);
    expect(evidenceRecall(context, ['mat. a dog'])).toBe(1);
    expect(evidenceRecall(context, ['cats'])).toBe(0);
  });

  it('reads typographic quotes and dashes as plain ones, and has nothing to find without quotes', () => {
    expect(evidenceRecall('“Yes,” she said—quietly; it’s late.', ['"yes," she said-quietly', "it's"])).toBe(
      1,
    );
    expect(normalizeForMatch('  Ａ\tB ')).toBe('a b');
    expect(evidenceRecall('anything', [])).toBeNaN();
  });

  it('gives each quote the rank where it became complete, across consecutive texts too', () => {
    const texts = ['alpha beta', 'gamma\ndelta', 'epsilon'];
    expect(matchEvidence(texts, ['GAMMA', 'beta gamma', 'epsilon', 'zeta', 'alpha'])).toEqual({
      found: [true, true, true, false, true],
      ranks: [2, 2, 3, 0, 1],
    });
    // A quote split over texts that were not retrieved one after the other is not in the context.
    expect(matchEvidence(['gamma', 'alpha beta'], ['beta gamma']).found).toEqual([false]);
  });
});

describe('ranks', () => {
  it('takes the reciprocal of the first hit, 0 without one', () => {
    expect(reciprocalRank([0, 3, 2])).toBe(0.5);
    expect(reciprocalRank([1])).toBe(1);
    expect(reciprocalRank([0, 0])).toBe(0);
    expect(reciprocalRank([])).toBe(0);
    expect(firstHitRank([9, 4, 7], new Set([7, 4]))).toBe(2);
    expect(firstHitRank([9], new Set([7]))).toBe(0);
  });
});

describe('token F1 (SQuAD, worked by hand)', () => {
  it('drops case, punctuation and articles before counting shared words', () => {
    expect(answerTokens("The Cat's mat, a dog!")).toEqual(['cats', 'mat', 'dog']);
    // pred {cat, sat, on, mat}, ref {cat, on, mat, today}: 3 shared, P = R = 3/4.
    expect(tokenF1('The cat sat on the mat', 'a cat on a mat today')).toBeCloseTo(0.75, 12);
    // pred {mr, bennet, sir}, ref {mr, bennet}: P 2/3, R 1, F1 = 0.8.
    expect(tokenF1('Mr. Bennet, sir', 'Mr Bennet')).toBeCloseTo(0.8, 12);
  });

  it('counts shared words with multiplicity and handles empty answers', () => {
    // pred dog×3, ref {dog, cat}: 1 shared, P 1/3, R 1/2, F1 = 0.4.
    expect(tokenF1('dog dog dog', 'dog cat')).toBeCloseTo(0.4, 12);
    expect(tokenF1('the', 'a')).toBe(1);
    expect(tokenF1('the', 'cat')).toBe(0);
    expect(tokenF1('horse', 'cat')).toBe(0);
  });
});

describe('ROUGE-L (worked by hand)', () => {
  it('is the F-measure of the longest common word subsequence', () => {
    // LCS police…the gunman = 3 of 4 words each way.
    expect(rougeL('police killed the gunman', 'police kill the gunman')).toBeCloseTo(0.75, 12);
    // LCS "the gunman" = 2 of 4 each way.
    expect(rougeL('the gunman kill police', 'police killed the gunman')).toBeCloseTo(0.5, 12);
    // LCS a c e = 3: P 3/5, R 3/3, F = 0.75.
    expect(rougeL('a b c d e', 'a c e')).toBeCloseTo(0.75, 12);
  });

  it('splits at anything but letters and digits, is 0 without shared or any words, 1 for the same words', () => {
    expect(rougeL("Mr. Darcy's house", 'mr darcy s house')).toBe(1);
    expect(rougeL('', 'a')).toBe(0);
    expect(rougeL('x y', 'a b')).toBe(0);
  });
});

describe('multiple choice', () => {
  const choices = ['the ring', 'the sword', 'a map', 'a key'];

  it('reads the option letter an answer names first', () => {
    expect(chosenOption('B', choices)).toBe(1);
    expect(chosenOption('(C) a map', choices)).toBe(2);
    expect(chosenOption('Answer: D.', choices)).toBe(3);
    expect(chosenOption('A man came in, so it is B', choices)).toBe(1);
    expect(chosenOption('I think it is A', choices)).toBe(0);
    expect(chosenOption('**B**', choices)).toBe(1);
  });

  it("falls back to the one option whose text the answer holds, and names none when it can't tell", () => {
    expect(chosenOption('It was the ring, of course.', choices)).toBe(0);
    expect(chosenOption('Both the ring and the sword.', choices)).toBeUndefined();
    expect(chosenOption('E', choices)).toBeUndefined();
    expect(chosenOption('No idea.', choices)).toBeUndefined();
    expect(optionLetter(2)).toBe('C');
  });

  it('is the share of picks equal to gold', () => {
    expect(multipleChoiceAccuracy([1, undefined, 2, 0], [1, 0, 2, 3])).toBe(0.5);
    expect(multipleChoiceAccuracy([], [])).toBeNaN();
    expect(() => multipleChoiceAccuracy([1], [])).toThrow(RangeError);
  });
});

describe('evidenceSpans', () => {
  it('marks every occurrence in the original text, across line breaks and case, merged where they overlap', () => {
    const text = 'The  Cat sat.\nthe cat\n sat again; “Yes” — dog';
    const spans = evidenceSpans(text, ['the cat sat', 'cat', '"yes" - dog', 'absent']);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([
      'The  Cat sat',
      'the cat\n sat',
      '“Yes” — dog',
    ]);
    expect(evidenceSpans('x', [''])).toEqual([]);
  });

  it('maps characters NFKC widens and astral characters back to their own offsets', () => {
    const text = 'ﬁne 😀 emoji';
    expect(evidenceSpans(text, ['fine']).map((s) => text.slice(s.start, s.end))).toEqual(['ﬁne']);
    expect(evidenceSpans(text, ['😀 emoji']).map((s) => text.slice(s.start, s.end))).toEqual(['😀 emoji']);
  });
});
