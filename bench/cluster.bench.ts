/**
 * `clusterNodes` on 1,000 and 3,000 random 384-d vectors (the size of MiniLM embeddings): wall seconds with a
 * breakdown by phase, and the global BIC sweep on the very points our global UMAP produced beside
 * scikit-learn's sweep on the same points (umap-learn cannot be installed here, so the reference covers the
 * mixture part of the official pipeline only). The global UMAP's layout beside umap-js's from the same k-NN
 * graph and seeds: time, and how well each keeps neighbourhoods (10-NN preservation, trustworthiness), on a
 * book's leaves embedded by the offline GloVe model and on the random vectors. The exact k-NN scan and the
 * BIC sweep each beside their JavaScript twins (the same numbers without the WebAssembly kernels).
 */
import { UMAP } from 'umap-js';
import { cosine } from 'umap-js/dist/umap';
import {
  clusterNodes,
  type ClusterProgress,
  exactCosineKnn,
  runSweepTask,
  selectClusterCount,
  selectClusterCountSplit,
  type SweepTask,
  reduceDimensions,
} from '../src/core/cluster';
import { deriveSeed, seededRandom } from '../src/core/random';
import { runSync } from '../src/core/yield';
import { sweepRow, timeReference } from './gmm.bench';
import type { BenchRow } from './lines';
import { join } from 'node:path';
import { chunkText } from '../src/core/text';
import { DEFAULT_BUILD_PARAMS } from '../src/core/types';
import { configureRuntime, TransformersEmbedder } from '../src/models/embed';
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import { neighbourhoodPreservation, pairwise, trustworthiness } from './baselines/umap-quality';
import { benchDocument } from './build/documents';
import { ROOT } from './support';

const SIZES = [1000, 3000];
const DIM = 384;
const SEED = 224;
const TOKENS_PER_NODE = 100;
const REDUCTION_DIM = 10;

function randomUnitVectors(n: number, dim: number, seed: number): Float32Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const v = new Float32Array(dim);
    let s = 0;
    for (let i = 0; i < dim; i++) {
      const x = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      v[i] = x;
      s += x * x;
    }
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < dim; i++) v[i] *= inv;
    return v;
  });
}

/** Seconds spent per clustering step (UMAP vs mixtures), from the progress events' timestamps. */
function timedClusterNodes(vectors: Float32Array[]): {
  seconds: number;
  umap: number;
  gmm: number;
  clusters: number;
} {
  let umap = 0;
  let gmm = 0;
  let last = performance.now();
  let step: ClusterProgress['step'] | undefined;
  const start = last;
  const clusters = clusterNodes(vectors, new Array(vectors.length).fill(TOKENS_PER_NODE), {
    seed: SEED,
    onProgress: (p) => {
      const now = performance.now();
      if (step?.endsWith('umap')) umap += now - last;
      else if (step) gmm += now - last;
      step = p.step;
      last = now;
    },
  });
  const end = performance.now();
  if (step?.endsWith('umap')) umap += end - last;
  else if (step) gmm += end - last;
  return { seconds: (end - start) / 1000, umap: umap / 1000, gmm: gmm / 1000, clusters: clusters.length };
}

/** Layouts of one graph compared: seconds and quality of ours (WebAssembly kernel) and of umap-js's `UMAP`. */
interface LayoutComparison {
  n: number;
  epochs: number;
  ours: { seconds: number; trust: number; kept: number };
  umapJs: { seconds: number; trust: number; kept: number };
}

/** Neighbours at which the layouts' quality is measured. */
const QUALITY_K = 10;

/**
 * The global UMAP both ways from one exact k-NN graph and seed: our layout (umap.ts → umap-layout.ts, the
 * WebAssembly kernel) and umap-js's `UMAP` class (initializeFit + step), each timed, and each layout's
 * trustworthiness and 10-NN preservation against the input's cosine distances, averaged over `seeds`.
 */
function compareLayouts(flat: Float32Array, n: number, dim: number, seeds: number[]): LayoutComparison {
  const nNeighbors = Math.floor(Math.sqrt(n - 1));
  const graph = runSync(exactCosineKnn(flat, n, dim, nNeighbors));
  const input = pairwise(flat, n, dim, (a, b) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += flat[a + t] * flat[b + t];
    return 1 - s;
  });
  const quality = (y: ArrayLike<number>) => {
    const output = pairwise(y, n, REDUCTION_DIM, (a, b) => {
      let s = 0;
      for (let t = 0; t < REDUCTION_DIM; t++) s += (y[a + t] - y[b + t]) ** 2;
      return s;
    });
    return {
      trust: trustworthiness(input, output, n, QUALITY_K),
      kept: neighbourhoodPreservation(input, output, n, QUALITY_K),
    };
  };
  const sum = { ours: { seconds: 0, trust: 0, kept: 0 }, umapJs: { seconds: 0, trust: 0, kept: 0 } };
  let epochs = 0;
  for (const seed of seeds) {
    const t0 = performance.now();
    const ours = runSync(
      reduceDimensions(flat, n, dim, { nComponents: REDUCTION_DIM, nNeighbors, seed, graph }),
    );
    const t1 = performance.now();
    const umap = new UMAP({
      nComponents: REDUCTION_DIM,
      nNeighbors,
      minDist: 0.1,
      distanceFn: cosine,
      random: seededRandom(seed),
    });
    umap.setPrecomputedKNN(graph.indices, graph.distances);
    epochs = umap.initializeFit(graph.indices.map(() => [0]));
    for (let e = 0; e < epochs; e++) umap.step();
    const theirs = umap.getEmbedding().flat();
    const t2 = performance.now();
    for (const [key, y, seconds] of [
      ['ours', ours, (t1 - t0) / 1000],
      ['umapJs', theirs, (t2 - t1) / 1000],
    ] as const) {
      const q = quality(y);
      sum[key].seconds += seconds / seeds.length;
      sum[key].trust += q.trust / seeds.length;
      sum[key].kept += q.kept / seeds.length;
    }
  }
  return { n, epochs, ...sum };
}

/** The comparison as rows: time beside umap-js's, and both quality measures beside umap-js's. */
function layoutRows(label: string, c: LayoutComparison, seeds: number): BenchRow[] {
  const what = `global UMAP of ${label} (N=${c.n}, ${c.epochs} epochs, mean of ${seeds} seeds)`;
  return [
    {
      name: `${what}: layout from the k-NN graph`,
      value: c.ours.seconds,
      unit: 's',
      reference: c.umapJs.seconds,
      referenceLabel: "umap-js's UMAP from the same graph and seed",
      higherIsBetter: false,
    },
    {
      name: `${what}: ${QUALITY_K}-NN preservation`,
      value: c.ours.kept,
      unit: '',
      reference: c.umapJs.kept,
      referenceLabel: 'umap-js, same graph and seeds',
      higherIsBetter: true,
      note: `share of each point's ${QUALITY_K} nearest (cosine) kept among its ${QUALITY_K} nearest in the layout`,
    },
    {
      name: `${what}: trustworthiness at ${QUALITY_K}`,
      value: c.ours.trust,
      unit: '',
      reference: c.umapJs.trust,
      referenceLabel: 'umap-js, same graph and seeds',
      higherIsBetter: true,
      note: 'Venna & Kaski (2001): 1 means no false neighbours',
    },
  ];
}

/** The leaves of the build bench's 78k-token book, embedded by the offline GloVe model in Node (real text). */
async function bookLeaves(): Promise<{ flat: Float32Array; n: number; dim: number }> {
  configureRuntime({ localModelPath: join(ROOT, 'public', 'models') });
  const embedder = await TransformersEmbedder.load(OFFLINE_MODEL_ID, { dtype: 'q8', device: 'cpu' });
  try {
    const chunks = chunkText(benchDocument(78_000).text, { maxTokens: DEFAULT_BUILD_PARAMS.chunkTokens });
    const batch = await embedder.embed(chunks.map((c) => c.text));
    return { flat: batch.data, n: chunks.length, dim: batch.dim };
  } finally {
    await embedder.dispose();
  }
}

/** Seconds `run` takes, and what it returned. */
function timed<T>(run: () => T): { seconds: number; value: T } {
  const t0 = performance.now();
  const value = run();
  return { seconds: (performance.now() - t0) / 1000, value };
}

/**
 * The WebAssembly kernels beside their JavaScript twins on the same input: the exact k-NN scan of `flat`
 * (unit vectors) and the global BIC sweep of `points`; each row says whether both gave the same result.
 */
async function kernelRows(flat: Float32Array, n: number, points: Float64Array[]): Promise<BenchRow[]> {
  const k = Math.floor(Math.sqrt(n - 1));
  const knn = timed(() => runSync(exactCosineKnn(flat, n, DIM, k, 'auto')));
  const knnJs = timed(() => runSync(exactCosineKnn(flat, n, DIM, k, 'js')));
  const sameGraph =
    JSON.stringify(knn.value.indices) === JSON.stringify(knnJs.value.indices) &&
    JSON.stringify(knn.value.distances) === JSON.stringify(knnJs.value.distances);
  let task: SweepTask | undefined;
  await selectClusterCountSplit(points, { seed: SEED }, 1, async (t) => {
    task = t;
    return { bic: t.ks.map(() => NaN), admissible: t.ks.map(() => false) };
  });
  const sweep = timed(() => runSweepTask(task!, undefined, undefined, 'auto'));
  const sweepJs = timed(() => runSweepTask(task!, undefined, undefined, 'js'));
  const sameFits = JSON.stringify(sweep.value) === JSON.stringify(sweepJs.value);
  return [
    {
      name: `exact cosine k-NN scan, kernel, N=${n} × ${DIM}-d, k=${k}`,
      value: knn.seconds,
      unit: 's',
      reference: knnJs.seconds,
      referenceLabel: 'its JavaScript twin, same vectors',
      higherIsBetter: false,
      note: sameGraph ? 'the same graph, bit for bit' : 'THE GRAPHS DIFFER',
    },
    {
      name: `global BIC sweep k=1..${task!.ks.length}, mixtures' kernel, N=${n}`,
      value: sweep.seconds,
      unit: 's',
      reference: sweepJs.seconds,
      referenceLabel: 'the JavaScript loops, same points',
      higherIsBetter: false,
      note: sameFits ? 'the same BIC values, bit for bit' : 'THE BIC VALUES DIFFER',
    },
  ];
}

/** Rows: clusterNodes timings, and the global sweep against scikit-learn on the same reduced points. */
export async function benchCluster(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const book = await bookLeaves();
  const bookSeeds = [1, 2, 3];
  rows.push(
    ...layoutRows(
      "a 78k-token book's leaves (GloVe)",
      compareLayouts(book.flat, book.n, book.dim, bookSeeds),
      bookSeeds.length,
    ),
  );
  for (const n of SIZES) {
    const vectors = randomUnitVectors(n, DIM, SEED + n);
    const run = timedClusterNodes(vectors);
    rows.push({
      name: `clusterNodes N=${n}, ${DIM}-d random vectors`,
      value: run.seconds,
      unit: 's',
      noReference:
        'umap-learn is not installable here; the sweep row below times the mixture part against scikit-learn',
      higherIsBetter: false,
      note: `UMAP ${run.umap.toFixed(1)} s, mixtures ${run.gmm.toFixed(1)} s, ${run.clusters} clusters`,
    });

    // The global step on its own: the same UMAP as clusterNodes' first pass, then both sweeps on its output.
    const flat = new Float32Array(n * DIM);
    vectors.forEach((v, i) => flat.set(v, i * DIM));
    rows.push(...layoutRows(`${DIM}-d random vectors`, compareLayouts(flat, n, DIM, [SEED]), 1));
    const reduced = runSync(
      reduceDimensions(flat, n, DIM, {
        nComponents: REDUCTION_DIM,
        nNeighbors: Math.floor(Math.sqrt(n - 1)),
        seed: deriveSeed(SEED, 0, 0),
      }),
    );
    const points = Array.from({ length: n }, (_, i) =>
      reduced.subarray(i * REDUCTION_DIM, (i + 1) * REDUCTION_DIM),
    );
    rows.push(...(await kernelRows(flat, n, points)));
    const t0 = performance.now();
    const ours = selectClusterCount(points, { seed: SEED });
    const seconds = (performance.now() - t0) / 1000;
    rows.push(
      sweepRow(`global BIC sweep on our UMAP output, N=${n}`, seconds, ours.k, timeReference(points)),
    );
  }
  return rows;
}
