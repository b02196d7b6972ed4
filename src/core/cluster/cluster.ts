/**
 * RAPTOR's two-step soft clustering (paper §3, official cluster_utils.py): a global UMAP + Gaussian
 * mixture over all nodes, then a local UMAP + Gaussian mixture inside each global cluster; soft membership
 * where the posterior exceeds a threshold; clusters whose texts are too long are clustered again.
 *
 * Sturdier than the official code: every node lands in at least its most probable cluster (the official
 * code drops nodes whose posteriors are all ≤ threshold), tiny and degenerate inputs never throw, and the
 * re-clustering of oversized clusters always terminates.
 *
 * Shaped like the paper's trees (Appendix C, ~6 children per parent) without degenerate components: the global
 * mixture has full covariances (every component owns ≥ d nodes, see select-k.ts); the local mixture inside each
 * global cluster is spherical — one variance per component, estimated from all d·(m − 1) deviations of its m
 * nodes — and every local component owns at least LOCAL_MIN_CLUSTER_SIZE nodes. docs/clustering.md has the
 * measurements behind both choices. Each global cluster's local clustering depends only on its members and
 * its own seed, so the local clusterings can run in any order or in parallel.
 */
import { throwIfAborted, type AbortSignalLike } from '../abort';
import { DimensionError } from '../errors';
import { mapWithConcurrency } from '../pool';
import { deriveSeed } from '../random';
import type { CovarianceType } from './gmm';
import {
  minimumComponentSize,
  selectClusterCount,
  selectClusterCountSplit,
  type ClusterCountSelection,
  type SelectClusterCountOptions,
  type SelectionCriterion,
  type SweepResult,
  type SweepTask,
} from './select-k';
import {
  exactCosineKnnSplit,
  usesExactKnn,
  type KnnGraph,
  type KnnRowsResult,
  type KnnRowsTask,
} from './knn';
import { principalProjection } from './pca';
import { effectiveNeighbors, reduceDimensions, type ReduceProgress } from './umap';
import type { LayoutSchedule, NegativeSampling } from './umap-layout';
import { distinctPoints } from './same-points';
import { SWEEP_STOP } from './sweep-stop';
import { Awaiting, runAsync, runSync } from '../yield';
import { DEFAULT_BUILD_PARAMS } from '../types';

/** Neighbours of the local (within a global cluster) UMAP, as in the official code. */
export const LOCAL_NEIGHBORS = 10;

/** The paper's cap on the number of mixture components tried by BIC. */
export const DEFAULT_MAX_CLUSTERS = 50;

/** Re-clustering an oversized cluster goes at most this deep before splitting it in document order. */
export const MAX_RECLUSTER_DEPTH = 4;

/**
 * Covariance family of the local mixtures. Spherical components need two nodes for a variance estimated from
 * data and cost d + 2 parameters each (a full one needs d + 1 nodes and costs (d + 1)(d + 2)/2), so BIC can
 * choose the paper's small clusters where the data support them. See docs/clustering.md.
 */
export const LOCAL_COVARIANCE: CovarianceType = 'spherical';

/**
 * Fewest nodes each local mixture component must own (its effective size, rounded). Two is the statistical
 * minimum of a spherical component; three keeps BIC from splitting clusters into pairs, whose 100-token
 * summaries would keep about 60% of their children's text, and puts the mean children per parent of every
 * measured collection in the paper's 5–8 (docs/clustering.md).
 */
export const LOCAL_MIN_CLUSTER_SIZE = 3;

/**
 * Most points each fit of a BIC sweep is fitted on: a larger set's sweep fits every k on this many points evenly
 * spaced through it and scores the fit on all of them (select-k.ts `fitSample`); the chosen k is then fitted on
 * all points. Only a layer of more than this many nodes (a book of ~300k tokens and more) is affected: its global
 * sweep took most of the KJV's clustering (docs/clustering.md, "Speed").
 */
export const SWEEP_FIT_SAMPLE = 3000;

/**
 * The global step (its k-NN graph and layout) sees a layer of more than this many nodes, of more dimensions than
 * this, as its centred vectors projected on this many leading principal directions (pca.ts), each scaled to unit
 * length; the local steps keep the original vectors. It keeps the tree steady under a hair of noise in the
 * embeddings (issue #44; docs/clustering.md, "The global step on 50 principal components").
 */
export const GLOBAL_COMPONENTS = 50;

/** Labels of the global and the local steps' seeds (`deriveSeed(seed, depth, label)`). */
const GLOBAL_SEED_LABEL = 0;
const LOCAL_SEED_LABEL = 1;

/** Options of `clusterNodes`; defaults are the paper's. */
export interface ClusterOptions {
  /**
   * UMAP target dimension of the global step (and of the local step unless `local.reductionDim` is set).
   * Default 10.
   */
  reductionDim?: number;
  /** Soft membership: a node joins every cluster whose posterior exceeds this. Default 0.1. */
  threshold?: number;
  /** A cluster whose member tokens sum above this is clustered again. Default 3,500. */
  maxClusterTokens?: number;
  /** Most mixture components BIC may choose. Default 50. */
  maxClusters?: number;
  /** Seed for UMAP and the mixtures. Default 224. */
  seed?: number;
  /** How the mixture inside each global cluster is shaped. Defaults: the paper's tree shape (see below). */
  local?: LocalMixtureOptions;
  /**
   * The UMAP layouts' schedule: 'stable' (default), whose clusters a hair's change of the embeddings leaves as
   * they were, or 'umap-js', umap-js's, whose clusters it reshuffles (for comparisons; docs/clustering.md,
   * "Stability").
   */
  layoutSchedule?: LayoutSchedule;
  /** Checked between steps; the async form rejects with an AbortError. */
  signal?: AbortSignalLike;
  /** Progress within the clustering of one layer. */
  onProgress?: (progress: ClusterProgress) => void;
  /**
   * Runs the local clusterings (one per global cluster) elsewhere, several at once: e.g. a pool of workers.
   * The clusters are the same with or without a pool, whatever its size (each local clustering depends only
   * on its members and its own seed). Only `clusterNodesAsync` can use one.
   */
  pool?: ClusterPool;
}

/** One local clustering as plain data: it crosses a worker boundary by structured clone (`unit` can move). */
export interface LocalClusterTask {
  /** The group's unit vectors, row-major, `n` × `dim`. */
  unit: Float32Array;
  /** Each row's node (its index in the clustered layer): the layout's draws are keyed by it. */
  ids: Int32Array;
  n: number;
  dim: number;
  nNeighbors: number;
  seed: number;
  threshold: number;
  maxClusters: number;
  spec: MixtureSpec;
}

/** What a local clustering found: each row's cluster labels, and the number of clusters. */
export interface LocalClusterResult {
  labels: number[][];
  k: number;
}

/**
 * Runs local clusterings, several at once (see `createClusterPool`). `run` must return exactly what
 * `runLocalClusterTask` returns for the task.
 */
export interface ClusterPool {
  /** How many tasks run at once. */
  readonly size: number;
  run(task: LocalClusterTask): Promise<LocalClusterResult>;
  /**
   * Runs one part of a BIC sweep; must return exactly what `runSweepTask` (select-k.ts) returns. When given,
   * the global step's sweep is split over the pool (`selectClusterCountSplit`), with the same choice of k.
   */
  sweep?(task: SweepTask): Promise<SweepResult>;
  /**
   * Computes rows of an exact k-NN graph; must return exactly what `runKnnRowsTask` (knn.ts) returns. When
   * given, the global step's k-NN scan of a layer of ≥ POOLED_KNN_MIN_POINTS nodes is split over the pool.
   */
  knn?(task: KnnRowsTask): Promise<KnnRowsResult>;
}

/**
 * Fewest nodes for which the global k-NN scan is split over a pool: below, it takes a few tens of
 * milliseconds (quadratic: 0.4 s at 963 nodes, 5.4 s at 3,711 on one core here).
 */
export const POOLED_KNN_MIN_POINTS = 500;

/**
 * Fewest nodes for which the global BIC sweep is split over a pool: below, the whole sweep takes well under a
 * second and sending it to the workers is not worth it.
 */
export const POOLED_SWEEP_MIN_POINTS = 200;

/** The mixture fitted inside each global cluster (docs/clustering.md compares these choices). */
export interface LocalMixtureOptions {
  /**
   * Covariance family, or several: then each family's BIC sweep runs and the fit of lowest criterion wins.
   * Default `LOCAL_COVARIANCE` ('spherical'); 'full' with the default size is the earlier, coarser design
   * (about 15 children per parent).
   */
  covariance?: CovarianceType | readonly CovarianceType[];
  /**
   * Fewest nodes every component must own. Default `LOCAL_MIN_CLUSTER_SIZE` (3), except for 'full', where it
   * is the reduction dimension (a full covariance needs that many points to be estimated from them).
   */
  minClusterSize?: number;
  /** Criterion that chooses k. Default 'bic' (the paper's). */
  criterion?: SelectionCriterion;
  /** UMAP target dimension of the local step. Default: `reductionDim`. */
  reductionDim?: number;
}

/** What the clustering is doing now. */
export interface ClusterProgress {
  /** `local` is the local clusterings running in a pool (counted in groups, not fractions). */
  step: 'global-umap' | 'global-gmm' | 'local-umap' | 'local-gmm' | 'local';
  /** Index of the global cluster (local-umap and local-gmm only). */
  group?: number;
  /**
   * Re-clustering level of the global and local steps: 0 for the nodes' first clustering, 1 … MAX_RECLUSTER_DEPTH
   * while a cluster whose text exceeds the budget is clustered again.
   */
  depth?: number;
  /** Fraction of the current step done, 0…1, when known. */
  fraction?: number;
  /** `local`: groups whose local clustering finished, of `groups`, with `workers` running at once. */
  done?: number;
  groups?: number;
  workers?: number;
}

type Steps<T> = Generator<void | Awaiting, T, unknown>;

/** The mixture of one step: UMAP target dimension, covariance families, component-size floor, criterion. */
export interface MixtureSpec {
  reductionDim: number;
  families: readonly CovarianceType[];
  /** The requested floor; never below the family's own (see `componentFloor`). */
  minClusterSize?: number;
  criterion: SelectionCriterion;
  /** The UMAP layout's schedule (see `ClusterOptions.layoutSchedule`). Default 'stable'. */
  schedule?: LayoutSchedule;
  /**
   * Where the layout's negative samples land (see `LayoutOptions.negatives`): 'ring' for the local layouts,
   * whose groups gain or lose a member when a node's global posterior crosses the threshold; 'position' for the
   * global one, whose set is the whole layer. Default 'position'.
   */
  negatives?: NegativeSampling;
  /**
   * Whether the mixtures' k-means starts draw by node id (`SelectClusterCountOptions.ids`) rather than by
   * position: true for the local steps, for the same reason as their ring of negatives (a member joining or
   * leaving a group would otherwise move every later draw of every fit of the sweep). Default false.
   */
  keyedStarts?: boolean;
}

/**
 * Fewest nodes a component of `covariance` must own in `dim` dimensions: the requested floor (by default
 * LOCAL_MIN_CLUSTER_SIZE, or none for 'full'), but never fewer than the family needs for a covariance estimated
 * from its own points (d for 'full': no requested floor can let a degenerate component in).
 */
function componentFloor(spec: MixtureSpec, covariance: CovarianceType, dim: number): number {
  const requested = spec.minClusterSize ?? (covariance === 'full' ? 0 : LOCAL_MIN_CLUSTER_SIZE);
  return Math.max(minimumComponentSize(covariance, dim), requested);
}

interface Resolved {
  threshold: number;
  maxClusterTokens: number;
  maxClusters: number;
  seed: number;
  global: MixtureSpec;
  local: MixtureSpec;
  /** Global clusters with fewer members than this are not split locally. */
  minLocalSplit: number;
  onProgress?: (progress: ClusterProgress) => void;
  pool?: ClusterPool;
  signal?: AbortSignalLike;
}

function resolve(options: ClusterOptions): Resolved {
  const reductionDim = options.reductionDim ?? DEFAULT_BUILD_PARAMS.reductionDim;
  const local = options.local ?? {};
  const schedule = options.layoutSchedule ?? 'stable';
  const localSpec: MixtureSpec = {
    reductionDim: local.reductionDim ?? reductionDim,
    families: [local.covariance ?? LOCAL_COVARIANCE].flat(),
    minClusterSize: local.minClusterSize,
    criterion: local.criterion ?? 'bic',
    schedule,
    negatives: 'ring',
    keyedStarts: true,
  };
  const floors = localSpec.families.map((f) => componentFloor(localSpec, f, localSpec.reductionDim));
  return {
    threshold: options.threshold ?? DEFAULT_BUILD_PARAMS.clusterThreshold,
    maxClusterTokens: options.maxClusterTokens ?? DEFAULT_BUILD_PARAMS.maxClusterTokens,
    maxClusters: options.maxClusters ?? DEFAULT_MAX_CLUSTERS,
    seed: options.seed ?? DEFAULT_BUILD_PARAMS.seed,
    global: { reductionDim, families: ['full'], criterion: 'bic', schedule, negatives: 'position' },
    local: localSpec,
    // A group too small to hold two admissible components (sizes are rounded, so two of m need 2m − 1 nodes)
    // stays whole, without a UMAP whose mixture could only choose k = 1. For full components of d nodes this
    // also covers the official code's rule (global clusters of ≤ d + 1 nodes are not split).
    minLocalSplit: 2 * Math.min(...floors) - 1,
    onProgress: options.onProgress,
    pool: options.pool,
    signal: options.signal,
  };
}

/** Copies the vectors into one row-major buffer of unit vectors. */
function toUnitMatrix(embeddings: ArrayLike<number>[]): { unit: Float32Array; dim: number } {
  const n = embeddings.length;
  const dim = n ? embeddings[0].length : 0;
  const unit = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const v = embeddings[i];
    if (v.length !== dim) {
      throw new DimensionError(
        'DIMENSION_MISMATCH',
        `Embedding ${i} has ${v.length} dimensions; embedding 0 has ${dim}.`,
        { index: i, expected: dim, actual: v.length },
      );
    }
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * v[t];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let t = 0; t < dim; t++) unit[i * dim + t] = v[t] * inv;
  }
  return { unit, dim };
}

/** Rows `members` of a row-major matrix, as a new matrix. */
function subset(unit: Float32Array, dim: number, members: number[]): Float32Array {
  const out = new Float32Array(members.length * dim);
  members.forEach((m, r) => out.set(unit.subarray(m * dim, (m + 1) * dim), r * dim));
  return out;
}

/**
 * UMAP to the spec's dimension, then a mixture sized by BIC (or the spec's criterion); returns each row's
 * cluster labels (posterior > threshold, and always the most probable one) and the number of clusters.
 */
function* reduceAndCluster(
  unit: Float32Array,
  ids: ArrayLike<number>,
  n: number,
  dim: number,
  nNeighbors: number,
  seed: number,
  o: Pick<Resolved, 'maxClusters' | 'threshold'>,
  spec: MixtureSpec,
  report: (step: 'umap' | 'gmm', fraction?: number) => void,
  pool?: ClusterPool,
): Steps<LocalClusterResult> {
  const distinct = distinctPoints(unit, n, dim);
  if (distinct) {
    // Duplicates are laid out and fitted once and share their first one's clusters (same-points.ts).
    const { reps, repOf } = distinct;
    const once = yield* reduceAndCluster(
      subset(unit, dim, Array.from(reps)),
      Array.from(reps, (r) => ids[r]),
      reps.length,
      dim,
      nNeighbors,
      seed,
      o,
      spec,
      report,
      pool,
    );
    return { labels: Array.from(repOf, (r) => once.labels[r]), k: once.k };
  }
  const nComponents = Math.min(spec.reductionDim, n - 2);
  if (nComponents < 1) return { labels: Array.from({ length: n }, () => [0]), k: 1 };
  let graph: KnnGraph | undefined;
  if (pool?.knn && pool.size > 1 && usesExactKnn(n, dim) && n >= POOLED_KNN_MIN_POINTS) {
    // The exact k-NN scan (quadratic) in blocks of rows on the pool: the same graph, sooner.
    const knn = pool.knn.bind(pool);
    graph = (yield new Awaiting(
      exactCosineKnnSplit(unit, n, dim, effectiveNeighbors(nNeighbors, n), pool.size, knn, (rows) =>
        report('umap', 0.3 * (rows / n)),
      ),
    )) as KnnGraph;
  }
  const reduce = reduceDimensions(unit, n, dim, {
    nComponents,
    nNeighbors,
    seed,
    graph,
    ids,
    schedule: spec.schedule,
    negatives: spec.negatives,
  });
  let r = reduce.next();
  while (!r.done) {
    const p: ReduceProgress = r.value;
    report('umap', p.phase === 'knn' ? 0.3 * (p.done / p.total) : 0.3 + 0.7 * (p.done / p.total));
    yield;
    r = reduce.next();
  }
  const reduced = r.value;
  if (!reduced.every(Number.isFinite)) {
    // A layout that diverged says nothing about structure: keep the group together.
    return { labels: Array.from({ length: n }, () => [0]), k: 1 };
  }
  const points: Float64Array[] = Array.from({ length: n }, (_, i) =>
    reduced.subarray(i * nComponents, (i + 1) * nComponents),
  );
  report('gmm');
  yield;
  let chosen: ClusterCountSelection | undefined;
  for (const covariance of spec.families) {
    // Fits that cannot pass the component-size rule are skipped: same k, far fewer fits on small groups.
    const options: SelectClusterCountOptions = {
      maxClusters: o.maxClusters,
      seed,
      skipImpossible: true,
      stop: SWEEP_STOP,
      fitSample: SWEEP_FIT_SAMPLE,
      covariance,
      minComponentSize: componentFloor(spec, covariance, nComponents),
      criterion: spec.criterion,
      ...(spec.keyedStarts ? { ids } : {}),
    };
    const sweep = pool?.sweep?.bind(pool);
    const selection =
      sweep && pool!.size > 1 && n >= POOLED_SWEEP_MIN_POINTS
        ? ((yield new Awaiting(
            selectClusterCountSplit(
              points,
              { ...options, onProgress: (done, total) => report('gmm', done / total) },
              pool!.size,
              sweep,
            ),
          )) as ClusterCountSelection)
        : selectClusterCount(points, options);
    if (!chosen || selection.score < chosen.score) chosen = selection;
    yield;
  }
  const { k, model } = chosen!;
  const probs = model.predictProba(points);
  const labels = probs.map((row) => {
    let best = 0;
    for (let c = 1; c < row.length; c++) if (row[c] > row[best]) best = c;
    const members: number[] = [];
    for (let c = 0; c < row.length; c++) if (row[c] > o.threshold || c === best) members.push(c);
    return members;
  });
  return { labels, k };
}

/** Members (as indices into `ids`) of each label 0…k−1, skipping empty labels. Exported for its tests. */
export function groupByLabel(labels: number[][], k: number): number[][] {
  const groups: number[][] = Array.from({ length: k }, () => []);
  labels.forEach((ls, i) => ls.forEach((l) => groups[l].push(i)));
  return groups.filter((g) => g.length > 0);
}

/** One pass of global-then-local clustering over the nodes `ids` (indices into the full matrix). */
function* clusterOnce(
  unit: Float32Array,
  dim: number,
  ids: number[],
  depth: number,
  o: Resolved,
): Steps<number[][]> {
  const n = ids.length;
  if (n <= 2) return [ids.slice()];
  const sub = subset(unit, dim, ids);
  const globalNeighbors = Math.floor(Math.sqrt(n - 1));
  const projected = n > GLOBAL_COMPONENTS && dim > GLOBAL_COMPONENTS;
  const global = yield* reduceAndCluster(
    projected ? principalProjection(sub, n, dim, GLOBAL_COMPONENTS) : sub,
    ids,
    n,
    projected ? GLOBAL_COMPONENTS : dim,
    globalNeighbors,
    deriveSeed(o.seed, depth, GLOBAL_SEED_LABEL),
    o,
    o.global,
    (s, f) => o.onProgress?.({ step: s === 'umap' ? 'global-umap' : 'global-gmm', fraction: f, depth }),
    o.pool,
  );
  const groups = groupByLabel(global.labels, global.k);
  const tasks = groups.map((members): LocalClusterTask | undefined =>
    members.length < o.minLocalSplit
      ? undefined
      : {
          unit: subset(sub, dim, members),
          ids: Int32Array.from(members, (m) => ids[m]),
          n: members.length,
          dim,
          nNeighbors: LOCAL_NEIGHBORS,
          // One seed for every group: with the layout's draws keyed by node, a group's clustering depends on
          // its members only, not on where the global mixture happened to list it.
          seed: deriveSeed(o.seed, depth, LOCAL_SEED_LABEL),
          threshold: o.threshold,
          maxClusters: o.maxClusters,
          spec: o.local,
        },
  );
  const locals: (LocalClusterResult | undefined)[] = o.pool
    ? ((yield new Awaiting(runInPool(o.pool, tasks, o))) as (LocalClusterResult | undefined)[])
    : [];
  if (!o.pool) {
    for (let g = 0; g < tasks.length; g++) {
      const task = tasks[g];
      locals.push(
        task &&
          (yield* localSteps(task, (s, f) =>
            o.onProgress?.({ step: s === 'umap' ? 'local-umap' : 'local-gmm', group: g, fraction: f, depth }),
          )),
      );
    }
  }
  const clusters: number[][] = [];
  groups.forEach((members, g) => {
    const local = locals[g];
    if (!local) clusters.push(members.map((m) => ids[m]));
    else {
      for (const localGroup of groupByLabel(local.labels, local.k)) {
        clusters.push(localGroup.map((m) => ids[members[m]]));
      }
    }
  });
  return clusters;
}

function localSteps(
  task: LocalClusterTask,
  report: (step: 'umap' | 'gmm', fraction?: number) => void,
): Steps<LocalClusterResult> {
  return reduceAndCluster(
    task.unit,
    task.ids,
    task.n,
    task.dim,
    task.nNeighbors,
    task.seed,
    task,
    task.spec,
    report,
  );
}

/**
 * Runs one local clustering to the end (what a pool's worker calls). Deterministic: the same task gives the
 * same result wherever it runs.
 */
export function runLocalClusterTask(task: LocalClusterTask): LocalClusterResult {
  return runSync(localSteps(task, () => undefined));
}

/**
 * The tasks through the pool, at most `pool.size` at once; results by task index (undefined where there was
 * no task). Progress counts finished groups, so it moves however the tasks interleave.
 */
async function runInPool(
  pool: ClusterPool,
  tasks: (LocalClusterTask | undefined)[],
  o: Resolved,
): Promise<(LocalClusterResult | undefined)[]> {
  const indices = tasks.flatMap((t, g) => (t ? [g] : []));
  const results: (LocalClusterResult | undefined)[] = new Array(tasks.length).fill(undefined);
  let done = 0;
  const report = () =>
    o.onProgress?.({
      step: 'local',
      done,
      groups: indices.length,
      workers: pool.size,
      fraction: done / indices.length,
    });
  if (indices.length) report();
  // Largest groups first: they take longest, and the pool ends when its last task does.
  indices.sort((a, b) => tasks[b]!.n - tasks[a]!.n || a - b);
  await mapWithConcurrency(
    indices.length,
    pool.size,
    async (i) => {
      const g = indices[i];
      results[g] = await pool.run(tasks[g]!);
      done++;
      report();
    },
    o.signal,
  );
  return results;
}

/** Splits `ids` (kept in their order) into consecutive runs whose tokens fit `maxTokens` where possible. */
function splitInOrder(ids: number[], tokens: ArrayLike<number>, maxTokens: number): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let sum = 0;
  for (const id of ids) {
    if (current.length > 0 && sum + tokens[id] > maxTokens) {
      out.push(current);
      current = [];
      sum = 0;
    }
    current.push(id);
    sum += tokens[id];
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * What to do with a cluster of `size` nodes and `tokens` tokens found among `parentSize` nodes at re-clustering
 * depth `depth`: keep it if it is one node or its text fits `maxTokens` (the paper re-clusters a cluster whose text
 * *exceeds* the budget); else cluster it again, unless that cannot make progress — at MAX_RECLUSTER_DEPTH, or when
 * the cluster is all its parent's nodes — and it is cut in document order instead. Exported for its tests.
 */
export function oversizedClusterAction(
  size: number,
  tokens: number,
  parentSize: number,
  depth: number,
  maxTokens: number,
): 'keep' | 'recluster' | 'split-in-order' {
  if (size === 1 || tokens <= maxTokens) return 'keep';
  if (depth >= MAX_RECLUSTER_DEPTH || size === parentSize) return 'split-in-order';
  return 'recluster';
}

function* clusterWithLimit(
  unit: Float32Array,
  dim: number,
  ids: number[],
  tokens: ArrayLike<number>,
  depth: number,
  o: Resolved,
): Steps<number[][]> {
  const result: number[][] = [];
  for (const cluster of yield* clusterOnce(unit, dim, ids, depth, o)) {
    cluster.sort((a, b) => a - b);
    let total = 0;
    for (const id of cluster) total += tokens[id];
    const next = oversizedClusterAction(cluster.length, total, ids.length, depth, o.maxClusterTokens);
    if (next === 'keep') {
      result.push(cluster);
    } else if (next === 'split-in-order') {
      // Clustering again would not make progress: cut the cluster in document order instead.
      result.push(...splitInOrder(cluster, tokens, o.maxClusterTokens));
    } else {
      result.push(...(yield* clusterWithLimit(unit, dim, cluster, tokens, depth + 1, o)));
    }
  }
  return result;
}

/**
 * Removes clusters with exactly the same members as an earlier one (summarising them twice is waste). Members
 * are ascending node ids. Exported for its tests.
 */
export function dedupe(clusters: number[][]): number[][] {
  const seen = new Set<string>();
  return clusters.filter((c) => {
    const key = c.join(',');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function* clusterSteps(
  embeddings: ArrayLike<number>[],
  tokenCounts: ArrayLike<number>,
  options: ClusterOptions,
): Steps<number[][]> {
  const n = embeddings.length;
  if (tokenCounts.length !== n) {
    throw new DimensionError(
      'DIMENSION_MISMATCH',
      `Got ${n} embeddings but ${tokenCounts.length} token counts.`,
      { embeddings: n, tokenCounts: tokenCounts.length },
    );
  }
  if (n === 0) return [];
  const o = resolve(options);
  const { unit, dim } = toUnitMatrix(embeddings);
  const ids = Array.from({ length: n }, (_, i) => i);
  return dedupe(yield* clusterWithLimit(unit, dim, ids, tokenCounts, 0, o));
}

/**
 * Clusters nodes the RAPTOR way and returns clusters of node indices (a node may sit in several; every
 * node sits in at least one; each cluster's indices ascend).
 * @param embeddings one vector per node, all of the same length.
 * @param tokenCounts tokens of each node's text (for the re-clustering of oversized clusters).
 */
export function clusterNodes(
  embeddings: ArrayLike<number>[],
  tokenCounts: ArrayLike<number>,
  options: ClusterOptions = {},
): number[][] {
  return runSync(clusterSteps(embeddings, tokenCounts, options));
}

/**
 * `clusterNodes` that returns to the event loop every few tens of milliseconds and stops with an
 * AbortError soon after `options.signal` fires. Use it in workers.
 */
export function clusterNodesAsync(
  embeddings: ArrayLike<number>[],
  tokenCounts: ArrayLike<number>,
  options: ClusterOptions = {},
): Promise<number[][]> {
  return runAsync(clusterSteps(embeddings, tokenCounts, options), () => throwIfAborted(options.signal));
}
