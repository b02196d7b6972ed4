/**
 * Where the stable layout (umap-stable.ts) draws its negative samples, the points a sampled edge's head is
 * pushed away from, so that a point joining or leaving the set moves only the draws that land on it.
 * umap-js takes ⌊u · n⌋, a position among the points: one point more or fewer shifts every later position, and
 * a quarter to a half of all draws land elsewhere. A local layout's group gains or loses a member whenever a
 * node's global posterior crosses 0.1 under a hair of noise, and its clustering then changed as with another
 * seed (docs/clustering.md, "Other seeds").
 *
 * Consistent hashing (Karger et al., 1997) instead: each point owns RING_PLACES places on a ring of 2³²,
 * hashed from its id and the layout's seed; a draw's 32 bits land on the owner of the first place at or after
 * them. A new point takes only the arcs its own places cut. The arcs differ in length, so each push is weighted
 * by 1 / (n · the drawn point's share of the ring): in expectation every point repels as often as under a
 * uniform draw. A bucket index of the ring's top bits makes a lookup one or two steps.
 */
import { counterKey } from '../random';

/** Places per point on the ring (the shares then spread by about 1/√16; the weights undo it on average). */
export const RING_PLACES = 16;

/** The ring of one layout's points. */
export interface NegativeRing {
  /** The places' hashes, ascending (unsigned 32 bits). */
  hash: Uint32Array;
  /** The point (position in the layout) owning each place. */
  point: Int32Array;
  /** `bucket[b]`: the first place whose hash is at least b · 2^shift. */
  bucket: Int32Array;
  /** 32 − log2 of the bucket count. */
  shift: number;
  /** Each point's push weight, 1 / (n · its share of the ring). */
  weight: Float64Array;
}

const RING_SIZE = 4294967296;
/** Label of the ring's places among the layout's counter-based keys (distinct from an edge's two ids). */
const RING_LABEL = 0x72696e67;

/**
 * The ring of the points `ids` (one distinct id per point) under `seed`: a point's places depend on its id and
 * the seed only, never on which other points are there.
 */
export function negativeRing(ids: ArrayLike<number>, seed: number): NegativeRing {
  const n = ids.length;
  const m = n * RING_PLACES;
  const hashes = new Uint32Array(m);
  for (let i = 0; i < n; i++) {
    for (let v = 0; v < RING_PLACES; v++)
      hashes[i * RING_PLACES + v] = counterKey(seed, RING_LABEL, ids[i], v);
  }
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
  const share = new Float64Array(n);
  // A place owns the arc from the place before it (the last place's arc wraps past 0).
  for (let j = 0; j < m; j++)
    share[point[j]] += j > 0 ? hash[j] - hash[j - 1] : hash[0] + (RING_SIZE - hash[m - 1]);
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) weight[i] = share[i] > 0 ? RING_SIZE / (n * share[i]) : 0;
  return { hash, point, ...ringIndex(hash), weight };
}

/** The bucket index of a ring's ascending `hash`: about one bucket per place, at most 2²⁴. */
function ringIndex(hash: Uint32Array): Pick<NegativeRing, 'bucket' | 'shift'> {
  const m = hash.length;
  const bits = Math.max(1, Math.min(24, Math.ceil(Math.log2(Math.max(2, m)))));
  const shift = 32 - bits;
  const bucket = new Int32Array(1 << bits);
  for (let b = 0, j = 0; b < bucket.length; b++) {
    const start = b * 2 ** shift;
    while (j < m && hash[j] < start) j++;
    bucket[b] = j;
  }
  return { bucket, shift };
}

/**
 * The ring that lands a draw where umap-js's ⌊u · n⌋ does, every weight 1: place i at the last 32 bits u · 2³²
 * with ⌊u · n⌋ = i. For a set that gains or loses no point (a whole layer's global layout).
 */
export function positionRing(n: number): NegativeRing {
  const hash = Uint32Array.from({ length: n }, (_, i) => Math.ceil(((i + 1) * RING_SIZE) / n) - 1);
  const point = Int32Array.from({ length: n }, (_, i) => i);
  return { hash, point, ...ringIndex(hash), weight: new Float64Array(n).fill(1) };
}

/** The point a draw's 32 bits (random.ts `counterBits`) land on: the owner of the first place at or after them. */
export function ringPoint(ring: NegativeRing, bits: number): number {
  const { hash } = ring;
  let place = ring.bucket[bits >>> ring.shift];
  while (place < hash.length && hash[place] < bits) place++;
  return ring.point[place === hash.length ? 0 : place];
}
