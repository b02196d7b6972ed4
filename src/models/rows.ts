/** Embeddings of several texts in one row-major buffer, and its per-text views. No model code here, so the
 * page and the build worker can use it without bundling transformers.js. */

/** Embeddings of several texts in one row-major buffer (transferable as a whole). */
export interface EmbeddingBatch {
  data: Float32Array;
  dim: number;
}

/** Splits a row-major batch into per-text views (no copy). */
export function splitRows(batch: EmbeddingBatch): Float32Array[] {
  const n = batch.dim ? batch.data.length / batch.dim : 0;
  return Array.from({ length: n }, (_, i) => batch.data.subarray(i * batch.dim, (i + 1) * batch.dim));
}
