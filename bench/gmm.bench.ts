/**
 * The BIC sweep (selectClusterCount, k = 1 … 49) against the RAPTOR reference's scikit-learn sweep on the same
 * points, timed in the same run. Points: a seeded mixture of 8 Gaussian blobs in 10-d with random anisotropic
 * shapes and varied spreads (what UMAP output of clustered text looks like). Target: ours ≤ 0.5 × scikit-learn.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom, type RandomFn } from '../src/core/random';
import { selectClusterCount } from '../src/core/cluster';
import type { BenchRow } from './lines';
import { EXIT_PYTHON_LACKS, runPython } from './support';

const SIZES = [1000, 3000];
const DIM = 10;
const CLUSTERS = 8;
const SEED = 224;
const DATA_SEED = 20240610;
/** Centres ~ N(0, 10²) per coordinate; cluster spreads uniform in [0.5, 2.5]; shape I + 0.3·G. */
const CENTER_SPREAD = 10;
const MIN_SPREAD = 0.5;
const SPREAD_RANGE = 2;
const SHAPE_MIX = 0.3;
const TARGET_RATIO = 0.5;
const WARMUP_POINTS = 200;
/** scikit-learn's sweep at N = 3,000 took ~37 s on an idle machine; allow for a loaded one. */
const REFERENCE_TIMEOUT_MS = 20 * 60 * 1000;

const SCRIPT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'scripts',
  'reference',
  'gmm_sweep_timing.py',
);

function gaussian(random: RandomFn): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** n points around CLUSTERS anisotropic Gaussian blobs of varied spread (seeded). */
export function benchPoints(n: number, seed = DATA_SEED): Float64Array[] {
  const random = seededRandom(seed);
  const centers = Array.from({ length: CLUSTERS }, () =>
    Array.from({ length: DIM }, () => CENTER_SPREAD * gaussian(random)),
  );
  const shapes = Array.from({ length: CLUSTERS }, () => {
    const spread = MIN_SPREAD + SPREAD_RANGE * random();
    return Array.from(
      { length: DIM * DIM },
      (_, i) => spread * ((i % (DIM + 1) === 0 ? 1 : 0) + SHAPE_MIX * gaussian(random)),
    );
  });
  const points: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const j = Math.floor(random() * CLUSTERS);
    const z = Array.from({ length: DIM }, () => gaussian(random));
    const p = new Float64Array(DIM);
    for (let a = 0; a < DIM; a++) {
      let s = centers[j][a];
      for (let b = 0; b < DIM; b++) s += z[b] * shapes[j][b * DIM + a];
      p[a] = s;
    }
    points.push(p);
  }
  return points;
}

export interface ReferenceTiming {
  seconds: number;
  k: number;
  sklearn: string;
}

/** Runs the reference sweep in Python; a reason string when no interpreter with scikit-learn could run it. */
export function timeReference(points: readonly ArrayLike<number>[]): ReferenceTiming | string {
  const dir = mkdtempSync(join(tmpdir(), 'aerie-gmm-'));
  try {
    const file = join(dir, 'points.json');
    writeFileSync(file, JSON.stringify(points.map((p) => Array.from(p))));
    const run = runPython([SCRIPT, file], REFERENCE_TIMEOUT_MS, (status, python) =>
      status === EXIT_PYTHON_LACKS ? `no scikit-learn in ${python}` : undefined,
    );
    return 'stdout' in run ? (JSON.parse(run.stdout) as ReferenceTiming) : run.reason;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Our BIC sweep's seconds beside scikit-learn's on the same points (`reference`), or, when the reference could
 * not run (`reference` is the reason), our seconds with the reference NOT MEASURED.
 */
export function sweepRow(
  name: string,
  seconds: number,
  oursK: number,
  reference: ReferenceTiming | string,
): BenchRow {
  const row = { name, value: seconds, unit: 's', higherIsBetter: false };
  if (typeof reference === 'string') {
    return {
      ...row,
      referenceMissing: `scikit-learn's sweep: ${reference}`,
      note: `chosen k: ours ${oursK}`,
    };
  }
  const same = reference.k === oursK ? 'same' : 'DIFFERENT';
  return {
    ...row,
    reference: reference.seconds,
    referenceLabel: `scikit-learn ${reference.sklearn} GaussianMixture`,
    target: TARGET_RATIO,
    note: `chosen k: ours ${oursK}, scikit-learn ${reference.k} (${same})`,
  };
}

/** One row per N: our sweep's seconds beside scikit-learn's on the same points, with both chosen k. */
export async function benchGmm(): Promise<BenchRow[]> {
  // Compile the hot loops before timing, as a page that has already clustered once would have.
  selectClusterCount(benchPoints(WARMUP_POINTS, DATA_SEED + 1), { seed: SEED });
  const rows: BenchRow[] = [];
  for (const n of SIZES) {
    const points = benchPoints(n);
    const start = performance.now();
    const ours = selectClusterCount(points, { seed: SEED });
    const seconds = (performance.now() - start) / 1000;
    const name = `GMM BIC sweep k=1..${ours.bic.length}, N=${n}, d=${DIM}`;
    rows.push(sweepRow(name, seconds, ours.k, timeReference(points)));
  }
  return rows;
}
