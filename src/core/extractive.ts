/**
 * The built-in extractive summariser, used when no LLM endpoint is configured: a cluster's summary is
 * its most central sentences (closest to the mean of all its sentence embeddings), within the token
 * budget, kept in their original order.
 */
import type { AbortSignalLike } from './abort';
import type { SentenceVectorSource } from './sentence-vectors';
import type { EmbedFn, SummarizeFn } from './types';
import { sentenceSpans, countSentenceTokens, countTokens, truncateToTokens } from './text';
import { AerieError } from './errors';

/** Identifies the extractive summariser in a tree's `summarizer` field. */
export const EXTRACTIVE_SUMMARIZER = { kind: 'extractive' } as const;

/**
 * Sentence vectors one summariser keeps (about 1.5 kB each at 384-d): a 300k-token book has ~15,000 sentences.
 * Past this many the memory is cleared and refilled.
 */
export const SENTENCE_CACHE_LIMIT = 50_000;

/**
 * Makes a SummarizeFn that picks central sentences using `embed` (the tree's own embedding model).
 * Deterministic: the same texts give the same summary. Each distinct sentence is embedded once per summariser:
 * a node in two clusters (soft clustering) and the sentences of summaries (which are the leaves' own sentences)
 * reuse the vectors already made (no second embedding of a sentence whose vector is known).
 * @param source sentence vectors that came with the texts' own embeddings (core/sentence-vectors.ts); a text
 *   it has none for falls back to embedding its sentences one by one with `embed`.
 */
export function createExtractiveSummarizer(embed: EmbedFn, source?: SentenceVectorSource): SummarizeFn {
  const known = new Map<string, Float32Array>();
  async function vectorsOf(
    sentences: string[],
    signal: AbortSignalLike | undefined,
  ): Promise<Float32Array[]> {
    const missing = [...new Set(sentences.filter((s) => !known.has(s)))];
    if (missing.length === 0) return sentences.map((s) => known.get(s)!);
    const vectors = await embed(missing, { signal });
    const made = new Map(missing.map((s, i) => [s, vectors[i]]));
    const out = sentences.map((s) => known.get(s) ?? made.get(s)!);
    if (known.size + made.size > SENTENCE_CACHE_LIMIT) known.clear();
    for (const [s, v] of made) known.set(s, v);
    return out;
  }
  /** Vectors of every sentence: the texts' own from `source` where it has them, the rest embedded alone. */
  async function sentenceVectors(
    texts: string[],
    perText: string[][],
    signal: AbortSignalLike | undefined,
  ): Promise<Float32Array[]> {
    const given = source ? await source.sentencesOf(texts, { signal }) : [];
    const alone = perText.flatMap((list, t) => (given[t]?.length === list.length ? [] : list));
    const embedded = alone.length > 0 ? await vectorsOf(alone, signal) : [];
    let next = 0;
    return perText.flatMap((list, t) => {
      const own = given[t];
      return own?.length === list.length ? own : list.map(() => embedded[next++]);
    });
  }

  return async (texts, { maxTokens, signal }) => {
    const perText = texts.map((text) =>
      sentenceSpans(text).map((s) => text.slice(s.start, s.end).replace(/\s+/g, ' ')),
    );
    const sentences = perText.flat();
    if (sentences.length === 0) {
      throw new AerieError('EMPTY_CLUSTER', 'There is no text to summarise in this cluster.', {
        texts: texts.length,
      });
    }
    // Counted by the chunker already, or by an earlier summary (a layer's sentences are its children's).
    const tokens = sentences.map(countSentenceTokens);
    const vectors = sentences.length === 1 ? [] : await sentenceVectors(texts, perText, signal);
    const scores = centrality(vectors, sentences.length);
    const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
    const chosen: number[] = [];
    let used = 0;
    // Sentences are joined by one space, which cl100k merges into the next word: counts stay additive
    // to within a token per join, checked below.
    for (const i of order) {
      if (used + tokens[i] <= maxTokens) {
        chosen.push(i);
        used += tokens[i];
      }
    }
    if (chosen.length === 0) return truncateToTokens(sentences[order[0]], maxTokens);
    chosen.sort((a, b) => a - b);
    let summary = chosen.map((i) => sentences[i]).join(' ');
    while (chosen.length > 1 && countTokens(summary) > maxTokens) {
      // Drop the least central chosen sentence until the joined text fits.
      let worst = 0;
      for (let c = 1; c < chosen.length; c++) if (scores[chosen[c]] < scores[chosen[worst]]) worst = c;
      chosen.splice(worst, 1);
      summary = chosen.map((i) => sentences[i]).join(' ');
    }
    return countTokens(summary) > maxTokens ? truncateToTokens(summary, maxTokens) : summary;
  };
}

/** Cosine similarity of each vector to the mean of all (unit-normalised) vectors. */
function centrality(vectors: Float32Array[], n: number): number[] {
  if (vectors.length === 0) return new Array(n).fill(1);
  const dim = vectors[0].length;
  const mean = new Float64Array(dim);
  const norms = vectors.map((v) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * v[t];
    return Math.sqrt(s) || 1;
  });
  vectors.forEach((v, i) => {
    for (let t = 0; t < dim; t++) mean[t] += v[t] / norms[i];
  });
  let meanNorm = 0;
  for (let t = 0; t < dim; t++) meanNorm += mean[t] * mean[t];
  meanNorm = Math.sqrt(meanNorm) || 1;
  return vectors.map((v, i) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * mean[t];
    return s / (norms[i] * meanNorm);
  });
}
