/** Embeddings of several texts in one row-major buffer, and its per-text views. No model code here, so the
 * page and the build worker can use it without bundling transformers.js. */
import type { DeviceUse } from '../device';

/** Embeddings of several texts in one row-major buffer (transferable as a whole). */
export interface EmbeddingBatch {
  data: Float32Array;
  dim: number;
  /** Each text's sentence vectors from the same pass, when asked for (`embed(…, { sentences: true })`). */
  sentences?: SentenceBatch;
  /** Where the texts were embedded (the embedding service says; several entries after a fallback). */
  ranOn?: DeviceUse[];
}

/** Sentence vectors of texts in one row-major buffer: `counts[i]` rows for text i, or -1 when unknown. */
export interface SentenceBatch {
  data: Float32Array;
  dim: number;
  counts: Int32Array;
}

/** Splits a sentence batch into per-text lists of views (no copy); undefined where a text's are unknown. */
export function splitSentenceRows(batch: SentenceBatch): (Float32Array[] | undefined)[] {
  let row = 0;
  return Array.from(batch.counts, (count) => {
    if (count < 0) return undefined;
    const rows = Array.from({ length: count }, (_, k) =>
      batch.data.subarray((row + k) * batch.dim, (row + k + 1) * batch.dim),
    );
    row += count;
    return rows;
  });
}

/** Splits a row-major batch into per-text views (no copy). */
export function splitRows(batch: EmbeddingBatch): Float32Array[] {
  const n = batch.dim ? batch.data.length / batch.dim : 0;
  return Array.from({ length: n }, (_, i) => batch.data.subarray(i * batch.dim, (i + 1) * batch.dim));
}
