/**
 * k-means on flat row-major data, as scikit-learn's `KMeans(n_init=1, algorithm='lloyd')` does it: greedy
 * k-means++ seeding, then Lloyd iterations to convergence. It is the initialisation of the Gaussian mixture
 * (see gmm.ts), so its defaults are scikit-learn's.
 */
import type { RandomFn } from '../random';
import { counterBits, counterKey, counterMix, randomInt } from '../random';

/** scikit-learn's `KMeans` max_iter default. */
export const DEFAULT_KMEANS_MAX_ITER = 300;
/** scikit-learn's `KMeans` tol default, relative to the mean per-dimension variance of the data. */
export const DEFAULT_KMEANS_TOL = 1e-4;
/** Greedy k-means++ draws this many candidates per centre, plus ⌊ln k⌋ (scikit-learn's rule). */
const BASE_LOCAL_TRIALS = 2;

/** Options of {@link kmeans}. */
export interface KMeansOptions {
  /** Maximum Lloyd iterations. Default 300. */
  maxIter?: number;
  /**
   * Stop when the summed squared centre shift is at most tol × (mean per-dimension variance of the data).
   * Default 1e-4. Identical labels in two successive iterations also stop (strict convergence).
   */
  tol?: number;
  /**
   * A distinct id per point: the seeding's draws are keyed by them (see {@link kmeansPlusPlus}), so a point
   * joining or leaving the set changes the seeding only where that point would have been drawn.
   */
  ids?: ArrayLike<number>;
  /**
   * The seeding to take the first k centres from (made for these data, these ids and `localTrials(k)`), in
   * place of a new one drawn from `random`: the same centres as that new one when its generator starts where
   * `random` does. A BIC sweep shares one across its ks (see `KMeansPlusPlusSeeding`).
   */
  seeding?: KMeansPlusPlusSeeding;
}

/** A k-means solution. */
export interface KMeansResult {
  /** Centres, k × dim, row-major. */
  centers: Float64Array;
  /** Index of the nearest centre of each point (ties go to the lower index). */
  labels: Int32Array;
  /** Lloyd iterations run. */
  iterations: number;
}

function squaredDistance(a: Float64Array, ao: number, b: Float64Array, bo: number, dim: number): number {
  let s = 0;
  for (let c = 0; c < dim; c++) {
    const t = a[ao + c] - b[bo + c];
    s += t * t;
  }
  return s;
}

/** Mean over dimensions of the per-dimension (population) variance: the scale of the data. */
export function meanVariance(data: Float64Array, n: number, dim: number): number {
  let total = 0;
  for (let c = 0; c < dim; c++) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += data[i * dim + c];
    mean /= n;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const t = data[i * dim + c] - mean;
      v += t * t;
    }
    total += v / n;
  }
  return total / dim;
}

/** First index whose cumulative sum reaches `value` (numpy's searchsorted, side 'left'), clipped to n − 1. */
function searchCumulative(cumulative: Float64Array, n: number, value: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, n - 1);
}

/** 2³²: the range of a counter-based draw's bits. */
const UINT32_RANGE = 4294967296;

/** Candidates drawn per centre by a greedy k-means++ seeding of `k` centres: 2 + ⌊ln k⌋ (scikit-learn's rule). */
export function localTrials(k: number): number {
  return BASE_LOCAL_TRIALS + Math.floor(Math.log(k));
}

/**
 * Greedy k-means++ seeding (Arthur & Vassilvitskii 2007, with scikit-learn's 2 + ⌊ln k⌋ local trials per
 * centre, keeping the candidate that lowers the potential most).
 * @returns the k initial centres, k × dim, row-major.
 */
export function kmeansPlusPlus(
  data: Float64Array,
  n: number,
  dim: number,
  k: number,
  random: RandomFn,
  ids?: ArrayLike<number>,
): Float64Array {
  return new KMeansPlusPlusSeeding(data, n, dim, localTrials(k), random, ids).centers(k);
}

/**
 * A greedy k-means++ seeding that can be taken further: its first k centres are `kmeansPlusPlus`'s for every k
 * whose `localTrials(k)` is `trials`, from a generator in the same state. Each centre's draws come after the
 * last one's, so the seeding of k + 1 centres begins with that of k; a BIC sweep that fits k = 21 … 49 (all of
 * 5 trials) from one seed then picks 49 centres once instead of 21 + 22 + … + 49.
 */
export class KMeansPlusPlusSeeding {
  private readonly picked: Float64Array[] = [];
  private readonly closest: Float64Array;
  private readonly cumulative: Float64Array;
  private readonly candidateDist: Float64Array;
  private readonly candidateIds: Int32Array;
  private readonly keys?: Uint32Array;
  private potential = 0;

  /**
   * @param trials candidates per centre (`localTrials(k)` of the ks this seeding serves).
   * @param random the generator, used by this seeding alone from now on.
   * @param ids a distinct id per point: each draw is then a race keyed by them (see `KMeansOptions.ids`).
   */
  constructor(
    private readonly data: Float64Array,
    private readonly n: number,
    private readonly dim: number,
    readonly trials: number,
    private readonly random: RandomFn,
    ids?: ArrayLike<number>,
  ) {
    // Keyed by ids: each draw is a race in which point i's time is −ln(u_i) / weight_i, u_i a counter-based draw
    // keyed by its id (Efraimidis & Spirakis 2006): the winner is drawn with probability ∝ weight, as by the
    // cumulative sums, but a point's entry does not depend on its position among the others.
    if (ids) {
      const raceKey = counterKey(Math.floor(random() * UINT32_RANGE));
      this.keys = Uint32Array.from({ length: n }, (_, i) => counterKey(raceKey, ids[i]));
    }
    this.closest = new Float64Array(n);
    this.cumulative = new Float64Array(n);
    this.candidateDist = new Float64Array(trials * n);
    this.candidateIds = new Int32Array(trials);
  }

  /** The first `k` centres, k × dim, row-major (a new array). */
  centers(k: number): Float64Array {
    while (this.picked.length < k) this.pickNext();
    const out = new Float64Array(k * this.dim);
    for (let c = 0; c < k; c++) out.set(this.picked[c], c * this.dim);
    return out;
  }

  private race(weights: Float64Array | undefined, draw: number): number {
    const { n, keys } = this;
    let best = 0;
    let bestTime = Infinity;
    const counter = counterMix(draw);
    for (let i = 0; i < n; i++) {
      const w = weights ? weights[i] : 1;
      if (!(w > 0)) continue;
      const u = (counterBits(keys![i], counter) + 1) / (UINT32_RANGE + 1);
      const time = -Math.log(u) / w;
      if (time < bestTime) {
        bestTime = time;
        best = i;
      }
    }
    return best;
  }

  private pickNext(): void {
    const { data, n, dim, trials, closest, cumulative, candidateDist, candidateIds } = this;
    const c = this.picked.length;
    if (c === 0) {
      const first = this.keys ? this.race(undefined, 0) : randomInt(this.random, n);
      this.picked.push(data.slice(first * dim, first * dim + dim));
      let potential = 0;
      for (let i = 0; i < n; i++) {
        closest[i] = squaredDistance(data, i * dim, data, first * dim, dim);
        potential += closest[i];
      }
      this.potential = potential;
      return;
    }
    let acc = 0;
    for (let i = 0; i < n; i++) {
      acc += closest[i];
      cumulative[i] = acc;
    }
    for (let t = 0; t < trials; t++) {
      candidateIds[t] = this.keys
        ? this.race(closest, 1 + (c - 1) * trials + t)
        : searchCumulative(cumulative, n, this.random() * this.potential);
    }
    let best = 0;
    let bestPotential = Infinity;
    for (let t = 0; t < trials; t++) {
      const co = candidateIds[t] * dim;
      const row = t * n;
      let pot = 0;
      for (let i = 0; i < n; i++) {
        const dist = Math.min(closest[i], squaredDistance(data, i * dim, data, co, dim));
        candidateDist[row + i] = dist;
        pot += dist;
      }
      if (pot < bestPotential) {
        bestPotential = pot;
        best = t;
      }
    }
    this.potential = bestPotential;
    closest.set(candidateDist.subarray(best * n, best * n + n));
    const chosen = candidateIds[best] * dim;
    this.picked.push(data.slice(chosen, chosen + dim));
  }
}

/** Records the nearest centre of point i; returns whether its label changed. */
function settle(
  i: number,
  best: number,
  bestDist: number,
  labels: Int32Array,
  distances: Float64Array,
): boolean {
  const changed = labels[i] !== best;
  labels[i] = best;
  distances[i] = bestDist;
  return changed;
}

/**
 * Assigns each point to its nearest centre (ties to the lower index); returns whether any label changed. Four
 * points per pass share each load of a centre.
 */
function assign(
  data: Float64Array,
  n: number,
  dim: number,
  centers: Float64Array,
  k: number,
  labels: Int32Array,
  distances: Float64Array,
): boolean {
  let changed = false;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const x0 = i * dim;
    const x1 = x0 + dim;
    const x2 = x1 + dim;
    const x3 = x2 + dim;
    let best0 = 0;
    let best1 = 0;
    let best2 = 0;
    let best3 = 0;
    let dist0 = Infinity;
    let dist1 = Infinity;
    let dist2 = Infinity;
    let dist3 = Infinity;
    for (let j = 0, co = 0; j < k; j++, co += dim) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let c = 0; c < dim; c++) {
        const m = centers[co + c];
        const t0 = data[x0 + c] - m;
        const t1 = data[x1 + c] - m;
        const t2 = data[x2 + c] - m;
        const t3 = data[x3 + c] - m;
        s0 += t0 * t0;
        s1 += t1 * t1;
        s2 += t2 * t2;
        s3 += t3 * t3;
      }
      if (s0 < dist0) {
        dist0 = s0;
        best0 = j;
      }
      if (s1 < dist1) {
        dist1 = s1;
        best1 = j;
      }
      if (s2 < dist2) {
        dist2 = s2;
        best2 = j;
      }
      if (s3 < dist3) {
        dist3 = s3;
        best3 = j;
      }
    }
    // Evaluate all four settles: a short-circuiting || would skip recording labels.
    const c0 = settle(i, best0, dist0, labels, distances);
    const c1 = settle(i + 1, best1, dist1, labels, distances);
    const c2 = settle(i + 2, best2, dist2, labels, distances);
    const c3 = settle(i + 3, best3, dist3, labels, distances);
    changed = changed || c0 || c1 || c2 || c3;
  }
  for (; i < n; i++) {
    let best = 0;
    let bestDist = Infinity;
    for (let j = 0; j < k; j++) {
      const dist = squaredDistance(data, i * dim, centers, j * dim, dim);
      if (dist < bestDist) {
        bestDist = dist;
        best = j;
      }
    }
    if (settle(i, best, bestDist, labels, distances)) changed = true;
  }
  return changed;
}

/**
 * Recomputes the centres as the means of their points. An empty cluster takes the point farthest from its
 * centre (scikit-learn's relocation), so no centre is left without points.
 */
function updateCenters(
  data: Float64Array,
  n: number,
  dim: number,
  k: number,
  labels: Int32Array,
  distances: Float64Array,
  out: Float64Array,
  counts: Float64Array,
): void {
  out.fill(0);
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const o = labels[i] * dim;
    counts[labels[i]]++;
    for (let c = 0; c < dim; c++) out[o + c] += data[i * dim + c];
  }
  let empty = 0;
  for (let j = 0; j < k; j++) if (counts[j] === 0) empty++;
  if (empty > 0) {
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => distances[b] - distances[a] || a - b);
    let next = 0;
    for (let j = 0; j < k && next < n; j++) {
      if (counts[j] !== 0) continue;
      const far = order[next++];
      const from = labels[far];
      for (let c = 0; c < dim; c++) {
        out[from * dim + c] -= data[far * dim + c];
        out[j * dim + c] = data[far * dim + c];
      }
      counts[from]--;
      counts[j] = 1;
    }
  }
  for (let j = 0; j < k; j++) {
    // A cluster emptied by relocation keeps a zero sum; dividing by its zero count would give NaN.
    const inv = counts[j] > 0 ? 1 / counts[j] : 0;
    for (let c = 0; c < dim; c++) out[j * dim + c] *= inv;
  }
}

/**
 * k-means with greedy k-means++ seeding and Lloyd iterations, like scikit-learn's `KMeans(n_init=1)`.
 * @param data n × dim points, row-major.
 * @param random the seeded generator (see random.ts) that draws the seeding.
 */
export function kmeans(
  data: Float64Array,
  n: number,
  dim: number,
  k: number,
  random: RandomFn,
  options: KMeansOptions = {},
): KMeansResult {
  const maxIter = options.maxIter ?? DEFAULT_KMEANS_MAX_ITER;
  const tol = (options.tol ?? DEFAULT_KMEANS_TOL) * meanVariance(data, n, dim);
  const seeding = options.seeding;
  if (seeding && seeding.trials !== localTrials(k)) {
    throw new RangeError(`A seeding of ${seeding.trials} trials cannot start k-means of ${k} centres.`);
  }
  let centers: Float64Array = seeding
    ? seeding.centers(k)
    : kmeansPlusPlus(data, n, dim, k, random, options.ids);
  let next: Float64Array = new Float64Array(k * dim);
  const labels = new Int32Array(n).fill(-1);
  const distances = new Float64Array(n);
  const counts = new Float64Array(k);
  let iterations = 0;
  while (iterations < maxIter) {
    iterations++;
    const changed = assign(data, n, dim, centers, k, labels, distances);
    updateCenters(data, n, dim, k, labels, distances, next, counts);
    let shift = 0;
    for (let j = 0; j < k; j++) shift += squaredDistance(centers, j * dim, next, j * dim, dim);
    [centers, next] = [next, centers];
    if (!changed || shift <= tol) break;
  }
  // The labels were computed from the previous centres. Refresh them: after a stop on the shift tolerance, and
  // after a stop on unchanged labels whose update moved a point into an empty cluster (that centre changed).
  // scikit-learn refreshes only in the first case, which can leave a label that is not its point's nearest
  // centre; otherwise the refresh changes nothing.
  assign(data, n, dim, centers, k, labels, distances);
  return { centers, labels, iterations };
}
