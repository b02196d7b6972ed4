/**
 * Mean pooling of token states (the SBERT recipe) over a whole text and over each of its sentences, from one
 * forward pass. A sentence's vector is the mean of its own tokens' states, read in the context of the text it
 * stands in: the extractive summariser ranks sentences with these instead of embedding every sentence a
 * second time (which cost as much as embedding the document again).
 */

/**
 * Writes the L2-normalised mean of token rows `[from, to)` of `states` (row-major, `dim` wide, starting at
 * `base`) into `out` at `at`. Sums in token order and divides as transformers.js's `mean_pooling` and
 * `normalize` do, so a whole text's vector equals the pipeline's `pooling: 'mean', normalize: true`.
 */
export function poolRows(
  states: Float32Array,
  base: number,
  dim: number,
  from: number,
  to: number,
  out: Float32Array,
  at: number,
): void {
  const count = to - from;
  for (let k = 0; k < dim; k++) {
    let sum = 0;
    for (let j = from; j < to; j++) sum += states[base + j * dim + k];
    out[at + k] = sum / count;
  }
  // As transformers.js's Tensor.norm: squares summed into a float32, the root taken as `** (1 / 2)`.
  let squares = 0;
  for (let k = 0; k < dim; k++) squares = Math.fround(squares + out[at + k] ** 2);
  const norm = Math.fround(squares ** (1 / 2));
  if (norm > 0) for (let k = 0; k < dim; k++) out[at + k] /= norm;
}

/**
 * Token ranges of a text's sentences inside its encoding `[CLS] s₁ … sₙ [SEP]`, when encoding the sentences
 * one by one gives exactly the text's tokens (WordPiece splits at whitespace, so whole sentences add up);
 * undefined when they do not (a tokenizer that merges across the gap, a truncated text, an empty sentence).
 * @param textTokens the text's token count with its special tokens.
 * @param sentenceTokens each sentence's token count without special tokens.
 * @param leading special tokens before the first sentence (1 for BERT's [CLS]).
 * @param trailing special tokens after the last (1 for [SEP]).
 */
export function sentenceRanges(
  textTokens: number,
  sentenceTokens: readonly number[],
  leading = 1,
  trailing = 1,
): Array<[number, number]> | undefined {
  let at = leading;
  const ranges: Array<[number, number]> = [];
  for (const n of sentenceTokens) {
    if (n <= 0) return undefined;
    ranges.push([at, at + n]);
    at += n;
  }
  return at + trailing === textTokens ? ranges : undefined;
}
