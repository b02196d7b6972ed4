/** Row-major unit vectors of the given rows, as the clustering hands them to UMAP. */
export function unitRows(vectors: Float32Array[]): { unit: Float32Array; n: number; dim: number } {
  const n = vectors.length;
  const dim = vectors[0].length;
  const unit = new Float32Array(n * dim);
  vectors.forEach((v, i) => {
    const norm = Math.hypot(...v);
    v.forEach((x, t) => (unit[i * dim + t] = x / norm));
  });
  return { unit, n, dim };
}
