/**
 * How many clusters: the RAPTOR reference's BIC sweep (cluster_utils.get_optimal_clusters), minus its
 * degenerate choices. See docs/clustering.md for the measurements behind the rule.
 */
import type { AbortSignalLike } from '../abort';
import type { CovarianceType, GaussianMixtureModel } from './gmm';
import {
  checkCovariance,
  checkIds,
  DEFAULT_GMM_MAX_ITER,
  DEFAULT_GMM_TOL,
  DEFAULT_REG_COVAR,
  effectiveRegCovar,
  fitGmmFlat,
  flattenPoints,
  GmmError,
  gmmParameterCount,
} from './gmm';
import { createWorkspace, eStep, runEm } from './gmm-em';
import { KMeansPlusPlusSeeding, localTrials } from './kmeans';
import { seededRandom } from '../random';
import { stopAfter, type SweepStop } from './sweep-stop';
import { DEFAULT_BUILD_PARAMS } from '../types';

/** The reference's cap: k runs over 1 … min(maxClusters, N) − 1. */
export const DEFAULT_SELECT_MAX_CLUSTERS = 50;

/**
 * 'bic': the Bayesian information criterion, −2 ln L + p ln N (the paper's). 'icl': BIC plus twice the entropy
 * of the memberships, −2 Σ r ln r (integrated completed likelihood, Biernacki et al. 2000), which also penalises
 * components that overlap. Lower is better for both.
 */
export type SelectionCriterion = 'bic' | 'icl';

/** Options of {@link selectClusterCount}. */
export interface SelectClusterCountOptions {
  /** k is searched over 1 … min(maxClusters, N) − 1, as in the reference. Default 50. */
  maxClusters?: number;
  /** Seed of every fit of the sweep (the same for each k, like the reference's random_state). Default 224. */
  seed?: number;
  /**
   * Covariance regulariser relative to the mean per-dimension variance of the points (so the choice does not
   * depend on their units; equal to scikit-learn's absolute 1e-6 on unit-variance data). Default 1e-6.
   */
  regCovar?: number;
  /**
   * Fewest points (effective, rounded) every component of an admissible fit must have. Default: the smallest
   * size whose covariance is estimated from its points (see {@link minimumComponentSize}): the points'
   * dimension d for 'full' (see {@link selectClusterCount}), 2 for 'diag' and 'spherical', 1 for 'tied'.
   */
  minComponentSize?: number;
  /**
   * Skip the fits that cannot pass the component-size rule: with k components of at least m points each
   * (sizes rounded), k·(m − ½) ≤ N, so a larger k is never chosen. Their BIC is reported as NaN. Same k, far
   * fewer fits on small inputs (RAPTOR's local clustering). Default false: every k is fitted, as the reference.
   */
  skipImpossible?: boolean;
  /** Shape of the component covariances. Default 'full' (the reference's). */
  covariance?: CovarianceType;
  /** What chooses k among the admissible fits. Default 'bic' (the reference's). */
  criterion?: SelectionCriterion;
  /**
   * Stop the sweep early by this rule (sweep-stop.ts; the clustering uses SWEEP_STOP): the ks after it are not
   * fitted and count as skipped. Default: every k is fitted, as the reference does.
   */
  stop?: Readonly<SweepStop>;
  /**
   * Fit each k on at most this many points, evenly spaced through the input (rows ⌊j·N/S⌋), and score it on all
   * N: the criterion is −2 ln L of every point under the sample's fit + p ln N, and admissibility counts each
   * component's effective size over all N. Only the choice of k is approximated; the returned model is fitted
   * on all points at that k. Default: every fit on all points, as the reference.
   */
  fitSample?: number;
  /**
   * A distinct id per point: every fit's k-means start draws by them (`KMeansOptions.ids`), so a point joining or
   * leaving the set moves no other point's draws. Default: none (draws by position, as the reference).
   */
  ids?: ArrayLike<number>;
  /** Cancels the sweep between EM iterations (throws AbortError). */
  signal?: AbortSignalLike;
  /** Called after each k with the number of fits done and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** The outcome of the sweep. */
export interface ClusterCountSelection {
  /** The chosen number of clusters (1 when N ≤ 2). */
  k: number;
  /**
   * The criterion (BIC by default) of the fit with k = i + 1 components at index i (NaN where the fit failed or
   * was skipped); length min(maxClusters, N) − 1.
   */
  bic: number[];
  /** The criterion of the chosen fit (0 for a single point: nothing was fitted). */
  score: number;
  /** Whether the fit with k = i + 1 components passed the component-size rule (k = 1 always does). */
  admissible: boolean[];
  /** The component-size threshold that was applied. */
  minComponentSize: number;
  /** The sweep's fit at the chosen k (relative regulariser), so callers need not fit it again. */
  model: GaussianMixtureModel;
}

/**
 * Chooses the number of Gaussian mixture components by BIC like the RAPTOR reference — a full-covariance
 * mixture (scikit-learn defaults, k-means start, fixed seed) for each k = 1 … min(maxClusters, N) − 1 and the
 * k of lowest BIC — except that only **admissible** fits compete: a fit is admissible when every component
 * owns at least `minComponentSize` points (its effective size Σ responsibilities, rounded), d by default.
 * `covariance` swaps the family (diag, spherical, tied: fewer parameters, smaller admissible components; see
 * {@link minimumComponentSize}) and `criterion` the criterion.
 *
 * Why: a component fitted to m points has a scatter matrix of rank ≤ m − 1. With m ≤ d − 1 at least two
 * directions have zero variance, the covariance is only the regulariser there and each such direction adds
 * ½ ln(variance / regCovar) per point to the log-likelihood — a gain set by an arbitrary constant, not by the
 * data, which grows without bound as regCovar shrinks. That is how the reference picks 10–19 clusters for 60
 * points from 3 well-separated 10-d Gaussians (every component then holds 1–9 points). Full rank needs
 * m ≥ d + 1; we accept m = d (one zero-variance direction), because otherwise sets with only d points per
 * cluster (e.g. 5 × 10 points in 10-d, common in RAPTOR's local clustering) could never be split, and because
 * with the relative regulariser that one direction adds about ½ ln 10⁴ ≈ 4.6 nats per point for clusters a
 * tenth of the data's spread, less than the BIC penalty of the extra component, which then decides as usual.
 *
 * The regulariser is relative to the data's variance and k-means, EM's stopping rule and BIC are unchanged by
 * translating or scaling all points, so the choice is too (up to rounding).
 * @param points N points of equal dimension (number[][], Float32Array[], Float64Array[] …).
 * @throws DimensionError (empty input, dimension mismatch), GmmError NON_FINITE_INPUT or INVALID_OPTION,
 *   AbortError.
 */
export function selectClusterCount(
  points: readonly ArrayLike<number>[],
  options: SelectClusterCountOptions = {},
): ClusterCountSelection {
  const plan = planSweep(points, options);
  const { bic, admissible } = runSweepTask(plan.task, options.signal, (done) =>
    options.onProgress?.(done, plan.maxK),
  );
  for (let k = bic.length + 1; k <= plan.maxK; k++) options.onProgress?.(k, plan.maxK);
  return finishSweep(plan, bic, admissible);
}

/**
 * `selectClusterCount` with the fits spread over `parts` sweeps run by `sweep` (e.g. a pool of workers), each
 * given every `parts`-th k so that the parts cost about the same. The choice is the same as
 * `selectClusterCount`'s for any number of parts: each k's fit depends only on the points, k and the seed.
 * @param sweep runs one part; must return what `runSweepTask` returns for it.
 */
export async function selectClusterCountSplit(
  points: readonly ArrayLike<number>[],
  options: SelectClusterCountOptions,
  parts: number,
  sweep: (task: SweepTask) => Promise<SweepResult>,
): Promise<ClusterCountSelection> {
  const plan = planSweep(points, options);
  const { ks, stop, ...rest } = plan.task;
  const count = Math.max(1, Math.min(Math.floor(parts) || 1, ks.length));
  // A sweep that may stop goes in rounds, each of KS_PER_PART_AND_ROUND ks per part, and ends after the round in
  // which its rule stops it; the parts never stop on their own (their ks are not consecutive).
  const round = stop ? count * KS_PER_PART_AND_ROUND : ks.length;
  // The ks skipped as impossible count as done from the start, as in the one-piece sweep's progress.
  let done = plan.maxK - ks.length;
  const bic: number[] = [];
  const admissible: boolean[] = [];
  for (let first = 0; first < ks.length; first += round) {
    const roundKs = ks.slice(first, first + round);
    const tasks = Array.from({ length: Math.min(count, roundKs.length) }, (_, p) => ({
      ...rest,
      ks: roundKs.filter((_, i) => i % count === p),
    }));
    const results = await Promise.all(
      tasks.map(async (task) => {
        const result = await sweep(task);
        done += task.ks.length;
        options.onProgress?.(done, plan.maxK);
        return result;
      }),
    );
    tasks.forEach((task, p) =>
      task.ks.forEach((k, i) => {
        bic[k - 1] = results[p].bic[i];
        admissible[k - 1] = results[p].admissible[i];
      }),
    );
    const end = stop && stopAfter(bic, admissible, stop);
    if (end) {
      bic.length = end;
      admissible.length = end;
      options.onProgress?.(plan.maxK, plan.maxK);
      break;
    }
  }
  return finishSweep(plan, bic, admissible);
}

/** Ks per part in each round of a split sweep that may stop early (see `selectClusterCountSplit`). */
const KS_PER_PART_AND_ROUND = 3;

/** One part of a BIC sweep as plain data: it crosses a worker boundary by structured clone. */
export interface SweepTask {
  /** The points, row-major, `n × dim`. */
  data: Float64Array;
  n: number;
  dim: number;
  /** The numbers of components to fit, ascending. */
  ks: number[];
  seed: number;
  /** Regulariser relative to the points' variance. */
  regCovar: number;
  covariance: CovarianceType;
  minComponentSize: number;
  criterion: SelectionCriterion;
  /**
   * Stop early by this rule (`SelectClusterCountOptions.stop`); only where the task's ks are 1, 2, … in order
   * (the parts of a split sweep never stop: the split sweep stops between its rounds).
   */
  stop?: Readonly<SweepStop>;
  /** Fit on at most this many evenly spaced points, score on all (`SelectClusterCountOptions.fitSample`). */
  fitSample?: number;
  /** Ids keying the k-means starts (`SelectClusterCountOptions.ids`). */
  ids?: Int32Array;
}

/** The criterion and admissibility of each k of a `SweepTask` (NaN/false where the fit failed). */
export interface SweepResult {
  bic: number[];
  admissible: boolean[];
}

/**
 * Fits a mixture for each k of the task and returns its criterion and whether it passes the component-size
 * rule (what a pool's worker runs for `selectClusterCountSplit`).
 * @param onFit called after each fit with the number done.
 * @param engine 'js' runs the mixtures' inner loops in JavaScript instead of their WebAssembly kernel (the same
 *   numbers, bit for bit): what `npm run bench cluster` times the kernel against.
 */
export function runSweepTask(
  task: SweepTask,
  signal?: AbortSignalLike,
  onFit?: (done: number) => void,
  engine: 'auto' | 'js' = 'auto',
): SweepResult {
  const { data, n, dim, ks, covariance, minComponentSize } = task;
  const bic: number[] = [];
  const admissible: boolean[] = [];
  if (!ks.length) return { bic, admissible };
  const maxK = ks[ks.length - 1];
  // Fitted on an evenly spaced sample, scored on every point (`fitSample`).
  const sample = task.fitSample && task.fitSample < n ? evenSample(data, n, dim, task.fitSample) : undefined;
  const fitData = sample ?? data;
  const fitN = sample ? sample.length / dim : n;
  const ids = task.ids && sample ? evenSampleIds(task.ids, n, fitN) : task.ids;
  const ws = createWorkspace(fitN, dim, maxK, engine === 'js' ? undefined : fitData);
  const scored = sample ? { resp: new Float64Array(n * maxK), mass: new Float64Array(maxK) } : undefined;
  // Every fit starts from the same seed, so the k-means++ seeding of k centres begins with that of k − 1 when
  // both draw as many candidates per centre: one seeding per count of candidates serves every k (kmeans.ts).
  const seedings = new Map<number, KMeansPlusPlusSeeding>();
  const seeding = (k: number): KMeansPlusPlusSeeding => {
    const trials = localTrials(k);
    let shared = seedings.get(trials);
    if (!shared) {
      shared = new KMeansPlusPlusSeeding(fitData, fitN, dim, trials, seededRandom(task.seed), ids);
      seedings.set(trials, shared);
    }
    return shared;
  };
  const emOptions = {
    maxIter: DEFAULT_GMM_MAX_ITER,
    tol: DEFAULT_GMM_TOL,
    reg: effectiveRegCovar({ data, n, dim }, task.regCovar, 'relative'),
    covariance,
    signal,
    ids,
    seeding,
  };
  try {
    for (const k of ks) {
      let value = NaN;
      let ok = false;
      try {
        // A sample smaller than k cannot fit it: the k counts as failed.
        if (k > fitN) throw new GmmError('INVALID_COMPONENT_COUNT', `${k} components for ${fitN} points.`);
        let { logLikelihood } = runEm(fitData, k, seededRandom(task.seed), emOptions, ws);
        let { resp, mass } = ws;
        if (scored) {
          // runEm left the fit's components prepared: one E-step over all points scores it.
          ({ resp, mass } = scored);
          logLikelihood = eStep(data, n, k, ws, resp);
          columnSums(resp, n, k, mass);
        }
        value = -2 * logLikelihood + gmmParameterCount(k, dim, covariance) * Math.log(n);
        if (task.criterion === 'icl') value += 2 * membershipEntropy(resp, n, k);
        // A tied covariance pools the within-component scatter of all points, of rank ≤ N − k: it is
        // estimated from the points only while N − k ≥ d + 1.
        ok =
          k === 1 ||
          (smallestComponent(mass, k) >= minComponentSize && (covariance !== 'tied' || n - k > dim));
      } catch (error) {
        // A covariance that cannot be factored even with the regulariser rules that k out, not the sweep.
        const ruledOut =
          error instanceof GmmError &&
          (error.code === 'ILL_CONDITIONED_COVARIANCE' || error.code === 'INVALID_COMPONENT_COUNT');
        if (!ruledOut) throw error;
      }
      bic.push(value);
      admissible.push(ok);
      onFit?.(bic.length);
      if (task.stop && k === bic.length && stopAfter(bic, admissible, task.stop)) break;
    }
  } finally {
    ws.kernel?.release();
  }
  return { bic, admissible };
}

/** `count` rows of `data` (n × dim) evenly spaced through it: rows ⌊j·n/count⌋, j = 0 … count − 1. */
function evenSample(data: Float64Array, n: number, dim: number, count: number): Float64Array {
  const out = new Float64Array(count * dim);
  for (let j = 0; j < count; j++) {
    const row = Math.floor((j * n) / count);
    out.set(data.subarray(row * dim, (row + 1) * dim), j * dim);
  }
  return out;
}

/** The ids of `evenSample`'s rows. */
function evenSampleIds(ids: Int32Array, n: number, count: number): Int32Array {
  return Int32Array.from({ length: count }, (_, j) => ids[Math.floor((j * n) / count)]);
}

/** Σ of each of the k columns of the n × k matrix `resp`, into `out`. */
function columnSums(resp: Float64Array, n: number, k: number, out: Float64Array): void {
  out.fill(0, 0, k);
  for (let i = 0, r = 0; i < n; i++, r += k) for (let j = 0; j < k; j++) out[j] += resp[r + j];
}

interface SweepPlan {
  flat: ReturnType<typeof flattenPoints>;
  /** Largest k of the sweep (fits above `task.ks` are skipped as impossible). */
  maxK: number;
  /** Every k to fit (1 … the largest possible). */
  task: SweepTask;
  fitOptions: Parameters<typeof fitGmmFlat>[2];
  minComponentSize: number;
}

/** Checks the options and lists the fits of a sweep. */
function planSweep(points: readonly ArrayLike<number>[], options: SelectClusterCountOptions): SweepPlan {
  const flat = flattenPoints(points);
  const { n, dim } = flat;
  const seed = options.seed ?? DEFAULT_BUILD_PARAMS.seed;
  const regCovar = options.regCovar ?? DEFAULT_REG_COVAR;
  const covariance = options.covariance ?? 'full';
  checkCovariance(covariance);
  const minComponentSize = options.minComponentSize ?? minimumComponentSize(covariance, dim);
  const maxClusters = options.maxClusters ?? DEFAULT_SELECT_MAX_CLUSTERS;
  if (!(Number.isInteger(maxClusters) && maxClusters >= 1 && minComponentSize >= 0 && regCovar >= 0)) {
    throw new GmmError(
      'INVALID_OPTION',
      `Need an integer maxClusters ≥ 1, minComponentSize ≥ 0 and regCovar ≥ 0 ` +
        `(got ${maxClusters}, ${minComponentSize}, ${regCovar}).`,
      { maxClusters, minComponentSize, regCovar },
    );
  }
  const { fitSample, stop } = options;
  if (
    (fitSample !== undefined && !(Number.isInteger(fitSample) && fitSample >= 2)) ||
    (stop && !(Number.isInteger(stop.patience) && stop.patience >= 1 && stop.nats >= 0))
  ) {
    throw new GmmError(
      'INVALID_OPTION',
      `Need an integer fitSample ≥ 2 and a stop rule of integer patience ≥ 1 and nats ≥ 0 ` +
        `(got ${fitSample}, ${JSON.stringify(stop)}).`,
      { fitSample, stop },
    );
  }
  checkIds(options.ids, n);
  const maxK = Math.min(maxClusters, n) - 1;
  // k·(m − ½) > N means some rounded component size is below m (see `skipImpossible`).
  const possibleK =
    options.skipImpossible && minComponentSize > ROUNDING_SLACK
      ? Math.max(1, Math.floor(n / (minComponentSize - ROUNDING_SLACK)))
      : maxK;
  const ks = Array.from({ length: Math.max(0, Math.min(maxK, possibleK)) }, (_, i) => i + 1);
  return {
    flat,
    maxK,
    minComponentSize,
    fitOptions: {
      seed,
      regCovar,
      regCovarMode: 'relative' as const,
      covariance,
      maxIter: DEFAULT_GMM_MAX_ITER,
      tol: DEFAULT_GMM_TOL,
      signal: options.signal,
      ids: options.ids,
    },
    task: {
      data: flat.data,
      n,
      dim,
      ks,
      seed,
      regCovar,
      covariance,
      minComponentSize,
      criterion: options.criterion ?? 'bic',
      ...(stop ? { stop: { patience: stop.patience, nats: stop.nats } } : {}),
      ...(fitSample ? { fitSample } : {}),
      ...(options.ids ? { ids: Int32Array.from(options.ids) } : {}),
    },
  };
}

/** Picks the admissible k of lowest criterion (the smallest k on a tie) and fits the model at that k. */
function finishSweep(plan: SweepPlan, fitted: number[], fittedOk: boolean[]): ClusterCountSelection {
  const bic: number[] = [];
  const admissible: boolean[] = [];
  let best = 1;
  let bestBic = Infinity;
  for (let k = 1; k <= plan.maxK; k++) {
    const value = k <= fitted.length ? fitted[k - 1] : NaN;
    const ok = k <= fitted.length ? fittedOk[k - 1] : false;
    bic.push(value);
    admissible.push(ok);
    if (ok && value < bestBic) {
      bestBic = value;
      best = k;
    }
  }
  // One more fit at the chosen k gives the caller a self-contained model (the workspace is scratch).
  const model = fitGmmFlat(plan.flat, best, plan.fitOptions);
  return {
    k: best,
    bic,
    score: Number.isFinite(bestBic) ? bestBic : 0,
    admissible,
    minComponentSize: plan.minComponentSize,
    model,
  };
}

/**
 * The fewest points a component of the family needs for its covariance to be estimated from them rather than
 * set by the regulariser: d for 'full' (a scatter matrix of m points has rank ≤ m − 1; see
 * {@link selectClusterCount} for why d and not d + 1), 2 for 'diag' and 'spherical' (a variance needs two
 * distinct points; a spherical one then pools d·(m − 1) squared deviations), 1 for 'tied' (the shared matrix is
 * estimated from all points).
 */
export function minimumComponentSize(covariance: CovarianceType, dim: number): number {
  return covariance === 'full' ? dim : covariance === 'tied' ? 1 : 2;
}

/** Component sizes are rounded to whole points, so each may gain up to half a point. */
const ROUNDING_SLACK = 0.5;

/** The smallest effective component size of the last fit, rounded to whole points. */
function smallestComponent(mass: Float64Array, k: number): number {
  let min = Infinity;
  for (let j = 0; j < k; j++) min = Math.min(min, Math.round(mass[j]));
  return min;
}

/** −Σ r ln r over all points and components: how unsure the memberships are (ICL's extra penalty). */
function membershipEntropy(resp: Float64Array, n: number, k: number): number {
  let h = 0;
  for (let t = 0; t < n * k; t++) {
    const r = resp[t];
    if (r > 0) h -= r * Math.log(r);
  }
  return h;
}
