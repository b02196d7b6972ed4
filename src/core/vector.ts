/** Small vector helpers on typed arrays. */
import { DimensionError } from './errors';

/** Dot product; throws when the lengths differ. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new DimensionError(
      'DIMENSION_MISMATCH',
      `Vectors have different lengths: ${a.length} and ${b.length}.`,
      { a: a.length, b: b.length },
    );
  }
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Euclidean norm. */
export function norm(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}

/**
 * Cosine similarity in [−1, 1]; 0 when either vector is all zeros (scipy would return NaN there, which
 * sorts unpredictably).
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const d = dot(a, b);
  const n = norm(a) * norm(b);
  return n === 0 ? 0 : d / n;
}

/** A unit-length copy (float32); an all-zero vector stays zero. */
export function normalized(a: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(a);
  const n = norm(out);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}
