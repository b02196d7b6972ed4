/**
 * Gaussian mixture fitted by EM with scikit-learn `GaussianMixture`'s defaults (the RAPTOR reference's model):
 * k-means initialisation, reg_covar on every covariance diagonal, tol on the change of the mean per-point
 * log-likelihood, at most 100 iterations. Full covariances by default (the reference's); 'diag', 'spherical'
 * and 'tied' as scikit-learn's `covariance_type`. The hot loops live in gmm-em.ts.
 */
import type { AbortSignalLike } from '../abort';
import { DimensionError } from '../errors';
import type { CovarianceType, EmWorkspace } from './gmm-em';
import { createWorkspace, eStep, GmmError, runEm } from './gmm-em';
import { meanVariance } from './kmeans';
import { seededRandom } from '../random';
import { DEFAULT_BUILD_PARAMS } from '../types';

export { GmmError, type CovarianceType } from './gmm-em';

/** scikit-learn's `GaussianMixture` max_iter default. */
export const DEFAULT_GMM_MAX_ITER = 100;
/** scikit-learn's `GaussianMixture` tol default (nats per point). */
export const DEFAULT_GMM_TOL = 1e-3;
/** scikit-learn's `GaussianMixture` reg_covar default. */
export const DEFAULT_REG_COVAR = 1e-6;

/**
 * How `regCovar` is read. 'absolute': added to each covariance diagonal as is (scikit-learn). 'relative':
 * multiplied by the mean per-dimension variance of the fitted points first, so the fit does not depend on the
 * data's units (equal to scikit-learn's on unit-variance data; identical points fall back to 'absolute').
 */
export type RegCovarMode = 'absolute' | 'relative';

/** Options of {@link fitGmm}. */
export interface GmmOptions {
  /** Seed of the k-means++ initialisation. Default 224 (the RAPTOR reference's random_state). */
  seed?: number;
  /** Maximum EM iterations. Default 100. */
  maxIter?: number;
  /** Convergence threshold on the change of the mean per-point log-likelihood (nats). Default 1e-3. */
  tol?: number;
  /** Non-negative regularisation added to each covariance diagonal (see `regCovarMode`). Default 1e-6. */
  regCovar?: number;
  /** Whether `regCovar` is absolute or relative to the data's variance. Default 'absolute'. */
  regCovarMode?: RegCovarMode;
  /** Shape of the component covariances (scikit-learn's `covariance_type`). Default 'full'. */
  covariance?: CovarianceType;
  /** Cancels the fit between EM iterations (throws AbortError). */
  signal?: AbortSignalLike;
  /** A distinct id per point, keying the k-means start's draws (`KMeansOptions.ids`). Default: none. */
  ids?: ArrayLike<number>;
}

/** A fitted Gaussian mixture. Arrays are plain numbers (double precision) in the points' own coordinates. */
export interface GaussianMixtureModel {
  /** Number of components. */
  k: number;
  /** Dimension of the points. */
  dim: number;
  /** Mixing weights, length k, summing to 1. */
  weights: number[];
  /** Component means, k × dim. */
  means: number[][];
  /** Component covariances, k × dim × dim, regulariser included. */
  covariances: number[][][];
  /** Effective number of fitted points per component (sum of its responsibilities), length k. */
  componentSizes: number[];
  /** Total log-likelihood of the fitted points under the final parameters (natural log, not per point). */
  logLikelihood: number;
  /** Bayesian information criterion: −2 logLikelihood + p ln N, p = `gmmParameterCount`. Lower is better. */
  bic: number;
  /** The covariance family of the fit. */
  covariance: CovarianceType;
  /** Whether EM stopped on `tol` rather than on `maxIter`. */
  converged: boolean;
  /** EM iterations run. */
  iterations: number;
  /** The absolute value that was added to each covariance diagonal. */
  regCovar: number;
  /** Posterior probability of each component for each point: points.length × k, rows summing to 1. */
  predictProba(points: readonly ArrayLike<number>[]): number[][];
  /** Index of the most probable component of each point (ties go to the lower index). */
  predict(points: readonly ArrayLike<number>[]): number[];
}

/** Points as one flat row-major buffer, centred on their mean (better conditioned; added back on output). */
export interface FlatPoints {
  data: Float64Array;
  n: number;
  dim: number;
  /** The subtracted mean, length dim. */
  center: Float64Array;
}

/**
 * Copies points into a flat buffer, optionally centred on `center`. Throws DIMENSION_MISMATCH naming both
 * lengths, EMPTY_INPUT for no points or zero-length points, NON_FINITE_INPUT for NaN or infinite coordinates.
 */
export function flattenPoints(
  points: readonly ArrayLike<number>[],
  dim?: number,
  center?: Float64Array,
): FlatPoints {
  const n = points.length;
  const d = dim ?? (n > 0 ? points[0].length : 0);
  if (n === 0 || d === 0) {
    throw new DimensionError(
      'EMPTY_INPUT',
      `Need at least one point with at least one coordinate (got ${n} points of dimension ${d}).`,
      { points: n, dim: d },
    );
  }
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    const p = points[i];
    if (p.length !== d) {
      throw new DimensionError('DIMENSION_MISMATCH', `Point ${i} has dimension ${p.length}, expected ${d}.`, {
        index: i,
        expected: d,
        actual: p.length,
      });
    }
    for (let c = 0; c < d; c++) {
      const v = p[c];
      if (!Number.isFinite(v)) {
        throw new GmmError('NON_FINITE_INPUT', `Point ${i} has a non-finite coordinate ${v} at ${c}.`, {
          index: i,
          coordinate: c,
        });
      }
      data[i * d + c] = v;
    }
  }
  let mean = center;
  if (!mean) {
    mean = new Float64Array(d);
    for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) mean[c] += data[i * d + c];
    for (let c = 0; c < d; c++) mean[c] /= n;
  }
  for (let i = 0; i < n; i++) for (let c = 0; c < d; c++) data[i * d + c] -= mean[c];
  return { data, n, dim: d, center: mean };
}

/**
 * Number of free parameters of a mixture (scikit-learn's `_n_parameters`): k·d means and k − 1 weights, plus
 * k·d(d+1)/2 covariance entries ('full'), k·d ('diag'), k ('spherical') or d(d+1)/2 ('tied').
 */
export function gmmParameterCount(k: number, dim: number, covariance: CovarianceType = 'full'): number {
  const perMatrix = (dim * (dim + 1)) / 2;
  const covarianceParams =
    covariance === 'full'
      ? k * perMatrix
      : covariance === 'diag'
        ? k * dim
        : covariance === 'spherical'
          ? k
          : perMatrix;
  return covarianceParams + k * dim + k - 1;
}

/** The absolute diagonal regulariser for `mode` (see {@link RegCovarMode}). */
export function effectiveRegCovar(
  points: Pick<FlatPoints, 'data' | 'n' | 'dim'>,
  regCovar: number,
  mode: RegCovarMode,
): number {
  if (mode === 'absolute') return regCovar;
  const scale = meanVariance(points.data, points.n, points.dim);
  return scale > 0 ? regCovar * scale : regCovar;
}

/** The covariance families, as scikit-learn names them. */
export const COVARIANCE_TYPES: readonly CovarianceType[] = ['full', 'diag', 'spherical', 'tied'];

/** Throws INVALID_OPTION unless `covariance` is one of {@link COVARIANCE_TYPES}. */
export function checkCovariance(covariance: unknown): asserts covariance is CovarianceType {
  if (!COVARIANCE_TYPES.includes(covariance as CovarianceType)) {
    throw new GmmError(
      'INVALID_OPTION',
      `Unknown covariance type ${JSON.stringify(covariance)}: use one of ${COVARIANCE_TYPES.join(', ')}.`,
      { covariance: String(covariance) },
    );
  }
}

/** Throws INVALID_COMPONENT_COUNT unless 1 ≤ k ≤ n and k is an integer. */
export function checkComponentCount(k: number, n: number): void {
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new GmmError(
      'INVALID_COMPONENT_COUNT',
      `Cannot fit ${k} components to ${n} points: need an integer 1 ≤ k ≤ ${n}.`,
      { k, points: n },
    );
  }
}

/** Throws GmmError INVALID_OPTION unless `ids` is absent or holds one id per point. */
export function checkIds(ids: ArrayLike<number> | undefined, n: number): void {
  if (ids && ids.length !== n) {
    throw new GmmError('INVALID_OPTION', `Need one id per point (got ${ids.length} ids for ${n} points).`, {
      ids: ids.length,
      n,
    });
  }
}

/**
 * Fits the mixture on prepared points with a given workspace (reused across the fits of a sweep). The
 * returned model owns copies of the parameters.
 */
export function fitGmmFlat(
  points: FlatPoints,
  k: number,
  options: GmmOptions,
  ws?: EmWorkspace,
): GaussianMixtureModel {
  checkComponentCount(k, points.n);
  const regCovar = options.regCovar ?? DEFAULT_REG_COVAR;
  const maxIter = options.maxIter ?? DEFAULT_GMM_MAX_ITER;
  const tol = options.tol ?? DEFAULT_GMM_TOL;
  if (!(regCovar >= 0 && tol >= 0 && Number.isInteger(maxIter) && maxIter >= 1)) {
    throw new GmmError(
      'INVALID_OPTION',
      `Need regCovar ≥ 0, tol ≥ 0 and an integer maxIter ≥ 1 (got ${regCovar}, ${tol}, ${maxIter}).`,
      { regCovar, tol, maxIter },
    );
  }
  const covariance = options.covariance ?? 'full';
  checkCovariance(covariance);
  checkIds(options.ids, points.n);
  const reg = effectiveRegCovar(points, regCovar, options.regCovarMode ?? 'absolute');
  const work = ws ?? createWorkspace(points.n, points.dim, k, points.data);
  try {
    const outcome = runEm(
      points.data,
      k,
      seededRandom(options.seed ?? DEFAULT_BUILD_PARAMS.seed),
      {
        maxIter,
        tol,
        reg,
        covariance,
        signal: options.signal,
        ids: options.ids,
      },
      work,
    );
    return buildModel(
      points,
      k,
      work,
      outcome.logLikelihood,
      outcome.iterations,
      outcome.converged,
      reg,
      covariance,
    );
  } finally {
    // The model owns copies of what it needs: a workspace made here is done with.
    if (!ws) work.kernel?.release();
  }
}

function buildModel(
  points: FlatPoints,
  k: number,
  ws: EmWorkspace,
  logLikelihood: number,
  iterations: number,
  converged: boolean,
  regCovar: number,
  covariance: CovarianceType,
): GaussianMixtureModel {
  const { dim, n, center } = points;
  const packed = (dim * (dim + 1)) / 2;
  // The model keeps its own copies: the workspace is overwritten by the next fit of a sweep.
  const own = createWorkspace(0, dim, k);
  own.weights.set(ws.weights.subarray(0, k));
  own.means.set(ws.means.subarray(0, k * dim));
  own.covs.set(ws.covs.subarray(0, k * dim * dim));
  own.precs.set(ws.precs.subarray(0, k * packed));
  own.logNorm.set(ws.logNorm.subarray(0, k));
  own.shifts.set(ws.shifts.subarray(0, k * dim));
  const means: number[][] = [];
  const covariances: number[][][] = [];
  for (let j = 0; j < k; j++) {
    means.push(Array.from({ length: dim }, (_, c) => own.means[j * dim + c] + center[c]));
    const rows: number[][] = [];
    for (let a = 0; a < dim; a++)
      rows.push(Array.from(own.covs.subarray(j * dim * dim + a * dim, j * dim * dim + a * dim + dim)));
    covariances.push(rows);
  }
  const proba = (query: readonly ArrayLike<number>[]): Float64Array => {
    if (query.length === 0) return new Float64Array(0);
    const flat = flattenPoints(query, dim, center);
    const resp = new Float64Array(flat.n * k);
    eStep(flat.data, flat.n, k, own, resp);
    return resp;
  };
  return {
    k,
    dim,
    weights: Array.from(own.weights),
    means,
    covariances,
    componentSizes: Array.from(ws.mass.subarray(0, k)),
    logLikelihood,
    bic: -2 * logLikelihood + gmmParameterCount(k, dim, covariance) * Math.log(n),
    covariance,
    converged,
    iterations,
    regCovar,
    predictProba(query) {
      const resp = proba(query);
      return Array.from({ length: query.length }, (_, i) => Array.from(resp.subarray(i * k, i * k + k)));
    },
    predict(query) {
      const resp = proba(query);
      return Array.from({ length: query.length }, (_, i) => {
        let best = 0;
        for (let j = 1; j < k; j++) if (resp[i * k + j] > resp[i * k + best]) best = j;
        return best;
      });
    },
  };
}

/**
 * Fits a full-covariance Gaussian mixture of k components by EM, like scikit-learn's
 * `GaussianMixture(n_components=k, random_state=seed)` with its defaults.
 * @param points N points of equal dimension d (number[][], Float32Array[], Float64Array[] …).
 * @param k number of components, 1 ≤ k ≤ N (k = N and identical points are fine).
 * @throws DimensionError DIMENSION_MISMATCH (names both dimensions) or EMPTY_INPUT; GmmError
 *   INVALID_COMPONENT_COUNT (k < 1 or k > N), INVALID_OPTION, NON_FINITE_INPUT, ILL_CONDITIONED_COVARIANCE (a
 *   covariance not positive definite even with the regulariser, e.g. regCovar 0 on duplicated points);
 *   AbortError when `signal` fires.
 */
export function fitGmm(
  points: readonly ArrayLike<number>[],
  k: number,
  options: GmmOptions = {},
): GaussianMixtureModel {
  return fitGmmFlat(flattenPoints(points), k, options);
}
