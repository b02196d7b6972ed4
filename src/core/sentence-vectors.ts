/**
 * Sentence vectors that come free with a text's embedding (core/pooling.ts): a memory that an `EmbedFn`
 * fills as it embeds nodes, and that the extractive summariser reads, so a build embeds each text once
 * instead of embedding every sentence of the document a second time.
 */
import type { AbortSignalLike } from './abort';
import type { EmbedFn } from './types';

/** Texts' vectors and, for each text, its sentence vectors in `sentenceSpans` order (undefined if unknown). */
export interface DetailedEmbedding {
  vectors: Float32Array[];
  sentences: (Float32Array[] | undefined)[];
}

/** Embeds texts and gives their sentence vectors from the same pass. */
export type DetailedEmbedFn = (
  texts: string[],
  options?: { signal?: AbortSignalLike },
) => Promise<DetailedEmbedding>;

/** Where the extractive summariser finds sentence vectors. */
export interface SentenceVectorSource {
  /** Each text's sentence vectors in `sentenceSpans` order, or undefined where they cannot be had. */
  sentencesOf(
    texts: string[],
    options?: { signal?: AbortSignalLike },
  ): Promise<(Float32Array[] | undefined)[]>;
}

/**
 * Texts whose sentence vectors one memory keeps (each a few sentences of 1.5 kB at 384-d); past this many it
 * is cleared and refilled, as the summariser's own sentence cache is.
 */
export const SENTENCE_MEMORY_TEXTS = 20_000;

/**
 * Makes an `EmbedFn` that remembers the sentence vectors of what it embeds, and a source that reads them (a
 * text it has not seen, e.g. a leaf whose vector came from storage on Resume, is embedded again to get them).
 */
export function createSentenceMemory(
  detailed: DetailedEmbedFn,
  limit = SENTENCE_MEMORY_TEXTS,
): { embed: EmbedFn; source: SentenceVectorSource } {
  const known = new Map<string, Float32Array[] | undefined>();
  const keep = (texts: string[], sentences: (Float32Array[] | undefined)[]) => {
    if (known.size + texts.length > limit) known.clear();
    texts.forEach((text, i) => known.set(text, sentences[i]));
  };
  const embed: EmbedFn = async (texts, options) => {
    const result = await detailed(texts, options);
    keep(texts, result.sentences);
    return result.vectors;
  };
  const source: SentenceVectorSource = {
    async sentencesOf(texts, options) {
      const missing = [...new Set(texts.filter((t) => !known.has(t)))];
      const fresh = new Map<string, Float32Array[] | undefined>();
      if (missing.length > 0) {
        const result = await detailed(missing, options);
        missing.forEach((text, i) => fresh.set(text, result.sentences[i]));
        keep(missing, result.sentences);
      }
      return texts.map((t) => (fresh.has(t) ? fresh.get(t) : known.get(t)));
    },
  };
  return { embed, source };
}
