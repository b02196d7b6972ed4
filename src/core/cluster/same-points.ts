/**
 * Duplicate points (identical chunks, repeated headers): unit vectors within SAME_POINT_DISTANCE of each other
 * by cosine distance. The clustering lays out and fits one point per set of duplicates and gives the others its
 * clusters. Left in, a pair of duplicates is a tie that the vectors' last bits break: which of the two a third
 * point lists as its k-th neighbour, whether their distance is 0 or 1e-9, flipped under a ±1e-9 change and
 * moved a whole layout (docs/clustering.md, "Stability").
 */
import { SAME_POINT_DISTANCE } from './umap-layout';

/** One point per set of duplicates. */
export interface DistinctPoints {
  /** The first (lowest) index of each set, ascending. */
  reps: Int32Array;
  /** For each point, the position in `reps` of its set's first point. */
  repOf: Int32Array;
}

/** A fixed direction to sort points along (any direction works; this one avoids the vectors' common one). */
function direction(dim: number): Float64Array {
  const p = new Float64Array(dim);
  let s = 0;
  for (let t = 0; t < dim; t++) {
    p[t] = ((Math.imul(t + 1, 0x9e3779b1) >>> 0) / 4294967296) * 2 - 1;
    s += p[t] * p[t];
  }
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let t = 0; t < dim; t++) p[t] *= inv;
  return p;
}

/**
 * The duplicate sets of `n` unit vectors (row-major `unit`), or undefined when there are none. Points within
 * SAME_POINT_DISTANCE are linked, and linked points form one set. Sorted along a fixed direction, only points
 * whose projections differ by less than the largest Euclidean distance of a duplicate pair, √(2 · distance),
 * are compared, so distinct vectors cost about n log n.
 */
export function distinctPoints(unit: Float32Array, n: number, dim: number): DistinctPoints | undefined {
  const p = direction(dim);
  const proj = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < dim; t++) s += unit[i * dim + t] * p[t];
    proj[i] = s;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => proj[a] - proj[b] || a - b);
  // A float32 unit vector's rounding can move a projection by ~1e-7; the window allows for it.
  const window = Math.sqrt(2 * SAME_POINT_DISTANCE) + 1e-6;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  let linked = false;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    for (let b = a + 1; b < n && proj[order[b]] - proj[i] <= window; b++) {
      const j = order[b];
      let dot = 0;
      for (let t = 0; t < dim; t++) dot += unit[i * dim + t] * unit[j * dim + t];
      if (1 - dot > SAME_POINT_DISTANCE) continue;
      const [ri, rj] = [find(i), find(j)];
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
      linked = true;
    }
  }
  if (!linked) return undefined;
  const reps: number[] = [];
  const position = new Int32Array(n).fill(-1);
  const repOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = find(i);
    if (position[r] < 0) {
      position[r] = reps.length;
      reps.push(r);
    }
    repOf[i] = position[r];
  }
  return { reps: Int32Array.from(reps), repOf };
}
