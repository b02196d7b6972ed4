/**
 * The layout's stable schedule: UMAP's stochastic gradient descent (umap-layout.ts) rearranged so that the
 * layout is a continuous function of its graph, with a small Lipschitz constant. umap-js's schedule is
 * chaotic: an edge is sampled every max/w epochs, so a weight that moves by 1e-12 can add or drop one sample,
 * which takes one more or one fewer negative draw from the shared stream and so changes every later draw; at
 * learning rate 1 the descent amplifies any difference, and the repulsion between points nearer than ~0.03
 * (its 1/(0.001 + d²)) is stiff enough to do so even at a small rate. Adding ±1e-9 to a book's embeddings then
 * gave a layout as different as another seed's, and a tree of other clusters (docs/clustering.md,
 * "Stability", has the measurements).
 *
 * Here each edge is sampled every P epochs, P the power of two with P·w ≤ max < 2P·w, its update scaled by
 * P·w / max ∈ (½, 1] (so its expected pull is umap-js's, and a weight changes its period only by crossing a
 * power of two); it starts at an offset of its own; its negative samples are counter-based draws keyed by its
 * two end points' ids, the epoch and the sample's number (random.ts `counterBits`), so no edge's draws depend on
 * another's, landing where `StableState.ring` says (negative-ring.ts: in a local layout on a ring of the points'
 * ids, so a point joining or leaving the set moves only the draws that land on it); points start at draws keyed
 * by their ids in a box of ±START_BOX; the learning rate starts at STABLE_LEARNING_RATE; and the repulsion's
 * guard is REPULSION_FLOOR instead of 0.001. The same graph gives the same layout; a graph a hair away gives a
 * layout a hair away.
 */
import { counterBits, counterDraw, counterKey, counterMix, type RandomFn } from '../random';
import { ringPoint, type NegativeRing } from './negative-ring';
import { curvePow, curvePowTable } from './curve-pow';

/** The tables of the layout's powers (curve-pow.ts), made once; the kernel gets a copy. */
export const CURVE_POW_TABLE = curvePowTable();

/**
 * Learning rate of the first epochs (falling linearly to 0, as umap-js's 1 does). Measured (docs/clustering.md):
 * with umap-js's 1 the layout is chaotic whatever the schedule; from 0.1 down it follows its graph; the smaller
 * rate needs the smaller start box (START_BOX) to converge in umap-js's epochs.
 */
export const STABLE_LEARNING_RATE = 0.05;

/**
 * Half the side of the box the layout starts in (umap-js's is 10). From a box of ±10 a layout at the stable
 * learning rate had not gathered its clumps by the last epoch (clusters of ~20 instead of ~6).
 */
export const START_BOX = 2;

/**
 * Added to the squared distance in the repulsion's denominator: umap-js adds 0.001, which makes the push
 * between points nearer than ~0.03 so stiff that a dense clump (the paper's reference list) turned chaotic
 * again. 0.01 is the curve's min_dist² (umap.ts UMAP_MIN_DIST = 0.1): it softens the push only where the curve
 * already counts points as touching.
 */
export const REPULSION_FLOOR = 0.01;

/** Negative samples per sampled edge (umap-js's rate). */
export const STABLE_NEGATIVE_SAMPLES = 5;

/** Gradient clip (umap-js's). */
const CLIP = 4;

/** Per-edge arrays of the stable schedule. */
export interface StableSchedule {
  /** log2 of each edge's period P (epochs between its samples). */
  periodLog2: Int32Array;
  /** Each edge's update scale P·w / max, in (½, 1]. */
  scale: Float64Array;
  /** Each edge's counter-based key (random.ts `counterKey`); its low bits give the edge's offset. */
  key: Uint32Array;
}

/**
 * The stable schedule of a graph's edges (`head`, `tail`, `weight`). The key of an edge comes from `seed`
 * and its end points' ids only, so it survives other edges or points appearing or disappearing.
 */
export function stableSchedule(
  tail: Int32Array,
  head: Int32Array,
  weight: Float64Array,
  epochs: number,
  seed: number,
  ids: ArrayLike<number>,
): StableSchedule {
  const edges = weight.length;
  let max = 0;
  for (let e = 0; e < edges; e++) if (weight[e] > max) max = weight[e];
  const periodLog2 = new Int32Array(edges);
  const scale = new Float64Array(edges);
  const key = new Uint32Array(edges);
  for (let e = 0; e < edges; e++) {
    // Exact: doubling is exact in binary, so no engine's log2 decides a period.
    let period = 1;
    let shift = 0;
    while (period * 2 <= epochs && period * 2 * weight[e] <= max) {
      period *= 2;
      shift++;
    }
    periodLog2[e] = shift;
    scale[e] = (period * weight[e]) / max;
    key[e] = counterKey(seed, ids[tail[e]], ids[head[e]]);
  }
  return { periodLog2, scale, key };
}

/** A seed for the layout's counter-based draws, drawn from the layout's generator. */
export function scheduleSeed(random: RandomFn): number {
  return Math.floor(random() * 4294967296);
}

/**
 * Start positions uniform in [−START_BOX, START_BOX), each point's drawn by counter from its id: a point added to or removed
 * from the set moves no other point's start (where one stream would shift every later point's).
 * @param ids a stable id per point (e.g. its index in the layer), distinct.
 */
export function stableStart(ids: ArrayLike<number>, dim: number, seed: number): Float64Array {
  const y = new Float64Array(ids.length * dim);
  const counters = Array.from({ length: dim }, (_, d) => counterMix(d));
  for (let i = 0; i < ids.length; i++) {
    const key = counterKey(seed, ids[i]);
    for (let d = 0; d < dim; d++) y[i * dim + d] = counterDraw(key, counters[d]) * 2 * START_BOX - START_BOX;
  }
  return y;
}

/** The mixed counters of one epoch's negative samples (`counterMix` of epoch · rate + p). */
export function negativeCounters(epoch: number): Uint32Array {
  const out = new Uint32Array(STABLE_NEGATIVE_SAMPLES);
  for (let p = 0; p < STABLE_NEGATIVE_SAMPLES; p++) out[p] = counterMix(epoch * STABLE_NEGATIVE_SAMPLES + p);
  return out;
}

/** What one epoch of the stable schedule reads and updates. */
export interface StableState {
  n: number;
  dim: number;
  y: Float64Array;
  head: Int32Array;
  tail: Int32Array;
  schedule: StableSchedule;
  /**
   * Where the negative samples land, and each point's push weight (negative-ring.ts): `negativeRing` of the ids,
   * or `positionRing`, umap-js's ⌊u · n⌋.
   */
  ring: NegativeRing;
  a: number;
  b: number;
}

/** A gradient coordinate clipped to ±4, as umap-js clips it. */
export const clip = (g: number): number => (g > CLIP ? CLIP : g < -CLIP ? -CLIP : g);

/** Squared distance between the points whose coordinates start at offsets `j` and `k` of `y`. */
export function squaredDistance(y: Float64Array, j: number, k: number, dim: number): number {
  let dist2 = 0;
  for (let d = 0; d < dim; d++) {
    const t = y[j + d] - y[k + d];
    dist2 += t * t;
  }
  return dist2;
}

/** The attraction's gradient coefficient at squared distance `dist2` (umap-js's; 0 for coincident points). */
export function attractionCoefficient(dist2: number, a: number, b: number): number {
  if (!(dist2 > 0)) return 0;
  let coeff = -2 * a * b * Math.pow(dist2, b - 1);
  coeff /= a * Math.pow(dist2, b) + 1;
  return coeff;
}

/**
 * The stable schedule's attraction coefficient: umap-js's −2ab·d^(2(b−1)) / (a·d^(2b) + 1), with the power
 * curve-pow.ts's and taken once (d^(2(b−1)) as d^(2b) / d²). 0 for coincident points.
 */
export function stableAttraction(dist2: number, a: number, b: number): number {
  if (!(dist2 > 0)) return 0;
  const pb = curvePow(dist2, b, CURVE_POW_TABLE);
  let coeff = (-2 * a * b * pb) / dist2;
  coeff /= a * pb + 1;
  return coeff;
}

/** The stable schedule's repulsion coefficient at squared distance `d2` > 0 (curve-pow.ts's power). */
export function stableRepulsion(d2: number, a: number, b: number): number {
  let c = 2 * b;
  c /= (REPULSION_FLOOR + d2) * (a * curvePow(d2, b, CURVE_POW_TABLE) + 1);
  return c;
}

/** The repulsion's gradient coefficient at squared distance `d2` > 0, its denominator guarded by `floor`. */
export function repulsionCoefficient(d2: number, a: number, b: number, floor: number): number {
  let c = 2 * b;
  c /= (floor + d2) * (a * Math.pow(d2, b) + 1);
  return c;
}

/**
 * One epoch at learning rate `alpha` in JavaScript (kernels/umap-layout.ts `stableEpoch` is its twin): every
 * edge due this epoch pulls its two points together and pushes its head from STABLE_NEGATIVE_SAMPLES points
 * drawn on the ring (negative-ring.ts; repulsion guarded by REPULSION_FLOOR), each push weighted by the drawn
 * point's ring weight and every update scaled by the edge's scale; coincident points are handled as umap-js
 * does.
 */
export function stableEpoch(state: StableState, epoch: number, alpha: number): void {
  const { dim, y, head, tail, a, b, ring } = state;
  const { periodLog2, scale, key } = state.schedule;
  const counters = negativeCounters(epoch);
  const edges = head.length;
  for (let e = 0; e < edges; e++) {
    const mask = (1 << periodLog2[e]) - 1;
    if (((epoch + key[e]) & mask) !== 0) continue;
    const step = scale[e] * alpha;
    const j = head[e] * dim;
    const k = tail[e] * dim;
    const coeff = stableAttraction(squaredDistance(y, j, k, dim), a, b);
    for (let d = 0; d < dim; d++) {
      const g = clip(coeff * (y[j + d] - y[k + d]));
      y[j + d] += g * step;
      y[k + d] += -g * step;
    }
    for (let p = 0; p < STABLE_NEGATIVE_SAMPLES; p++) {
      const other = ringPoint(ring, counterBits(key[e], counters[p]));
      const push = step * ring.weight[other];
      const o = other * dim;
      const d2 = squaredDistance(y, j, o, dim);
      let c = 0;
      if (d2 > 0) c = stableRepulsion(d2, a, b);
      else if (head[e] === other) continue;
      for (let d = 0; d < dim; d++) {
        let g = 4;
        if (c > 0) g = clip(c * (y[j + d] - y[o + d]));
        y[j + d] += g * push;
      }
    }
  }
}
