/**
 * Scores of a written answer against a reference: token F1 (SQuAD's definition), ROUGE-L (the F-measure of
 * the longest common subsequence of words, as the rouge-score package computes it without stemming) and
 * multiple-choice accuracy, with the reader that finds which option an answer picked.
 */

const ARTICLES = new Set(['a', 'an', 'the']);
const PUNCTUATION = /[\p{P}\p{S}]/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * SQuAD's answer normalisation: lower case, punctuation removed (so "don't" is "dont"), the articles a, an and
 * the dropped, split at whitespace.
 */
export function answerTokens(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .split(/\s+/)
    .filter((t) => t !== '' && !ARTICLES.has(t));
}

/**
 * Token F1 of `prediction` against `reference` (SQuAD): the harmonic mean of the precision and recall of the
 * words they share, counted with multiplicity, after `answerTokens`. When either has no words, 1 if both have
 * none and 0 otherwise.
 */
export function tokenF1(prediction: string, reference: string): number {
  const predicted = answerTokens(prediction);
  const expected = answerTokens(reference);
  if (predicted.length === 0 || expected.length === 0) {
    return predicted.length === expected.length ? 1 : 0;
  }
  const counts = new Map<string, number>();
  for (const t of expected) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of predicted) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / predicted.length;
  const recall = common / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/** rouge-score's tokens: lower case, runs of letters and digits (everything else separates them). */
export function rougeTokens(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
}

/** Length of the longest common subsequence of two word lists (one row of the table at a time). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      current[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

/**
 * ROUGE-L F-measure of `prediction` against `reference`: with L the longest common subsequence of their words
 * (`rougeTokens`), precision L/|prediction|, recall L/|reference|, and their harmonic mean; 0 when either has
 * no words or L is 0.
 */
export function rougeL(prediction: string, reference: string): number {
  const predicted = rougeTokens(prediction);
  const expected = rougeTokens(reference);
  if (predicted.length === 0 || expected.length === 0) return 0;
  const common = lcsLength(predicted, expected);
  if (common === 0) return 0;
  const precision = common / predicted.length;
  const recall = common / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Letters that name options: A for the first, B for the second… */
const OPTION_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** "A", "B", … for option `index` (0-based). */
export function optionLetter(index: number): string {
  return OPTION_LETTERS[index] ?? String(index + 1);
}

/**
 * The option an answer picked (0-based), or undefined when it names none: the first option letter standing
 * alone ("B", "(B)", "B.", "Answer: B", "it is C, because") — a capital not inside a word and not followed by a
 * lower-case word, so the article in "A man came" and the pronoun "I" are not read as picks — else the one
 * option whose whole text the answer contains (case-insensitive).
 */
export function chosenOption(answer: string, choices: readonly string[]): number | undefined {
  const letters = OPTION_LETTERS.slice(0, Math.min(choices.length, OPTION_LETTERS.length));
  if (letters.length > 0) {
    const standalone = new RegExp(`(?<![\\p{L}\\p{N}])([${letters}])(?![\\p{L}\\p{N}])(?!\\s+\\p{Ll})`, 'u');
    const match = standalone.exec(answer);
    if (match) return letters.indexOf(match[1]);
  }
  const lower = answer.toLowerCase();
  const hits = choices.flatMap((c, i) =>
    c.trim() !== '' && lower.includes(c.toLowerCase().trim()) ? [i] : [],
  );
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * Share of multiple-choice questions answered right: `picked[i]` (undefined when the answer named no option)
 * against `gold[i]`; NaN for no questions.
 * @throws RangeError when the two lists differ in length.
 */
export function multipleChoiceAccuracy(
  picked: readonly (number | undefined)[],
  gold: readonly number[],
): number {
  if (picked.length !== gold.length) {
    throw new RangeError(`${picked.length} picks for ${gold.length} gold answers.`);
  }
  if (gold.length === 0) return NaN;
  let right = 0;
  for (let i = 0; i < gold.length; i++) if (picked[i] === gold[i]) right++;
  return right / gold.length;
}
