/**
 * The stability section of `npm run bench shape`: a whole novel built into a tree (GloVe, extractive
 * summaries), its shape per layer, and each layer's clustering under ±1e-6 on its vectors (stability.ts) with
 * the stable layout beside umap-js's schedule in the same run. `AERIE_BENCH_SHAPE_DIAGNOSE=1` adds the
 * step-by-step diagnosis of layers 1 and 2 (diagnose.ts).
 */
import type { EmbedFn } from '../../src/core/types';
import type { BenchRow } from '../lines';
import { diagnoseLayer, diagnoseRounding } from './diagnose';
import type { Corpus } from './inputs';
import { buildFigures } from './measure';
import {
  meanMin,
  STABILITY_AMPLITUDE,
  STABILITY_RUNS,
  treeStability,
  type LayerStability,
} from './stability';
import { deriveSeed } from '../../src/core/random';

/** The issue's goal for every layer: ARI ≥ 0.9. */
const GOAL = 0.9;

const fixed = (x: number, d = 3) => x.toFixed(d);

function cell(s: LayerStability): string {
  const { mean, min } = meanMin(s.ari);
  const identical = s.ari.filter((a) => a === 1).length;
  return (
    `${fixed(mean)} (min ${fixed(min)}, ${identical}/${s.ari.length} identical), ` +
    `${s.clusters} clusters of ${fixed(s.meanChildren, 2)} (noisy ${Math.min(...s.clusterCounts)}–${Math.max(...s.clusterCounts)}), ${fixed(s.seconds, 1)} s`
  );
}

/** Builds `corpus`, prints its stability per layer in both schedules, and returns a row per layer. */
export async function benchStability(model: string, corpus: Corpus, embed: EmbedFn): Promise<BenchRow[]> {
  const figures = await buildFigures(corpus, embed);
  const { tree, stats } = figures;
  console.log(
    `\n${model}: ${corpus.name} as one tree: layers ${stats.nodesPerLayer.join('/')}, ` +
      `children per parent ${stats.byLayer.map((l) => fixed(l.avgChildrenPerParent, 2)).join(' / ')} ` +
      `(whole tree ${fixed(stats.avgChildrenPerParent, 2)}), built in ${fixed(figures.seconds, 1)} s ` +
      `(clustering ${fixed(figures.clusterSeconds, 1)} s)`,
  );
  console.log(
    `Stability: each layer's clustering again ${STABILITY_RUNS} times with ±${STABILITY_AMPLITUDE} on every ` +
      `coordinate; ARI of the parents against the noise-free run's`,
  );
  const stable = treeStability(tree);
  const umapJs = treeStability(tree, { cluster: { layoutSchedule: 'umap-js' } });
  const rows: BenchRow[] = [];
  stable.forEach((s, i) => {
    const u = umapJs[i];
    console.log(`  layer ${s.layer} (${s.nodes} nodes): stable ${cell(s)}`);
    console.log(`  ${' '.repeat(`layer ${s.layer} (${s.nodes} nodes):`.length)} umap-js ${cell(u)}`);
    const { mean, min } = meanMin(s.ari);
    rows.push({
      name: `stability ${corpus.name}, ${model}, layer ${s.layer} (${s.nodes} nodes): ARI of the parents under ±${STABILITY_AMPLITUDE}, mean of ${s.ari.length}`,
      value: mean,
      unit: '',
      reference: meanMin(u.ari).mean,
      referenceLabel: "umap-js's layout schedule, same run",
      higherIsBetter: true,
      note:
        `min ${fixed(min)} (umap-js ${fixed(meanMin(u.ari).min)}); goal ≥ ${GOAL} every run: ${min >= GOAL ? 'MET' : 'NOT MET'}; ` +
        `${s.clusters} clusters (umap-js ${u.clusters}); clustering ${fixed(s.seconds, 1)} s (umap-js ${fixed(u.seconds, 1)} s)`,
    });
  });
  if (process.env.AERIE_BENCH_SHAPE_DIAGNOSE) {
    for (const layer of [0, 1]) {
      const nodes = tree.nodes.filter((n) => n.layer === layer);
      const seed = deriveSeed(tree.params.seed, layer);
      const args = [nodes.map((n) => n.embedding), nodes.map((n) => n.tokens), seed] as const;
      diagnoseLayer(`${corpus.name}, layer ${layer + 1}`, ...args);
      if (layer === 1) diagnoseRounding(`${corpus.name}, layer ${layer + 1}`, ...args);
    }
  }
  return rows;
}
