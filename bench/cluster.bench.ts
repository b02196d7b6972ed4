/**
 * `clusterNodes` on 1,000 and 3,000 random 384-d vectors (the size of MiniLM embeddings): wall seconds with a
 * breakdown by phase, and the global BIC sweep on the very points our global UMAP produced beside
 * scikit-learn's sweep on the same points (umap-learn cannot be installed here, so the reference covers the
 * mixture part of the official pipeline only).
 */
import { UMAP } from 'umap-js';
import { cosine } from 'umap-js/dist/umap';
import { clusterNodes, type ClusterProgress } from '../src/core/cluster';
import { cosineKnn } from '../src/core/knn';
import { deriveSeed, seededRandom } from '../src/core/random';
import { selectClusterCount } from '../src/core/select-k';
import { reduceDimensions } from '../src/core/umap';
import { runSync } from '../src/core/yield';
import { timeReference } from './gmm.bench';
import type { BenchRow } from './report';

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

/**
 * The global UMAP both ways from one k-NN graph: our flat layout (umap.ts → umap-layout.ts) and umap-js's
 * `UMAP` class (initializeFit + step, as the app used before), with whether their outputs are identical.
 */
function umapAgainstUmapJs(flat: Float32Array, n: number): BenchRow {
  const nNeighbors = Math.floor(Math.sqrt(n - 1));
  const seed = deriveSeed(SEED, 0, 0);
  const t0 = performance.now();
  const ours = runSync(reduceDimensions(flat, n, DIM, { nComponents: REDUCTION_DIM, nNeighbors, seed }));
  const t1 = performance.now();
  const random = seededRandom(seed);
  const graph = runSync(cosineKnn(flat, n, DIM, nNeighbors, random));
  const umap = new UMAP({ nComponents: REDUCTION_DIM, nNeighbors, minDist: 0.1, distanceFn: cosine, random });
  umap.setPrecomputedKNN(graph.indices, graph.distances);
  const rows = Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * DIM, (i + 1) * DIM)));
  const epochs = umap.initializeFit(rows);
  for (let e = 0; e < epochs; e++) umap.step();
  const t2 = performance.now();
  const theirs = umap.getEmbedding();
  const same = theirs.every((row, i) => row.every((v, c) => Object.is(v, ours[i * REDUCTION_DIM + c])));
  return {
    name: `global UMAP N=${n} to ${REDUCTION_DIM}-d (k-NN graph, fuzzy set, ${epochs} epochs)`,
    value: (t1 - t0) / 1000,
    unit: 's',
    reference: (t2 - t1) / 1000,
    referenceLabel: "umap-js's UMAP from the same k-NN graph",
    higherIsBetter: false,
    note: same ? 'identical coordinates' : 'coordinates DIFFER from umap-js',
  };
}

/** Rows: clusterNodes timings, and the global sweep against scikit-learn on the same reduced points. */
export async function benchCluster(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of SIZES) {
    const vectors = randomUnitVectors(n, DIM, SEED + n);
    const run = timedClusterNodes(vectors);
    rows.push({
      name: `clusterNodes N=${n}, ${DIM}-d random vectors`,
      value: run.seconds,
      unit: 's',
      referenceLabel: 'umap-learn is not installable here; see the sweep row below for the mixture part',
      higherIsBetter: false,
      note: `UMAP ${run.umap.toFixed(1)} s, mixtures ${run.gmm.toFixed(1)} s, ${run.clusters} clusters`,
    });

    // The global step on its own: the same UMAP as clusterNodes' first pass, then both sweeps on its output.
    const flat = new Float32Array(n * DIM);
    vectors.forEach((v, i) => flat.set(v, i * DIM));
    rows.push(umapAgainstUmapJs(flat, n));
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
    const t0 = performance.now();
    const ours = selectClusterCount(points, { seed: SEED });
    const seconds = (performance.now() - t0) / 1000;
    const reference = timeReference(points);
    const name = `global BIC sweep on our UMAP output, N=${n}`;
    if (typeof reference === 'string') {
      rows.push({
        name,
        value: seconds,
        unit: 's',
        referenceLabel: reference,
        higherIsBetter: false,
        note: `k ${ours.k}`,
      });
    } else {
      rows.push({
        name,
        value: seconds,
        unit: 's',
        reference: reference.seconds,
        referenceLabel: `scikit-learn ${reference.sklearn}`,
        higherIsBetter: false,
        target: 0.5,
        note: `chosen k: ours ${ours.k}, scikit-learn ${reference.k}${ours.k === reference.k ? ' (same)' : ''}`,
      });
    }
  }
  return rows;
}
