/**
 * Where the stable layout draws its negative samples (the points a sampled edge's head is pushed away from),
 * so that a point added to or removed from the set changes only the draws that land on it. umap-js takes
 * ⌊u · n⌋, a position: one node more in a group shifts every later position, every draw then lands elsewhere,
 * and the local layout of a group that gained one member (a node whose global posterior crossed 0.1 under a
 * hair of noise) was as different as another seed's — the main way layer-1 clusters were lost at other seeds
 * (docs/clustering.md, "Stability").
 *
 * Consistent hashing instead (Karger et al. 1997): each point owns RING_PLACES places on a ring of 2³²,
 * hashed from its id; a draw takes the first place at or after its own 32 bits. A new point takes only the
 * arcs its places cut. The arcs are not equal, so each point's repulsion is weighted by 1 / (n · its share of
 * the ring): in expectation every point repels as often as under umap-js's uniform draw (importance sampling).
 * A bucket index of the ring's top bits makes the lookup one or two steps.
 */
import { counterKey } from '../random';

/** Places per point on the ring: the shares' spread is about 1/√16 = 25% (the weights undo it on average). */
export const RING_PLACES = 16;

/** The ring of one layout's points. */
export interface NegativeRing {
  /** The places' hashes, ascending (unsigned 32 bits). */
  hash: Uint32Array;
  /** The point (position in the layout) of each place. */
  point: Int32Array;
  /** `bucket[b]`: the first place whose hash is at least b · 2^shift. */
  bucket: Int32Array;
  /** 32 − log2(bucket count). */
  shift: number;
  /** Each point's repulsion weight, 1 / (n · its share of the ring). */
  weight: Float64Array;
}

const RING = 4294967296;

/**
 * The ring of `ids` (one distinct id per point, e.g. node indices) under `seed`: a point's places depend on its
 * id and the seed only.
 */
export function negativeRing(ids: ArrayLike<number>, seed: number): NegativeRing {
  const n = ids.length;
  if ((globalThis as any).process?.env?.POSITION_RING) {
    const hash = Uint32Array.from({ length: n }, (_, i) => Math.min(4294967295, Math.ceil((i * RING) / n)));
    const point = Int32Array.from({ length: n }, (_, i) => i);
    const bits = Math.max(1, Math.min(30, Math.ceil(Math.log2(n))));
    const shift = 32 - bits;
    const bucket = new Int32Array(1 << bits);
    for (let b = 0, j = 0; b < bucket.length; b++) { while (j < n && hash[j] < b * 2 ** shift) j++; bucket[b] = j; }
    return { hash, point, bucket, shift, weight: new Float64Array(n).fill(1) };
  }
  const m = n * RING_PLACES;
  const hashes = new Uint32Array(m);
  for (let i = 0; i < n; i++)
    for (let v = 0; v < RING_PLACES; v++) hashes[i * RING_PLACES + v] = counterKey(seed, ids[i], v);
  // Equal hashes (rare) are ordered by id, never by position, so a tie does not depend on who else is there.
  const order = Int32Array.from({ length: m }, (_, p) => p).sort(
    (p, q) =>
      hashes[p] - hashes[q] ||
      ids[(p / RING_PLACES) | 0] - ids[(q / RING_PLACES) | 0] ||
      (p % RING_PLACES) - (q % RING_PLACES),
  );
  const hash = new Uint32Array(m);
  const point = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    hash[j] = hashes[order[j]];
    point[j] = (order[j] / RING_PLACES) | 0;
  }
  const bits = Math.max(1, Math.min(30, Math.ceil(Math.log2(m))));
  const shift = 32 - bits;
  const bucket = new Int32Array(1 << bits);
  for (let b = 0, j = 0; b < bucket.length; b++) {
    const start = b * 2 ** shift;
    while (j < m && hash[j] < start) j++;
    bucket[b] = j;
  }
  const share = new Float64Array(n);
  for (let j = 0; j < m; j++) share[point[j]] += j > 0 ? hash[j] - hash[j - 1] : hash[0] + (RING - hash[m - 1]);
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) weight[i] = share[i] > 0 ? RING / (n * share[i]) : 0;
  return { hash, point, bucket, shift, weight };
}

/** The point a draw's 32 bits (`counterBits`) land on: the owner of the first place at or after them. */
export function ringPoint(ring: NegativeRing, bits: number): number {
  const { hash } = ring;
  let place = ring.bucket[bits >>> ring.shift];
  while (place < hash.length && hash[place] < bits) place++;
  return ring.point[place === hash.length ? 0 : place];
}
