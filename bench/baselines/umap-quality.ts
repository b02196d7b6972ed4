/**
 * Measures of how well a low-dimensional layout keeps the neighbourhoods of its input, computed from their
 * definitions (for the UMAP tests).
 */

/** Pairwise distance matrix (n × n) of row-major points under `distance`. */
export function pairwise(
  points: ArrayLike<number>,
  n: number,
  dim: number,
  distance: (a: number, b: number) => number,
): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = distance(i * dim, j * dim);
  return out;
}

/** For each point, the other points ordered by distance (ties by index). */
export function ranks(d: Float64Array, n: number): number[][] {
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => j)
      .filter((j) => j !== i)
      .sort((a, b) => d[i * n + a] - d[i * n + b] || a - b),
  );
}

/**
 * Trustworthiness of an embedding at k neighbours: 1 − 2/(n k (2n − 3k − 1)) Σ_i Σ_{j ∈ U_k(i)} (r(i, j) − k),
 * where U_k(i) are the points among i's k nearest in the output but not in the input, and r(i, j) is j's rank
 * (1-based) among i's neighbours in the input. 1 means no false neighbours.
 */
export function trustworthiness(input: Float64Array, output: Float64Array, n: number, k: number): number {
  const inRanks = ranks(input, n);
  const outRanks = ranks(output, n);
  let penalty = 0;
  for (let i = 0; i < n; i++) {
    const rank = new Map(inRanks[i].map((j, r) => [j, r + 1]));
    const inputNear = new Set(inRanks[i].slice(0, k));
    for (const j of outRanks[i].slice(0, k)) if (!inputNear.has(j)) penalty += rank.get(j)! - k;
  }
  return 1 - (2 / (n * k * (2 * n - 3 * k - 1))) * penalty;
}

/**
 * Neighbourhood preservation at k: the mean share of each point's k nearest neighbours in the input that are
 * also among its k nearest in the layout (1: every neighbourhood kept).
 */
export function neighbourhoodPreservation(
  input: Float64Array,
  output: Float64Array,
  n: number,
  k: number,
): number {
  const inRanks = ranks(input, n);
  const outRanks = ranks(output, n);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const near = new Set(inRanks[i].slice(0, k));
    for (const j of outRanks[i].slice(0, k)) if (near.has(j)) kept++;
  }
  return kept / (n * k);
}
