/**
 * The hot loops of the Gaussian mixture (see gmm.ts for the public API): EM for full covariances on flat
 * row-major Float64Array data, with buffers allocated once per workspace and reused across iterations and
 * across the fits of a BIC sweep.
 */
import type { AbortSignalLike } from '../abort';
import { throwIfAborted } from '../abort';
import { AerieError } from '../errors';
import type { RandomFn } from '../random';
import {
  accumulateDiagonalScatter,
  accumulateScatter,
  componentLogDensities,
  diagonalLogDensities,
} from './gmm-kernels';
import { createGmmKernel, type GmmKernel } from './gmm-wasm';
import { kmeans, type KMeansPlusPlusSeeding } from './kmeans';

const LN_2PI = Math.log(2 * Math.PI);
/** scikit-learn adds 10 machine epsilons to every component's mass so an empty component divides safely. */
const MASS_EPSILON = 10 * Number.EPSILON;
/**
 * A component whose log density at a point is more than this far below the point's best component gets
 * responsibility exactly 0: e^−50 ≈ 2e−22 is below half an ulp of the largest term (1), so it could not change
 * the sum, and the M-step can skip the point for that component.
 */
const NEGLIGIBLE_LOG_RATIO = -50;

/**
 * Why a fit failed: INVALID_COMPONENT_COUNT (k outside 1 … N), INVALID_OPTION (a negative regCovar or tol, a
 * maxIter below 1), NON_FINITE_INPUT (NaN or ±∞ in a point), ILL_CONDITIONED_COVARIANCE (a covariance that is
 * not positive definite even with the regulariser).
 */
export class GmmError extends AerieError<
  'INVALID_COMPONENT_COUNT' | 'INVALID_OPTION' | 'ILL_CONDITIONED_COVARIANCE' | 'NON_FINITE_INPUT'
> {}

/**
 * Shape of the component covariances, as scikit-learn's `covariance_type`: 'full' (each component its own
 * matrix), 'diag' (its own axis-aligned variances), 'spherical' (its own single variance), 'tied' (one full
 * matrix shared by all components).
 */
export type CovarianceType = 'full' | 'diag' | 'spherical' | 'tied';

/** Scratch and parameter buffers for fits of up to `maxK` components on one data set. */
export interface EmWorkspace {
  readonly n: number;
  readonly dim: number;
  readonly maxK: number;
  /** n × k responsibilities (row stride k of the current fit). */
  readonly resp: Float64Array;
  /** Component mixing weights. */
  readonly weights: Float64Array;
  /** Effective number of points per component, Σ responsibilities (+ scikit-learn's 10 ε). */
  readonly mass: Float64Array;
  /** k × dim means (of the centred data). */
  readonly means: Float64Array;
  /** k × dim × dim covariances, regulariser included. */
  readonly covs: Float64Array;
  /** k × packed lower triangle: L⁻¹ where covariance = L Lᵀ (scikit-learn's precisions_cholesky, transposed). */
  readonly precs: Float64Array;
  /** k × dim: L⁻¹ μ per component. */
  readonly shifts: Float64Array;
  /** log weight − ½ d ln 2π − ½ ln det covariance, per component. */
  readonly logNorm: Float64Array;
  /** Scratch: one packed Cholesky factor. */
  readonly chol: Float64Array;
  /** Scratch: one dim-vector. */
  readonly diff: Float64Array;
  /** Scratch: one dim × dim scatter accumulator. */
  readonly acc: Float64Array;
  /** Indices of the points a component owns (responsibility > 0), up to n. */
  readonly members: Int32Array;
  /** 8 × dim scratch rows of the M-step. */
  readonly block: Float64Array;
  /**
   * The WebAssembly loops (gmm-wasm.ts) for the data the workspace was made for, whose copy and the arrays above
   * they use live in its memory; absent where WebAssembly cannot run or no data was given.
   */
  readonly kernel?: GmmKernel;
}

/**
 * Allocates the buffers for fits of 1 … maxK components on n points of dimension dim. With `data` (n × dim,
 * the points every fit will use), the innermost loops run in WebAssembly for those points, with the same
 * results.
 */
export function createWorkspace(n: number, dim: number, maxK: number, data?: Float64Array): EmWorkspace {
  const packed = (dim * (dim + 1)) / 2;
  const kernel = data && n > 0 ? createGmmKernel(data, n, dim, maxK) : undefined;
  const own = kernel?.arrays;
  return {
    n,
    dim,
    maxK,
    resp: own?.resp ?? new Float64Array(n * maxK),
    weights: new Float64Array(maxK),
    mass: new Float64Array(maxK),
    means: own?.means ?? new Float64Array(maxK * dim),
    covs: new Float64Array(maxK * dim * dim),
    precs: own?.precs ?? new Float64Array(maxK * packed),
    shifts: own?.shifts ?? new Float64Array(maxK * dim),
    logNorm: new Float64Array(maxK),
    chol: new Float64Array(packed),
    diff: new Float64Array(dim),
    acc: own?.acc ?? new Float64Array(dim * dim),
    members: own?.members ?? new Int32Array(n),
    block: own?.block ?? new Float64Array(8 * dim),
    kernel,
  };
}

/**
 * M-step: weights, means and covariances from the responsibilities, as scikit-learn's
 * `_estimate_gaussian_parameters` (two passes: means, then the centred scatter, so nothing cancels). Points
 * with responsibility exactly 0 are skipped.
 */
export function mStep(
  data: Float64Array,
  k: number,
  reg: number,
  ws: EmWorkspace,
  covariance: CovarianceType = 'full',
): void {
  const { n, dim, resp, mass, means, covs, acc, diff, weights, members } = ws;
  let totalMass = 0;
  for (let j = 0; j < k; j++) {
    let nk = MASS_EPSILON;
    let count = 0;
    const mo = j * dim;
    for (let c = 0; c < dim; c++) diff[c] = 0;
    for (let i = 0, xo = 0; i < n; i++, xo += dim) {
      const r = resp[i * k + j];
      if (r === 0) continue;
      members[count++] = i;
      nk += r;
      for (let c = 0; c < dim; c++) diff[c] += r * data[xo + c];
    }
    for (let c = 0; c < dim; c++) means[mo + c] = diff[c] / nk;
    acc.fill(0);
    if (covariance === 'diag' || covariance === 'spherical') {
      // These families keep only the scatter's diagonal (constrainCovariances): the rest is not computed.
      if (ws.kernel?.source === data) ws.kernel.diagonalScatter(count, k, j, mo);
      else accumulateDiagonalScatter(data, dim, members, count, resp, k, j, means, mo, acc);
    } else if (ws.kernel?.source === data) ws.kernel.scatter(count, k, j, mo);
    else accumulateScatter(data, dim, members, count, resp, k, j, means, mo, acc, ws.block);
    const co = j * dim * dim;
    for (let a = 0; a < dim; a++) {
      for (let b = a; b < dim; b++) {
        const v = acc[a * dim + b] / nk;
        covs[co + a * dim + b] = v;
        covs[co + b * dim + a] = v;
      }
    }
    mass[j] = nk;
    totalMass += nk;
  }
  for (let j = 0; j < k; j++) weights[j] = mass[j] / totalMass;
  constrainCovariances(k, reg, ws, covariance, totalMass);
}

/**
 * Turns each component's maximum-likelihood full covariance (its scatter ÷ its mass) into the maximum-likelihood
 * covariance of the constrained family, then adds the regulariser to every diagonal.
 */
function constrainCovariances(
  k: number,
  reg: number,
  ws: EmWorkspace,
  covariance: CovarianceType,
  totalMass: number,
): void {
  const { dim, covs, mass, acc } = ws;
  const size = dim * dim;
  if (covariance === 'tied') {
    // The pooled within-component scatter over all points (scikit-learn's tied estimate).
    acc.fill(0);
    for (let j = 0; j < k; j++) {
      const w = mass[j] / totalMass;
      for (let t = 0; t < size; t++) acc[t] += w * covs[j * size + t];
    }
    for (let j = 0; j < k; j++) covs.set(acc.subarray(0, size), j * size);
  } else if (covariance !== 'full') {
    for (let j = 0; j < k; j++) {
      const co = j * size;
      let trace = 0;
      for (let a = 0; a < dim; a++) trace += covs[co + a * dim + a];
      for (let a = 0; a < dim; a++) {
        for (let b = 0; b < dim; b++) if (a !== b) covs[co + a * dim + b] = 0;
        if (covariance === 'spherical') covs[co + a * dim + a] = trace / dim;
      }
    }
  }
  for (let j = 0; j < k; j++) for (let a = 0; a < dim; a++) covs[j * size + a * dim + a] += reg;
}

/**
 * Factors every covariance once (Cholesky, then the inverse factor) and caches each component's log
 * normaliser. Throws ILL_CONDITIONED_COVARIANCE when a covariance is not positive definite in floating point.
 */
export function prepareComponents(k: number, ws: EmWorkspace): void {
  const { dim, covs, precs, chol, logNorm, weights, means, shifts } = ws;
  const packed = (dim * (dim + 1)) / 2;
  for (let j = 0; j < k; j++) {
    const co = j * dim * dim;
    let halfLogDet = 0;
    for (let r = 0, pr = 0; r < dim; pr += ++r) {
      for (let c = 0, pc = 0; c <= r; pc += ++c) {
        let s = covs[co + r * dim + c];
        for (let t = 0; t < c; t++) s -= chol[pr + t] * chol[pc + t];
        if (r === c) {
          if (!(s > 0)) {
            throw new GmmError(
              'ILL_CONDITIONED_COVARIANCE',
              `Component ${j} has a covariance that is not positive definite (pivot ${s} at row ${r}); ` +
                'increase regCovar or use regCovarMode "relative".',
              { component: j, row: r, pivot: s },
            );
          }
          chol[pr + r] = Math.sqrt(s);
          halfLogDet += Math.log(chol[pr + r]);
        } else {
          chol[pr + c] = s / chol[pc + c];
        }
      }
    }
    // Invert the lower factor column by column: applying L⁻¹ to a point is the forward substitution, with
    // independent row sums instead of a dependency chain.
    const po = j * packed;
    for (let c = 0, pc = 0; c < dim; pc += ++c) {
      precs[po + pc + c] = 1 / chol[pc + c];
      for (let r = c + 1, pr = pc + c + 1; r < dim; pr += ++r) {
        let s = 0;
        for (let t = c, pt = pc; t < r; pt += ++t) s += chol[pr + t] * precs[po + pt + c];
        precs[po + pr + c] = -s / chol[pr + r];
      }
    }
    for (let r = 0, pr = 0; r < dim; pr += ++r) {
      let s = 0;
      for (let c = 0; c <= r; c++) s += precs[po + pr + c] * means[j * dim + c];
      shifts[j * dim + r] = s;
    }
    logNorm[j] = Math.log(weights[j]) - 0.5 * dim * LN_2PI - halfLogDet;
  }
}

/**
 * Whether a component's inverse factor (packed lower triangle from `po`) has every off-diagonal entry exactly 0
 * (either sign), as the 'diag' and 'spherical' families' factors do: its densities then take the diagonal loop,
 * which gives the same numbers with d multiply-adds a point instead of d(d + 1)/2.
 */
function isDiagonal(precs: Float64Array, po: number, dim: number): boolean {
  for (let r = 1, p = po + 1; r < dim; p += ++r) {
    for (let c = 0; c < r; c++) if (precs[p + c] !== 0) return false;
  }
  return true;
}

/** Log densities (log weight included) of every point under every component, into `out` (n × k). */
function logDensities(data: Float64Array, n: number, k: number, ws: EmWorkspace, out: Float64Array): void {
  const { dim, precs, shifts, logNorm, kernel } = ws;
  const packed = (dim * (dim + 1)) / 2;
  const inKernel = kernel?.source === data && out === ws.resp && n <= ws.n;
  for (let j = 0; j < k; j++) {
    const diagonal = isDiagonal(precs, j * packed, dim);
    if (inKernel) kernel.logDensities(n, j * packed, j * dim, logNorm[j], k, j, diagonal);
    else if (diagonal)
      diagonalLogDensities(data, n, dim, precs, j * packed, shifts, j * dim, logNorm[j], out, k, j);
    else componentLogDensities(data, n, dim, precs, j * packed, shifts, j * dim, logNorm[j], out, k, j);
  }
}

/**
 * E-step over `n` points of `data` (which may differ from the fitted data): log densities, log-sum-exp per
 * point and, into `resp` (n × k), the normalised responsibilities. Returns the total log-likelihood.
 */
export function eStep(data: Float64Array, n: number, k: number, ws: EmWorkspace, resp: Float64Array): number {
  logDensities(data, n, k, ws, resp);
  let total = 0;
  for (let i = 0, ro = 0; i < n; i++, ro += k) {
    let max = -Infinity;
    for (let j = 0; j < k; j++) if (resp[ro + j] > max) max = resp[ro + j];
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const t = resp[ro + j] - max;
      const e = t < NEGLIGIBLE_LOG_RATIO ? 0 : Math.exp(t);
      resp[ro + j] = e;
      sum += e;
    }
    total += max + Math.log(sum);
    const inv = 1 / sum;
    for (let j = 0; j < k; j++) resp[ro + j] *= inv;
  }
  return total;
}

/** Options of {@link runEm}; see `GmmOptions` in gmm.ts for their meaning. */
export interface EmOptions {
  maxIter: number;
  tol: number;
  /** Absolute value added to every covariance diagonal. */
  reg: number;
  /** Shape of the covariances. Default 'full'. */
  covariance?: CovarianceType;
  signal?: AbortSignalLike;
  /** Ids keying the k-means start's draws (`KMeansOptions.ids`). */
  ids?: ArrayLike<number>;
  /**
   * The k-means start's seeding for a fit of k components (`KMeansOptions.seeding`), or undefined for a new one
   * drawn from the fit's generator: a BIC sweep shares one seeding among its ks (select-k.ts).
   */
  seeding?: (k: number) => KMeansPlusPlusSeeding | undefined;
}

/** What {@link runEm} leaves besides the parameters in the workspace. */
export interface EmOutcome {
  /** Total log-likelihood of the data under the final parameters. */
  logLikelihood: number;
  iterations: number;
  converged: boolean;
}

/**
 * EM from a k-means start, as scikit-learn's `GaussianMixture.fit` with init_params='kmeans' and n_init=1:
 * stops when the mean per-point log-likelihood changes by less than tol. Parameters end in `ws`.
 */
export function runEm(
  data: Float64Array,
  k: number,
  random: RandomFn,
  options: EmOptions,
  ws: EmWorkspace,
): EmOutcome {
  const { n, dim, resp } = ws;
  const { labels } = kmeans(data, n, dim, k, random, { ids: options.ids, seeding: options.seeding?.(k) });
  resp.fill(0, 0, n * k);
  for (let i = 0; i < n; i++) resp[i * k + labels[i]] = 1;
  const covariance = options.covariance ?? 'full';
  mStep(data, k, options.reg, ws, covariance);
  let lowerBound = -Infinity;
  let iterations = 0;
  let converged = false;
  while (iterations < options.maxIter) {
    throwIfAborted(options.signal);
    iterations++;
    const previous = lowerBound;
    prepareComponents(k, ws);
    lowerBound = eStep(data, n, k, ws, resp) / n;
    mStep(data, k, options.reg, ws, covariance);
    if (Math.abs(lowerBound - previous) < options.tol) {
      converged = true;
      break;
    }
  }
  prepareComponents(k, ws);
  // The responsibilities of this last pass are those of the final parameters (scikit-learn's final E-step).
  const logLikelihood = eStep(data, n, k, ws, resp);
  return { logLikelihood, iterations, converged };
}
