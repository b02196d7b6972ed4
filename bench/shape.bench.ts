/**
 * `npm run bench shape`: the tree's shape beside the paper's Table 10 (Appendix C), on the sample, the paper's
 * own text and a 23-document public-domain collection, with both models Aerie ships (offline GloVe; MiniLM-L6's
 * architecture with random weights, as no hub is reachable here: see scripts/models/README.md for what such
 * vectors can and cannot show). Summaries are extractive (no LLM), so summary lengths are the extractive
 * summariser's, not gpt-3.5-turbo's.
 *
 * For each model and collection: a whole tree with the default clustering and with the earlier design (full
 * local covariances), its Table 10 figures per layer, build and clustering time; layer-1 purity on the
 * collection beside spherical k-means on the same leaf embeddings at the same mean cluster size; and the
 * candidate designs of docs/clustering.md, each clustering the leaves once (layer 1). With GloVe, the stability
 * of every layer's clustering of a whole novel under ±1e-6 on its vectors at four seeds (mean and worst run per
 * seed and layer), beside umap-js's layout schedule (bench/shape/stability-report.ts;
 * `AERIE_BENCH_SHAPE_DIAGNOSE=1` adds where it is lost, step by step).
 */
import { LOCAL_MIN_CLUSTER_SIZE } from '../src/core/cluster';
import { PAPER_TABLE_10, type SummaryFigures } from '../src/core/stats';
import { DEFAULT_BUILD_PARAMS } from '../src/core/types';
import { purity } from './baselines/purity';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import {
  benchModels,
  corpora,
  GLOVE_MODEL,
  loadEmbed,
  novel,
  type BenchModel,
  type Corpus,
} from './shape/inputs';
import { benchStability } from './shape/stability-report';
import {
  buildFigures,
  clusterLayer1,
  kmeansBaseline,
  oracleLocalStep,
  type Candidate,
  type TreeFigures,
} from './shape/measure';

/** The paper's shape, over all its datasets. */
const PAPER = PAPER_TABLE_10[0];
/** The issue's bounds on the mean children per parent. */
const SHAPE_RANGE: [number, number] = [5, 8];
/** The paper's compression (28%) asks a summary of S tokens for S / 0.28 tokens of children. */
const BUDGET_TOKENS = Math.round(DEFAULT_BUILD_PARAMS.summaryTokens / PAPER.avgCompressionRatio);
/** Mean leaf tokens of the three collections (80–82), to turn that budget into children. */
const MEAN_LEAF_TOKENS = 80;

/** The designs compared at layer 1 (docs/clustering.md). */
const CANDIDATES: Candidate[] = [
  { name: 'earlier design: full, ≥ d = 10', options: { local: { covariance: 'full' } } },
  { name: 'full, local UMAP to 4-d, ≥ 4', options: { local: { covariance: 'full', reductionDim: 4 } } },
  { name: 'diag, ≥ 3', options: { local: { covariance: 'diag' } } },
  { name: 'tied, ≥ 3', options: { local: { covariance: 'tied' } } },
  {
    name: 'family by BIC (full/diag/spherical/tied)',
    options: { local: { covariance: ['full', 'diag', 'spherical', 'tied'] } },
  },
  { name: 'spherical, ≥ 2', options: { local: { minClusterSize: 2 } } },
  { name: `spherical, ≥ ${LOCAL_MIN_CLUSTER_SIZE} (default)`, options: {} },
  {
    name: `spherical, ≥ ${LOCAL_MIN_CLUSTER_SIZE}, umap-js's layout (before)`,
    options: { layoutSchedule: 'umap-js' },
  },
  { name: 'spherical, ≥ 3, ICL', options: { local: { criterion: 'icl' } } },
  { name: 'spherical, ≥ 4', options: { local: { minClusterSize: 4 } } },
  {
    name: `spherical, ≥ ${Math.ceil(BUDGET_TOKENS / MEAN_LEAF_TOKENS)} (${BUDGET_TOKENS}-token budget)`,
    options: { local: { minClusterSize: Math.ceil(BUDGET_TOKENS / MEAN_LEAF_TOKENS) } },
  },
  {
    name: `earlier design, clusters ≤ ${BUDGET_TOKENS} tokens`,
    options: { local: { covariance: 'full' }, maxClusterTokens: BUDGET_TOKENS },
  },
];

const pct = (x: number) => `${Math.round(100 * x)}%`;
const fixed = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const pad = (s: string, n: number) => s.padEnd(n);

function figureCells(f: Omit<SummaryFigures, 'parents'>): string {
  return [
    fixed(f.avgSummaryTokens).padStart(7),
    fixed(f.avgChildTokens).padStart(6),
    fixed(f.avgChildrenPerParent, 2).padStart(8),
    pct(f.avgCompressionRatio).padStart(11),
  ].join(' ');
}

/** Prints one model's trees as Table 10 (whole tree and per layer) and returns its rows. */
function reportTrees(model: string, results: { corpus: Corpus; ours: TreeFigures; earlier: TreeFigures }[]) {
  console.log(`\n${model}: whole trees (extractive summaries), Table 10 figures`);
  console.log(
    `${pad('collection / layer', 32)} nodes  summary  child children compression  build (clustering)`,
  );
  console.log(`${pad('paper, Table 10 (all datasets)', 32)}     —  ${figureCells(PAPER)}`);
  const rows: BenchRow[] = [];
  for (const { corpus, ours, earlier } of results) {
    const s = ours.stats;
    const total = s.nodesPerLayer.reduce((a, b) => a + b, 0);
    console.log(
      `${pad(`${corpus.name}: whole tree`, 32)} ${String(total).padStart(5)}  ${figureCells(s)}  ` +
        `${fixed(ours.seconds)} s (${fixed(ours.clusterSeconds)} s)`,
    );
    for (const layer of s.byLayer) {
      console.log(
        `${pad(`  layer ${layer.layer}`, 32)} ${String(s.nodesPerLayer[layer.layer]).padStart(5)}  ${figureCells(layer)}`,
      );
    }
    const e = earlier.stats;
    console.log(
      `${pad('  earlier design', 32)} ${String(e.nodesPerLayer.reduce((a, b) => a + b, 0)).padStart(5)}  ` +
        `${figureCells(e)}  ${fixed(earlier.seconds)} s (${fixed(earlier.clusterSeconds)} s)`,
    );
    const children = s.avgChildrenPerParent;
    const inRange = children >= SHAPE_RANGE[0] && children <= SHAPE_RANGE[1];
    rows.push({
      name: `shape ${corpus.name}, ${model}: children per parent`,
      value: children,
      unit: 'children',
      reference: PAPER.avgChildrenPerParent,
      referenceLabel: 'paper, Table 10',
      higherIsBetter: false,
      note:
        `in [${SHAPE_RANGE.join(', ')}]: ${inRange ? 'yes' : 'NO'}; layers ${s.nodesPerLayer.join('/')}; ` +
        `compression ${pct(s.avgCompressionRatio)}; earlier design ${fixed(e.avgChildrenPerParent, 2)} ` +
        `(layers ${e.nodesPerLayer.join('/')})`,
    });
    rows.push({
      name: `shape ${corpus.name}, ${model}: clustering time of the build`,
      value: ours.clusterSeconds,
      unit: 's',
      reference: earlier.clusterSeconds,
      referenceLabel: 'earlier design, same run',
      higherIsBetter: false,
      note:
        `whole build ${fixed(ours.seconds)} s (the earlier design's ${fixed(earlier.seconds)} s reused the ` +
        `cached leaf embeddings); ${s.parents} summaries (LLM calls) vs ${e.parents}`,
    });
  }
  return rows;
}

/** Layer-1 purity of the tree of the collection against spherical k-means at the same mean size. */
function purityRow(model: string, figures: TreeFigures): BenchRow {
  const leafNodes = figures.tree.nodes.filter((n) => n.layer === 0);
  const leaves = leafNodes.map((n) => n.embedding);
  const ours = purity(figures.layer1, figures.docs);
  const km = kmeansBaseline(leaves, figures.docs, ours.meanSize);
  const oracle = oracleLocalStep(
    leaves,
    leafNodes.map((n) => n.tokens),
    figures.docs,
    ours.meanSize,
  );
  console.log(
    `\n${model}: layer-1 purity of the collection (mean size ${fixed(ours.meanSize, 2)}): ` +
      `ours ${fixed(ours.links, 3)} (per parent ${fixed(ours.perParent, 3)}), ` +
      `spherical k-means ${fixed(km.links, 3)} (${fixed(km.perParent, 3)}, ${km.singletons} single-leaf clusters of ${km.k}), ` +
      `our global clusters + spherical k-means inside each ${fixed(oracle.links, 3)} (${fixed(oracle.perParent, 3)})`,
  );
  return {
    name: `purity collection, ${model}: layer-1 purity (links)`,
    value: ours.links,
    unit: '',
    reference: km.links,
    referenceLabel: `spherical k-means, k = ${km.k} (same mean size ${fixed(ours.meanSize, 2)})`,
    higherIsBetter: true,
    target: 1,
    note:
      `mean per parent: ours ${fixed(ours.perParent, 3)}, k-means ${fixed(km.perParent, 3)} ` +
      `(k-means has ${km.singletons} single-leaf clusters, ours ${ours.singletons})`,
  };
}

/** Prints the candidates' layer-1 figures for one model. */
function reportCandidates(model: string, leavesByCorpus: Map<string, TreeFigures>): void {
  console.log(`\n${model}: candidate designs, layer 1 (the leaves clustered once)`);
  console.log(
    `${pad('candidate', 44)} sample  paper  coll.  purity  k-means  ratio  per-parent (ours/k-means)  time`,
  );
  const get = (name: string) => leavesByCorpus.get(name)!;
  for (const candidate of CANDIDATES) {
    const sizes: string[] = [];
    let seconds = 0;
    let line = '';
    for (const name of ['sample', 'paper', 'collection']) {
      const f = get(name);
      const leaves = f.tree.nodes.filter((n) => n.layer === 0);
      const run = clusterLayer1(
        leaves.map((n) => n.embedding),
        leaves.map((n) => n.tokens),
        candidate,
      );
      seconds += run.seconds;
      const p = purity(run.clusters, f.docs);
      sizes.push(fixed(p.meanSize, 2).padStart(6));
      if (name === 'collection') {
        const km = kmeansBaseline(
          leaves.map((n) => n.embedding),
          f.docs,
          p.meanSize,
        );
        line =
          `${fixed(p.links, 3).padStart(6)}  ${fixed(km.links, 3).padStart(7)}  ${fixed(p.links / km.links, 2).padStart(5)}  ` +
          `${fixed(p.perParent, 3)} / ${fixed(km.perParent, 3)}`.padEnd(27);
      }
    }
    console.log(`${pad(candidate.name, 44)} ${sizes.join(' ')}  ${line}  ${fixed(seconds)} s`);
  }
}

/**
 * What `AERIE_BENCH_SHAPE` asks for: 'trees' (the collections' shapes, purity and candidates), 'stability' (the
 * novel's stability at four seeds, GloVe only), or both (unset).
 */
function parts(): { trees: boolean; stability: boolean } {
  const only = process.env.AERIE_BENCH_SHAPE;
  if (only && only !== 'trees' && only !== 'stability')
    throw new Error(`AERIE_BENCH_SHAPE must be "trees" or "stability" (got "${only}").`);
  return { trees: only !== 'stability', stability: only !== 'trees' };
}

async function benchModel(model: BenchModel): Promise<BenchRow[]> {
  const want = parts();
  const stability = want.stability && model.id === GLOVE_MODEL.id;
  if (!want.trees && !stability) return [];
  const { embed, dispose } = await loadEmbed(model);
  try {
    // The stability figure on a whole novel, with the offline model (the one a build without a hub uses).
    if (!want.trees) return await benchStability(model.label, novel(), embed);
    const results: { corpus: Corpus; ours: TreeFigures; earlier: TreeFigures }[] = [];
    for (const corpus of corpora()) {
      const ours = await buildFigures(corpus, embed);
      const earlier = await buildFigures(corpus, embed, { covariance: 'full' });
      results.push({ corpus, ours, earlier });
    }
    const rows = reportTrees(model.label, results);
    rows.push(purityRow(model.label, results.find((r) => r.corpus.name === 'collection')!.ours));
    reportCandidates(model.label, new Map(results.map((r) => [r.corpus.name, r.ours])));
    if (stability) rows.push(...(await benchStability(model.label, novel(), embed)));
    return rows;
  } finally {
    await dispose();
  }
}

/** Rows: per model and collection, children per parent beside the paper, build time; purity beside k-means. */
export async function benchShape(): Promise<BenchLine[]> {
  const rows: BenchLine[] = [];
  // The stability figure alone needs only the offline model (no MiniLM to generate).
  for (const model of parts().trees ? benchModels() : [{ ...GLOVE_MODEL }]) {
    if ('skipped' in model) {
      rows.push(
        notMeasured(`shape, purity and clustering time of every collection, ${model.label}`, model.skipped),
      );
      continue;
    }
    rows.push(...(await benchModel(model)));
  }
  return rows;
}
