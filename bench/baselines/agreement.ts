/**
 * How much two clusterings of the same nodes agree, and the tiny perturbations they are measured under (the
 * stability figure of `npm run bench shape` and its test): each node's primary parent, the adjusted Rand index
 * of two such assignments (Hubert & Arabie 1985), and uniform noise of a given amplitude added to every
 * coordinate, seeded.
 */
import { seededRandom } from '../../src/core/random';

/**
 * Each node's primary parent among soft clusters (lists of node indices; a node may sit in several): of the
 * clusters holding it, the one whose centroid (mean of its members' unit vectors) is most similar to the
 * node by cosine, as the tree view picks a node's primary parent by its summary's embedding. Ties go to the
 * earlier cluster; a node in no cluster gets −1.
 */
export function primaryParents(
  clusters: readonly (readonly number[])[],
  vectors: readonly ArrayLike<number>[],
): Int32Array {
  const n = vectors.length;
  const dim = vectors[0]?.length ?? 0;
  const unit = vectors.map((v) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * v[t];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    return Float64Array.from({ length: dim }, (_, t) => v[t] * inv);
  });
  const centroids = clusters.map((members) => {
    const c = new Float64Array(dim);
    for (const i of members) for (let t = 0; t < dim; t++) c[t] += unit[i][t];
    let s = 0;
    for (let t = 0; t < dim; t++) s += c[t] * c[t];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let t = 0; t < dim; t++) c[t] *= inv;
    return c;
  });
  const parent = new Int32Array(n).fill(-1);
  const best = new Float64Array(n).fill(-Infinity);
  clusters.forEach((members, c) => {
    for (const i of members) {
      let s = 0;
      for (let t = 0; t < dim; t++) s += unit[i][t] * centroids[c][t];
      if (s > best[i]) {
        best[i] = s;
        parent[i] = c;
      }
    }
  });
  return parent;
}

/** n choose 2. */
const pairs = (n: number) => (n * (n - 1)) / 2;

/**
 * The adjusted Rand index of two labelings of the same items (Hubert & Arabie 1985): 1 when they make the
 * same partition (whatever the label names), about 0 for independent ones. Two labelings that each put all
 * items in one group, or each item alone, agree fully (1).
 * @throws RangeError when the lengths differ.
 */
export function adjustedRandIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`Labelings of ${a.length} and ${b.length} items.`);
  const n = a.length;
  const joint = new Map<string, number>();
  const rows = new Map<number, number>();
  const cols = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const key = `${a[i]},${b[i]}`;
    joint.set(key, (joint.get(key) ?? 0) + 1);
    rows.set(a[i], (rows.get(a[i]) ?? 0) + 1);
    cols.set(b[i], (cols.get(b[i]) ?? 0) + 1);
  }
  let index = 0;
  for (const m of joint.values()) index += pairs(m);
  let sumRows = 0;
  for (const m of rows.values()) sumRows += pairs(m);
  let sumCols = 0;
  for (const m of cols.values()) sumCols += pairs(m);
  const expected = pairs(n) ? (sumRows * sumCols) / pairs(n) : 0;
  const max = (sumRows + sumCols) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}

/**
 * Copies of `vectors` with independent uniform noise in [−amplitude, amplitude] added to every coordinate
 * (rounded to float32), drawn from the seeded generator: the same seed gives the same copies.
 */
export function perturbed(
  vectors: readonly ArrayLike<number>[],
  amplitude: number,
  seed: number,
): Float32Array[] {
  const random = seededRandom(seed);
  return vectors.map((v) => Float32Array.from(v, (x) => x + amplitude * (2 * random() - 1)));
}
