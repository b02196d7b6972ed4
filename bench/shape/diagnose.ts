/**
 * Where a layer's clustering loses its stability, step by step (`AERIE_BENCH_SHAPE_DIAGNOSE=1 npm run bench
 * shape`; docs/clustering.md, "Stability", reports its figures). On one layer's nodes, with ±1e-6 on every
 * coordinate over a few seeded runs: duplicates and the k-NN graph; the global layout's move under that noise and
 * under a 1e-12 change of the graph's weights alone (a chaotic descent moves as far either way), in umap-js's
 * schedule and the stable one; the global mixture on a fixed layout under a hair's change of its input, under
 * another k-means start, and BIC's margin; soft memberships at the 0.1 threshold; clusters over the token
 * budget; and rounding the vectors before clustering, under real noise and under bit-close noise.
 */
import {
  clusterNodes,
  DEFAULT_MAX_CLUSTERS,
  groupByLabel,
  exactCosineKnn,
  distinctPoints,
  selectClusterCount,
  reduceDimensions,
  fuzzySimplicialSet,
  optimizeLayout,
  type LayoutSchedule,
} from '../../src/core/cluster';
import { deriveSeed, seededRandom } from '../../src/core/random';
import { DEFAULT_BUILD_PARAMS } from '../../src/core/types';
import { runSync } from '../../src/core/yield';
import { adjustedRandIndex, perturbed, primaryParents } from '../baselines/agreement';

/** Noisy runs of the diagnosis (fewer than the headline's 10: it runs every step several ways). */
const RUNS = 5;
const NOISE = 1e-6;
const BIT_CLOSE = 1e-8;
/** Grid of the rounding lever (unit-vector coordinates are ~0.1). */
const ROUNDING = 1e-4;
const DIMS = DEFAULT_BUILD_PARAMS.reductionDim;
const SCHEDULES: LayoutSchedule[] = ['umap-js', 'stable'];

const fmt = (x: number) => (Number.isFinite(x) ? x.toExponential(1) : '—');
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const range = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;
const aris = (xs: number[]) => `ARI mean ${mean(xs).toFixed(3)}, min ${Math.min(...xs).toFixed(3)}`;

function unitRows(vectors: readonly ArrayLike<number>[]): Float32Array {
  const dim = vectors[0].length;
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * v[t];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let t = 0; t < dim; t++) out[i * dim + t] = v[t] * inv;
  });
  return out;
}

/** ‖a − b‖ / ‖a‖ over all coordinates. */
function relativeMove(a: Float64Array, b: Float64Array): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i] - b[i]) ** 2;
    den += a[i] ** 2;
  }
  return Math.sqrt(num / den);
}

/** The global step of `clusterNodes` on distinct points: k-NN graph, layout, BIC sweep, soft memberships. */
function globalStep(unit: Float32Array, n: number, dim: number, seed: number, schedule: LayoutSchedule) {
  const k = Math.floor(Math.sqrt(n - 1));
  const graph = runSync(exactCosineKnn(unit, n, dim, k));
  const layout = runSync(
    reduceDimensions(unit, n, dim, { nComponents: DIMS, nNeighbors: k, seed, graph, schedule }),
  );
  return { graph, layout, ...mixture(layout, n, seed) };
}

function mixture(layout: Float64Array, n: number, seed: number) {
  const points = Array.from({ length: n }, (_, i) => layout.subarray(i * DIMS, (i + 1) * DIMS));
  const selection = selectClusterCount(points, {
    seed,
    skipImpossible: true,
    maxClusters: DEFAULT_MAX_CLUSTERS,
  });
  const probs = selection.model.predictProba(points);
  const hard = probs.map((row) => row.indexOf(Math.max(...row)));
  const soft = probs.map((row, i) =>
    row.flatMap((p, c) => (p > DEFAULT_BUILD_PARAMS.clusterThreshold || c === hard[i] ? [c] : [])),
  );
  const ranked = selection.bic
    .map((bic, i) => ({ bic, k: i + 1, ok: selection.admissible[i] }))
    .filter((f) => f.ok && Number.isFinite(f.bic))
    .sort((a, b) => a.bic - b.bic);
  return { k: selection.k, hard, soft, margin: ranked.length > 1 ? ranked[1].bic - ranked[0].bic : NaN };
}

/** Prints the diagnosis of clustering `vectors` (one layer's nodes) with `seed`, as the build would. */
export function diagnoseLayer(
  label: string,
  vectors: readonly Float32Array[],
  tokens: readonly number[],
  seed: number,
): void {
  const dim = vectors[0].length;
  const all = unitRows(vectors);
  const distinct = distinctPoints(all, vectors.length, dim);
  const reps = distinct ? Array.from(distinct.reps) : vectors.map((_, i) => i);
  const base = reps.map((r) => vectors[r]);
  const n = base.length;
  const noisy = Array.from({ length: RUNS }, (_, r) => perturbed(base, NOISE, 1000 + r));
  const globalSeed = deriveSeed(seed, 0, 0);
  console.log(
    `\n${label}: ${vectors.length} nodes, ${vectors.length - n} duplicates (laid out once), ${RUNS} runs of ±${NOISE}`,
  );

  const clean = new Map(SCHEDULES.map((s) => [s, globalStep(unitRows(base), n, dim, globalSeed, s)]));
  const runs = new Map(
    SCHEDULES.map((s) => [s, noisy.map((v) => globalStep(unitRows(v), n, dim, globalSeed, s))]),
  );
  const ref = clean.get('stable')!;
  const rowsChanged = runs.get('stable')!.map(
    (run) =>
      run.graph.indices.filter((row, i) => {
        const before = new Set(ref.graph.indices[i]);
        return !row.every((j) => before.has(j));
      }).length,
  );
  console.log(
    `  k-NN graph (k = ${ref.graph.indices[0].length}): rows whose neighbours change ${range(rowsChanged)} of ${n}`,
  );
  for (const schedule of SCHEDULES) {
    const c = clean.get(schedule)!;
    const moves = runs.get(schedule)!.map((run) => relativeMove(c.layout, run.layout));
    const graph = fuzzySimplicialSet(c.graph, c.graph.indices[0].length, schedule === 'stable');
    const random = seededRandom(7);
    const nudged = { ...graph, weight: graph.weight.map((w) => w * (1 + 1e-12 * (2 * random() - 1))) };
    const lay = (g: typeof graph) => runSync(optimizeLayout(g, DIMS, seededRandom(globalSeed), { schedule }));
    const chaos = relativeMove(lay(graph), lay(nudged));
    const other = globalStep(unitRows(base), n, dim, deriveSeed(globalSeed, 1), schedule);
    const ks = runs.get(schedule)!.map((run) => run.k);
    console.log(
      `  ${schedule.padEnd(8)} global layout: moves ${fmt(Math.min(...moves))}–${fmt(Math.max(...moves))} of its size under the noise, ` +
        `${fmt(chaos)} under weights ×(1 ± 1e-12), ${fmt(relativeMove(c.layout, other.layout))} with another seed; ` +
        `global k ${c.k} (noisy ${range(ks)}, another seed ${other.k}); global ${aris(runs.get(schedule)!.map((run) => adjustedRandIndex(c.hard, run.hard)))}`,
    );
  }
  // The mixture alone, on the stable schedule's noise-free layout.
  const spread = Math.sqrt(ref.layout.reduce((s, x) => s + x * x, 0) / ref.layout.length);
  const jitter = Array.from({ length: RUNS }, (_, r) => {
    const random = seededRandom(2000 + r);
    return mixture(
      Float64Array.from(ref.layout, (x) => x + NOISE * spread * (2 * random() - 1)),
      n,
      globalSeed,
    );
  });
  const starts = Array.from({ length: RUNS }, (_, r) =>
    mixture(ref.layout, n, deriveSeed(globalSeed, 2 + r)),
  );
  console.log(
    `  global mixture on a fixed layout: input ±${NOISE} of its spread ${aris(jitter.map((m) => adjustedRandIndex(ref.hard, m.hard)))} (k ${range(jitter.map((m) => m.k))}); ` +
      `another k-means start ${aris(starts.map((m) => adjustedRandIndex(ref.hard, m.hard)))} (k ${range(starts.map((m) => m.k))}); ` +
      `BIC margin of k = ${ref.k} over the runner-up ${ref.margin.toFixed(1)}`,
  );
  const multi = ref.soft.filter((s) => s.length > 1).length;
  const flips = runs
    .get('stable')!
    .map((run) => run.soft.filter((s, i) => s.join() !== ref.soft[i].join()).length);
  const groups = groupByLabel(ref.soft, ref.k);
  console.log(
    `  threshold 0.1: ${multi} of ${n} nodes in two or more global clusters; stable schedule, nodes whose global clusters change ${range(flips)}; ` +
      `global clusters of ${groups.map((g) => g.length).join(', ')} nodes`,
  );
  const clusters = clusterNodes(vectors as Float32Array[], tokens, { seed, maxClusterTokens: Infinity });
  const over = clusters.filter(
    (c) => c.reduce((s, i) => s + tokens[i], 0) > DEFAULT_BUILD_PARAMS.maxClusterTokens,
  ).length;
  console.log(
    `  re-clustering: ${over} of ${clusters.length} clusters exceed ${DEFAULT_BUILD_PARAMS.maxClusterTokens} tokens (clustered again)`,
  );
}

/**
 * The rounding lever on one layer: the vectors rounded to a grid of ROUNDING before clustering, then noise of
 * ±`amplitude` (real) or ±BIT_CLOSE (bit-close), each schedule; ARI of the parents against the rounded
 * noise-free run's.
 */
export function diagnoseRounding(
  label: string,
  vectors: readonly Float32Array[],
  tokens: readonly number[],
  seed: number,
): void {
  const round = (vs: readonly Float32Array[]) =>
    vs.map((v) => Float32Array.from(v, (x) => Math.round(x / ROUNDING) * ROUNDING));
  const unit = (vs: readonly Float32Array[]) => {
    const rows = unitRows(vs);
    return vs.map((_, i) => rows.subarray(i * vs[0].length, (i + 1) * vs[0].length));
  };
  const rounded = round(unit(vectors));
  for (const schedule of SCHEDULES) {
    const cluster = (vs: readonly Float32Array[]) =>
      clusterNodes(vs as Float32Array[], tokens, { seed, layoutSchedule: schedule });
    const reference = primaryParents(cluster(rounded), vectors);
    const cells = [NOISE, BIT_CLOSE].map((amplitude) => {
      const values = Array.from({ length: RUNS }, (_, r) =>
        adjustedRandIndex(
          reference,
          primaryParents(cluster(round(perturbed(unit(vectors), amplitude, 3000 + r))), vectors),
        ),
      );
      return `±${amplitude}: ${aris(values)}`;
    });
    console.log(`  ${label}, ${schedule}, vectors rounded to ${ROUNDING}: ${cells.join('; ')}`);
  }
}
