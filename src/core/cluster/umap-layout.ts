/**
 * UMAP's layout on flat typed arrays: the fuzzy simplicial set of a k-NN graph, then the stochastic gradient
 * descent that embeds it. It reproduces umap-js 1.4's `initializeFit` + `step` with a precomputed k-NN graph
 * number for number (same operations in the same order, same draws from the generator), without its sparse
 * matrix of string keys and `number[][]` rows, which made it several times slower (`npm run bench cluster`).
 * Fixed as in umap-js (and the official RAPTOR code): local connectivity 1, set-operation mix ratio 1, spread 1,
 * repulsion strength 1, 5 negative samples per positive one, random initialisation. The epochs follow one of
 * two schedules: umap-js's (learning rate 1, edges sampled every max/w epochs, negatives from one stream), whose
 * layout a hair's change of the graph turns into another, or the stable one of umap-stable.ts (the default),
 * whose layout moves by a hair.
 */
import { findABParams } from 'umap-js/dist/umap';
import type { KnnGraph } from './knn';
import { createLayoutKernel, createStableLayoutKernel } from './umap-kernel';
import { negativeRing, positionRing } from './negative-ring';
import { deriveSeed, type RandomFn } from '../random';
import {
  attractionCoefficient,
  clip,
  repulsionCoefficient,
  scheduleSeed,
  squaredDistance,
  STABLE_LEARNING_RATE,
  stableEpoch,
  stableSchedule,
  stableStart,
  type StableState,
} from './umap-stable';

/** Bisection tolerance of the per-point bandwidth search (umap-learn's SMOOTH_K_TOLERANCE). */
const SMOOTH_K_TOLERANCE = 1e-5;
/** Lower bound of a bandwidth, as a fraction of the mean neighbour distance (umap-learn's MIN_K_DIST_SCALE). */
const MIN_K_DIST_SCALE = 1e-3;
/**
 * Cosine distance at or below which two unit vectors count as the same point (a duplicate chunk): the
 * clustering lays such points out once (same-points.ts), and the continuous bandwidths skip them when finding
 * rho, the distance to the nearest *other* point, as umap-learn skips distance 0. Exact zeros alone would not
 * do: a duplicate's distance is 0 or ~1e-9 as the last bits of the vectors fall, and rho would jump from the
 * next neighbour's distance to 1e-9, which reshaped a whole graph (docs/clustering.md, "Stability"). Distinct
 * chunks measured ≥ 1e-2 apart; a ±1e-6 change of 384 coordinates moves a distance by ~1e-10.
 */
export const SAME_POINT_DISTANCE = 1e-6;
/** Bisection steps of the bandwidth search. */
const BANDWIDTH_ITERATIONS = 64;
/** Negative samples per positive sample. */
const NEGATIVE_SAMPLE_RATE = 5;
/** umap-js's guard in the repulsion's denominator (the stable schedule's is REPULSION_FLOOR). */
const UMAP_JS_REPULSION_FLOOR = 0.001;

/** The graph the layout optimises: one entry per directed edge, ordered by (tail, head). */
export interface LayoutGraph {
  /** Number of points. */
  n: number;
  /** Row of each edge (the point pulled towards `head`'s point, and moved with it). */
  tail: Int32Array;
  /** Column of each edge (the point whose position each update of this edge moves first). */
  head: Int32Array;
  /** Membership strength of each edge, in (0, 1]; weaker than max/epochs are already dropped. */
  weight: Float64Array;
  /** Number of optimisation epochs (`layoutEpochs(n)`). */
  epochs: number;
}

/** umap-js's epoch count for `n` points: 500 up to 2,500, 400 up to 5,000, 300 up to 7,500, else 200. */
export function layoutEpochs(n: number): number {
  if (n <= 2500) return 500;
  if (n <= 5000) return 400;
  if (n <= 7500) return 300;
  return 200;
}

let abCache: { a: number; b: number } | undefined;

/** The curve parameters (a, b) for min_dist 0.1, spread 1, fitted once by umap-js's own least squares. */
export function curveParameters(): { a: number; b: number } {
  abCache ??= findABParams(1.0, 0.1);
  return abCache;
}

function mean(values: number[]): number {
  let s = values[0];
  for (let i = 1; i < values.length; i++) s += values[i];
  return s / values.length;
}

/**
 * Each point's distance to its nearest non-identical neighbour (rho) and the bandwidth (sigma) at which its
 * neighbours' memberships sum to log2(k), found by bisection; rows are assumed to start with the point itself.
 * @param continuous false (default): umap-learn's rules, rho the first distance above 0 and the bisection
 *   stopped once the sum is within 1e-5. true: rho and sigma move by a hair when the distances do — rho the
 *   first distance above SAME_POINT_DISTANCE (a duplicate's distance is 0 or ~1e-9 as the last bits fall), and
 *   the bisection run to its last step (stopping early makes sigma jump as the step it stops at changes).
 */
export function smoothKnnDistances(
  distances: number[][],
  k: number,
  continuous = false,
): { sigmas: Float64Array; rhos: Float64Array } {
  const tolerance = continuous ? 0 : SMOOTH_K_TOLERANCE;
  const samePoint = continuous ? SAME_POINT_DISTANCE : 0;
  const n = distances.length;
  const target = Math.log(k) / Math.log(2);
  const rhos = new Float64Array(n);
  const sigmas = new Float64Array(n);
  let meanOfMeans: number | undefined;
  for (let i = 0; i < n; i++) {
    const row = distances[i];
    for (const d of row) {
      if (d > samePoint) {
        rhos[i] = d;
        break;
      }
    }
    let lo = 0;
    let hi = Infinity;
    let mid = 1;
    for (let it = 0; it < BANDWIDTH_ITERATIONS; it++) {
      let psum = 0;
      for (let j = 1; j < row.length; j++) {
        const d = row[j] - rhos[i];
        psum += d > 0 ? Math.exp(-(d / mid)) : 1;
      }
      if (Math.abs(psum - target) < tolerance) break;
      const lo0 = lo;
      const hi0 = hi;
      const mid0 = mid;
      if (psum > target) {
        hi = mid;
        mid = (lo + hi) / 2;
      } else {
        lo = mid;
        mid = hi === Infinity ? mid * 2 : (lo + hi) / 2;
      }
      // The step is a function of (lo, hi, mid) alone: once a step leaves them as they were, every later step
      // would too (the bisection has reached adjacent doubles), so stopping gives the last step's sigma.
      if (lo === lo0 && hi === hi0 && mid === mid0) break;
    }
    let scale: number;
    if (rhos[i] > 0) scale = mean(row);
    else scale = meanOfMeans ??= mean(distances.map(mean));
    sigmas[i] = Math.max(mid, MIN_K_DIST_SCALE * scale);
  }
  return { sigmas, rhos };
}

/**
 * The positions of `keys` (integers ≥ 0) in ascending order of key, equal keys in the order given. Each key and
 * its position are packed into one exact double (key · m + position) and the doubles sorted by the engine's
 * numeric typed-array sort, several times faster than sorting positions with a comparator (the KJV's fuzzy set
 * sorts two lists of 1.4 million entries); keys too large to pack exactly take the comparator's way.
 */
export function stableOrder(keys: Float64Array): ArrayLike<number> {
  const m = keys.length;
  let max = 0;
  for (let p = 0; p < m; p++) if (keys[p] > max) max = keys[p];
  if (!((max + 1) * m <= Number.MAX_SAFE_INTEGER)) {
    const order = Array.from({ length: m }, (_, i) => i);
    return order.sort((a, b) => keys[a] - keys[b]);
  }
  const packed = new Float64Array(m);
  for (let p = 0; p < m; p++) packed[p] = keys[p] * m + p;
  packed.sort();
  const order = new Int32Array(m);
  for (let p = 0; p < m; p++) order[p] = packed[p] % m;
  return order;
}

/**
 * Sorted (key, value) pairs, key = row·n + col; for equal keys only the last one given is kept (the sort is
 * stable, so equal keys stay in the order given).
 */
function sortedEntries(
  keys: Float64Array,
  values: Float64Array,
): { keys: Float64Array; values: Float64Array } {
  const order = stableOrder(keys);
  const outKeys = new Float64Array(keys.length);
  const outValues = new Float64Array(keys.length);
  let m = 0;
  for (let p = 0; p < order.length; p++) {
    const key = keys[order[p]];
    if (m > 0 && outKeys[m - 1] === key) m--;
    outKeys[m] = key;
    outValues[m] = values[order[p]];
    m++;
  }
  return { keys: outKeys.subarray(0, m), values: outValues.subarray(0, m) };
}

/** Whether an edge of the union stays: non-zero (and a number) and not weaker than `floor`. */
function keeps(value: number, floor: number): boolean {
  return !!value && !(value < floor);
}

/**
 * The fuzzy simplicial set of a k-NN graph: directed memberships exp(−(d − rho)/sigma), made symmetric by the
 * fuzzy union w + wᵀ − w∘wᵀ; edges weaker than max/epochs are dropped.
 * @param graph k-NN lists (umap-js's precomputed format; index −1 marks a missing neighbour).
 * @param nNeighbors the k the bandwidths are fitted to (log2 k).
 * @param continuous rho and sigma by the continuous rules (see `smoothKnnDistances`; the stable layout's), or
 *   umap-learn's (default).
 */
export function fuzzySimplicialSet(graph: KnnGraph, nNeighbors: number, continuous = false): LayoutGraph {
  const n = graph.indices.length;
  const { sigmas, rhos } = smoothKnnDistances(graph.distances, nNeighbors, continuous);
  const width = graph.indices[0].length;
  const keys = new Float64Array(n * width);
  const tKeys = new Float64Array(n * width);
  const values = new Float64Array(n * width);
  let m = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < width; j++) {
      const col = graph.indices[i][j];
      if (col === -1) continue;
      const d = graph.distances[i][j];
      let v: number;
      if (col === i) v = 0;
      else if (d - rhos[i] <= 0) v = 1;
      else v = Math.exp(-((d - rhos[i]) / sigmas[i]));
      keys[m] = i * n + col;
      values[m] = v;
      m++;
    }
  }
  const direct = sortedEntries(keys.subarray(0, m), values.subarray(0, m));
  for (let p = 0; p < direct.keys.length; p++) {
    const key = direct.keys[p];
    const row = Math.floor(key / n);
    tKeys[p] = (key - row * n) * n + row;
  }
  const transposed = sortedEntries(tKeys.subarray(0, direct.keys.length), direct.values);
  // Merge the two sorted lists: the union's value is (x + y) − x·y, x from w and y from wᵀ (0 where absent).
  const unionKeys = new Float64Array(direct.keys.length + transposed.keys.length);
  const unionValues = new Float64Array(unionKeys.length);
  let u = 0;
  let graphMax = 0;
  for (let a = 0, b = 0; a < direct.keys.length || b < transposed.keys.length; u++) {
    const ka = a < direct.keys.length ? direct.keys[a] : Infinity;
    const kb = b < transposed.keys.length ? transposed.keys[b] : Infinity;
    const x = ka <= kb ? direct.values[a] : 0;
    const y = kb <= ka ? transposed.values[b] : 0;
    unionKeys[u] = Math.min(ka, kb);
    unionValues[u] = x + y - x * y;
    if (graphMax < unionValues[u]) graphMax = unionValues[u];
    if (ka <= kb) a++;
    if (kb <= ka) b++;
  }
  const epochs = layoutEpochs(n);
  const floor = graphMax / epochs;
  let edges = 0;
  for (let p = 0; p < u; p++) if (keeps(unionValues[p], floor)) edges++;
  const tail = new Int32Array(edges);
  const head = new Int32Array(edges);
  const weight = new Float64Array(edges);
  for (let p = 0, e = 0; p < u; p++) {
    const v = unionValues[p];
    if (!keeps(v, floor)) continue;
    const row = Math.floor(unionKeys[p] / n);
    tail[e] = row;
    head[e] = unionKeys[p] - row * n;
    weight[e] = v;
    e++;
  }
  return { n, tail, head, weight, epochs };
}

/** The state of a layout under optimisation (see `optimizeLayout`). */
interface LayoutState {
  graph: LayoutGraph;
  dim: number;
  y: Float64Array;
  a: number;
  b: number;
  epochsPerSample: Float64Array;
  epochsPerNegative: Float64Array;
  nextSample: Float64Array;
  nextNegative: Float64Array;
  random: RandomFn;
}

/** Options of `optimizeLayout`. */
export interface LayoutOptions {
  /**
   * Where the epochs run. 'auto' (default): the WebAssembly kernel (umap-kernel.ts) when this runtime has
   * WebAssembly and `random` comes from random.ts, else JavaScript. 'js': JavaScript, whose numbers are
   * umap-js's own; the kernel's differ only where its `Math.pow` and the engine's disagree in the last bit.
   */
  engine?: 'auto' | 'js';
  /** The curve parameters; default `curveParameters()` (min_dist 0.1, spread 1). */
  curve?: { a: number; b: number };
  /**
   * 'stable' (default): umap-stable.ts's schedule, a layout that moves by a hair when the graph does.
   * 'umap-js': umap-js's schedule, number for number (with engine 'js'), for comparisons.
   */
  schedule?: LayoutSchedule;
  /**
   * Stable schedule: a distinct id per point (default its position). Each point's start and each edge's draws
   * are keyed by ids, so the layout of a set with one point more or less keeps every other point's draws.
   */
  ids?: ArrayLike<number>;
  /**
   * Stable schedule: where the negative samples land. 'position' (default): umap-js's ⌊u · n⌋, for a set of
   * points that is given (a whole layer). 'ring': on a ring of the points' ids (negative-ring.ts), so a set that
   * gains or loses a point (a global group of a local layout) keeps every other draw.
   */
  negatives?: NegativeSampling;
}

/** Where the stable layout's negative samples land (see `LayoutOptions.negatives`). */
export type NegativeSampling = 'position' | 'ring';

/** How the layout's epochs sample edges and negatives (see `LayoutOptions.schedule`). */
export type LayoutSchedule = 'stable' | 'umap-js';

/**
 * Embeds a layout graph in `nComponents` dimensions: random start in [−10, 10), then `graph.epochs` epochs of
 * attractive updates along edges (each sampled in proportion to its weight) and repulsive updates from
 * randomly drawn points, with a learning rate falling linearly to 0, in the schedule `options.schedule` says.
 * Yields after each epoch (1-based count).
 * @returns row-major `n × nComponents` coordinates.
 */
export function* optimizeLayout(
  graph: LayoutGraph,
  nComponents: number,
  random: RandomFn,
  options: LayoutOptions = {},
): Generator<number, Float64Array> {
  const { a, b } = options.curve ?? curveParameters();
  if (options.schedule === 'umap-js') {
    const y = new Float64Array(graph.n * nComponents);
    for (let i = 0; i < y.length; i++) y[i] = random() * 20 + -10;
    yield* umapJsEpochs(graph, y, nComponents, random, a, b, options);
    return y;
  }
  const seed = scheduleSeed(random);
  const ids = options.ids ?? Array.from({ length: graph.n }, (_, i) => i);
  if (ids.length !== graph.n) throw new RangeError(`${ids.length} ids for ${graph.n} points.`);
  const y = stableStart(ids, nComponents, deriveSeed(seed, START_LABEL));
  yield* stableEpochs(graph, y, nComponents, deriveSeed(seed, EDGE_LABEL), ids, a, b, options);
  return y;
}

/** Labels of the stable layout's two streams of counter-based draws (start positions, edges). */
const START_LABEL = 0;
const EDGE_LABEL = 1;

/** The stable schedule's epochs (umap-stable.ts), in the kernel where it can run. */
function* stableEpochs(
  graph: LayoutGraph,
  y: Float64Array,
  dim: number,
  seed: number,
  ids: ArrayLike<number>,
  a: number,
  b: number,
  options: LayoutOptions,
): Generator<number, void> {
  const { n, head, tail, weight, epochs } = graph;
  const state: StableState = {
    n,
    dim,
    y,
    head,
    tail,
    schedule: stableSchedule(tail, head, weight, epochs, seed, ids),
    ring: options.negatives === 'ring' ? negativeRing(ids, seed) : positionRing(n),
    a,
    b,
  };
  const kernel = options.engine === 'js' ? undefined : createStableLayoutKernel(state);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const alpha = STABLE_LEARNING_RATE * (1 - Math.max(0, epoch - 1) / epochs);
    if (kernel) kernel.epoch(epoch, alpha);
    else stableEpoch(state, epoch, alpha);
    yield epoch + 1;
  }
  kernel?.finish();
}

/** umap-js's epochs, in the kernel where it can run (same draws from `random`). */
function* umapJsEpochs(
  graph: LayoutGraph,
  y: Float64Array,
  nComponents: number,
  random: RandomFn,
  a: number,
  b: number,
  options: LayoutOptions,
): Generator<number, void> {
  const { n, weight, epochs } = graph;
  const edges = weight.length;
  let maxWeight = -Infinity;
  for (let e = 0; e < edges; e++) if (weight[e] > maxWeight) maxWeight = weight[e];
  const epochsPerSample = new Float64Array(edges).fill(-1);
  for (let e = 0; e < edges; e++) {
    const samples = (weight[e] / maxWeight) * epochs;
    if (samples > 0) epochsPerSample[e] = epochs / samples;
  }
  const epochsPerNegative = epochsPerSample.map((v) => v / NEGATIVE_SAMPLE_RATE);
  const state: LayoutState = {
    graph,
    dim: nComponents,
    y,
    a,
    b,
    epochsPerSample,
    epochsPerNegative,
    nextSample: epochsPerSample.slice(),
    nextNegative: epochsPerNegative.slice(),
    random,
  };
  const kernel =
    options.engine === 'js'
      ? undefined
      : createLayoutKernel({ ...state, n, head: graph.head, tail: graph.tail }, random);
  for (let epoch = 0; epoch < epochs; epoch++) {
    // umap-js lowers the rate after each epoch from the epoch just finished: epochs 0 and 1 both run at 1.
    const alpha = 1 * (1 - Math.max(0, epoch - 1) / epochs);
    if (kernel) kernel.epoch(epoch, alpha);
    else layoutEpoch(state, epoch, alpha);
    yield epoch + 1;
  }
  kernel?.finish();
}

/** One epoch of `optimizeLayout` at learning rate `alpha` (a plain function: V8 optimises it fully). */
function layoutEpoch(state: LayoutState, epoch: number, alpha: number): void {
  const { dim, y, a, b, epochsPerSample, epochsPerNegative, nextSample, nextNegative, random } = state;
  const { n, head, tail } = state.graph;
  const edges = head.length;
  for (let e = 0; e < edges; e++) {
    if (nextSample[e] > epoch) continue;
    const j = head[e] * dim;
    const k = tail[e] * dim;
    const coeff = attractionCoefficient(squaredDistance(y, j, k, dim), a, b);
    for (let d = 0; d < dim; d++) {
      const g = clip(coeff * (y[j + d] - y[k + d]));
      y[j + d] += g * alpha;
      y[k + d] += -g * alpha;
    }
    nextSample[e] += epochsPerSample[e];
    const negatives = Math.floor((epoch - nextNegative[e]) / epochsPerNegative[e]);
    for (let p = 0; p < negatives; p++) {
      const other = Math.floor(random() * n);
      const o = other * dim;
      const d2 = squaredDistance(y, j, o, dim);
      let c = 0;
      if (d2 > 0) c = repulsionCoefficient(d2, a, b, UMAP_JS_REPULSION_FLOOR);
      else if (head[e] === other) continue;
      for (let d = 0; d < dim; d++) {
        let g = 4;
        if (c > 0) g = clip(c * (y[j + d] - y[o + d]));
        y[j + d] += g * alpha;
      }
    }
    nextNegative[e] += negatives * epochsPerNegative[e];
  }
}
