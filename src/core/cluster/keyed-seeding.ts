/**
 * Greedy k-means++ seeding whose draws are keyed by the points' ids instead of taken from one stream, so that a
 * point added to or removed from the set changes the seeding only if it would itself have been drawn. The
 * stream's way — a uniform number times the potential, looked up in the cumulative sum of the points'
 * squared distances — lands on another point as soon as one point before it comes or goes: a group that gained
 * one member (a node whose global posterior crossed 0.1 under a hair of noise) started every k of its sweep
 * elsewhere, and its clusters were another seed's (docs/clustering.md, "Stability").
 *
 * Each draw is an exponential race (Efraimidis & Spirakis 2006): point i runs −ln(uᵢ) / wᵢ, uᵢ a counter-based
 * draw from its id's key (random.ts), wᵢ its weight (1 for the first centre, its squared distance to the nearest
 * centre after); the fastest wins. The winner is distributed exactly as the stream's pick (in proportion to wᵢ),
 * and depends on no other point's presence but the winner's. Ties go to the lower id. The logarithm is
 * curve-pow.ts's, the same bits in every engine.
 */
import { counterBits, counterKey, counterMix } from '../random';
import { curveLog } from './curve-pow';

/** Seeding draws keyed by each point's id (`kmeans`' alternative to a random stream). */
export interface KeyedDraws {
  /** The seed of every point's key. */
  seed: number;
  /** One distinct id per point (e.g. node indices). */
  ids: ArrayLike<number>;
  /** Which of several independent seedings of the same points (0, 1, …). Default 0. */
  start?: number;
}

/**
 * Counters per centre and per start: trial t of centre c of start s draws with counter
 * s · START_STRIDE + c · TRIAL_STRIDE + t (trials stay below TRIAL_STRIDE, centres below START_STRIDE / it).
 */
const TRIAL_STRIDE = 64;
const START_STRIDE = 1 << 20;
const TWO_32 = 4294967296;

/**
 * The winner of race `counter` among points of weight `weight[i]` (all 1 when undefined), or of the unweighted
 * race when no point has a positive weight (every point sits on a centre).
 */
function race(
  keys: Uint32Array,
  ids: ArrayLike<number>,
  counter: number,
  weight: Float64Array | undefined,
): number {
  const mixed = counterMix(counter);
  let best = -1;
  let bestTime = Infinity;
  for (let i = 0; i < keys.length; i++) {
    const w = weight ? weight[i] : 1;
    if (!(w > 0)) continue;
    const time = -curveLog((counterBits(keys[i], mixed) + 0.5) / TWO_32) / w;
    if (time < bestTime || (time === bestTime && ids[i] < ids[best])) {
      bestTime = time;
      best = i;
    }
  }
  return best < 0 ? race(keys, ids, counter, undefined) : best;
}

function squaredDistance(data: Float64Array, a: number, b: number, dim: number): number {
  let s = 0;
  for (let c = 0; c < dim; c++) {
    const t = data[a + c] - data[b + c];
    s += t * t;
  }
  return s;
}

/**
 * Greedy k-means++ (scikit-learn's `trials` candidates per centre, keeping the one that lowers the potential
 * most; ties to the earlier trial) with keyed draws.
 * @returns the k initial centres, k × dim, row-major.
 */
export function keyedPlusPlus(
  data: Float64Array,
  n: number,
  dim: number,
  k: number,
  trials: number,
  draws: KeyedDraws,
): Float64Array {
  if (draws.ids.length !== n) throw new RangeError(`${draws.ids.length} ids for ${n} points.`);
  const { ids } = draws;
  const keys = new Uint32Array(n);
  for (let i = 0; i < n; i++) keys[i] = counterKey(draws.seed, ids[i]);
  const centers = new Float64Array(k * dim);
  const closest = new Float64Array(n);
  const candidate = new Float64Array(n);
  const base = (draws.start ?? 0) * START_STRIDE;
  const first = race(keys, ids, base, undefined);
  centers.set(data.subarray(first * dim, first * dim + dim), 0);
  for (let i = 0; i < n; i++) closest[i] = squaredDistance(data, i * dim, first * dim, dim);
  const bestDist = new Float64Array(n);
  for (let c = 1; c < k; c++) {
    let best = -1;
    let bestPotential = Infinity;
    for (let t = 0; t < trials; t++) {
      const pick = race(keys, ids, base + c * TRIAL_STRIDE + t, closest);
      let potential = 0;
      for (let i = 0; i < n; i++) {
        candidate[i] = Math.min(closest[i], squaredDistance(data, i * dim, pick * dim, dim));
        potential += candidate[i];
      }
      if (potential < bestPotential) {
        bestPotential = potential;
        best = pick;
        bestDist.set(candidate);
      }
    }
    closest.set(bestDist);
    centers.set(data.subarray(best * dim, best * dim + dim), c * dim);
  }
  return centers;
}
