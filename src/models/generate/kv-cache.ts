/**
 * The key/value cache of replies decoded together, as plain arrays: the `[rows, heads, positions, dim]` layout
 * of an ONNX decoder's `past_key_values.*` tensors, each row left-padded with zeros so that every row's real
 * positions end at the last column (the attention mask hides the padding). Gathering rows into a new cache is
 * how a batch admits a reply (its own cache, read alone) and lets one go (finished or cancelled), trimming
 * padding no row needs any more. No model code: unit-tested on small arrays.
 */

/** A typed array a cache tensor holds (Float32Array; Uint16Array or Float16Array for fp16 caches). */
export interface KvData extends ArrayLike<number> {
  subarray(begin?: number, end?: number): KvData;
  set(array: ArrayLike<number>, offset?: number): void;
}

/** One cache tensor: `dims` is `[rows, heads, positions, dim]`. */
export interface KvTensor<T extends KvData = KvData> {
  data: T;
  dims: readonly [number, number, number, number];
}

/** A row to gather: row `row` of `cache`, of which the last `positions` positions are real. */
export interface RowSource<T extends KvData = KvData> {
  cache: KvTensor<T>;
  row: number;
  positions: number;
}

/** The cache layout was not what batching needs (a model whose cache is not `[rows, heads, positions, dim]`). */
export class KvCacheError extends Error {
  override readonly name = 'KvCacheError';
}

function allocLike<T extends KvData>(like: T, length: number): T {
  return new (like.constructor as new (length: number) => T)(length);
}

/**
 * A cache of `sources.length` rows and `positions` positions: row i holds the real positions of `sources[i]`
 * at its end, zeros before them. Every source must share heads and dim and fit (`positions` ≥ its own).
 */
export function gatherRows<T extends KvData>(
  sources: readonly RowSource<T>[],
  positions: number,
): KvTensor<T> {
  if (sources.length === 0) throw new KvCacheError('gatherRows needs at least one row.');
  const [, heads, , dim] = sources[0].cache.dims;
  const data = allocLike(sources[0].cache.data, sources.length * heads * positions * dim);
  sources.forEach((source, i) => {
    const [rows, sourceHeads, length, sourceDim] = source.cache.dims;
    if (sourceHeads !== heads || sourceDim !== dim) {
      throw new KvCacheError(
        `Cache rows differ in shape: ${sourceHeads}×${sourceDim} against ${heads}×${dim} (heads × dim).`,
      );
    }
    if (source.row < 0 || source.row >= rows || source.positions > length || source.positions > positions) {
      throw new KvCacheError(
        `Row ${source.row} with ${source.positions} positions does not fit (${rows} rows of ${length}, into ${positions}).`,
      );
    }
    const span = source.positions * dim;
    for (let h = 0; h < heads; h++) {
      const from = ((source.row * heads + h) * length + (length - source.positions)) * dim;
      const to = ((i * heads + h) * positions + (positions - source.positions)) * dim;
      data.set(source.cache.data.subarray(from, from + span), to);
    }
  });
  return { data, dims: [sources.length, heads, positions, dim] };
}

/**
 * The attention mask of a decoding step over a cache of `positions` positions whose rows hold `rowPositions`
 * real positions each (left-padded), plus the new token: row-major `[rows, positions + 1]`, 0 on padding.
 */
export function stepAttentionMask(rowPositions: readonly number[], positions: number): BigInt64Array {
  const width = positions + 1;
  const mask = new BigInt64Array(rowPositions.length * width);
  rowPositions.forEach((real, row) => {
    if (real > positions) throw new KvCacheError(`A row holds ${real} positions of ${positions}.`);
    mask.fill(1n, row * width + (positions - real), (row + 1) * width);
  });
  return mask;
}
