/**
 * How much of the embedding model's work is padding, for a given order of texts: the figure behind embedding a
 * layer's texts longest first (src/core/build.ts `embeddingOrder`), printed by `npm run bench build`.
 */

/**
 * The padding share when texts of `lengths` model tokens are embedded in calls of `call` texts taken in `order`,
 * each call cut into batches of `batch` texts longest first (as TransformersEmbedder forms them), each batch
 * padded to its longest text: padded tokens over real tokens, minus 1 (0 means no padding).
 */
export function paddingShare(
  lengths: readonly number[],
  order: readonly number[],
  call: number,
  batch: number,
): number {
  let real = 0;
  let padded = 0;
  for (let start = 0; start < order.length; start += call) {
    const inCall = order
      .slice(start, start + call)
      .map((i) => lengths[i])
      .sort((a, b) => b - a);
    for (let b = 0; b < inCall.length; b += batch) {
      const rows = inCall.slice(b, b + batch);
      padded += rows.length * rows[0];
      for (const n of rows) real += n;
    }
  }
  return real === 0 ? 0 : padded / real - 1;
}
