/**
 * The tree's shape (issue "trees shaped like the paper's"): about six children per parent, as in the paper's
 * Appendix C, and clusters that keep related text together. Behavioural bounds on committed embeddings of real
 * text (tests/fixtures/shape/glove-leaves.json: leaves of the sample, of the paper and of the head of each
 * document of the public-domain collection, embedded by the offline GloVe model; written by
 * scripts/fixtures/make-shape-embeddings.ts), and one whole tree built with that model itself.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { purity } from '../../bench/baselines/purity';
import { clustersOf, sphericalKMeans } from '../../bench/baselines/spherical-kmeans';
import { decodeFloat32LEInto } from '../../src/core/base64';
import { buildTree } from '../../src/core/build';
import { clusterNodes, LOCAL_MIN_CLUSTER_SIZE } from '../../src/core/cluster/cluster';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { treeStats } from '../../src/core/stats';
import { DEFAULT_BUILD_PARAMS } from '../../src/core/types';
import { configureRuntime, TransformersEmbedder } from '../../src/models/embed';
import { splitRows } from '../../src/models/embed/rows';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';

interface CorpusFixture {
  name: string;
  leaves: number;
  docs: string[];
  tokens: number[];
  vectors: Float32Array[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/shape/glove-leaves.json', import.meta.url), 'utf8'),
) as { dim: number; corpora: (Omit<CorpusFixture, 'vectors'> & { embeddings: string })[] };

const corpora = new Map<string, CorpusFixture>(
  fixture.corpora.map((c) => {
    const data = new Float32Array(c.leaves * fixture.dim);
    decodeFloat32LEInto(c.embeddings, data);
    return [c.name, { ...c, vectors: splitRows({ data, dim: fixture.dim }) }];
  }),
);

/**
 * Seeds of the layer-1 measurements. A single layout is one draw of a stochastic descent: one seed's mean
 * cluster size ranges over about ±1.5 around its average (the sample: 4.4–9.0 over seeds 1–30; the paper's text
 * 4.8–6.4; the collection's head 6.0–7.5), and any change in the arithmetic's last bits draws another. The
 * shape is a property of the average, so the bounds hold for the mean over these seeds.
 */
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
/**
 * Bounds of the mean over SEEDS of a layer's mean cluster size. The paper's trees average 5.7–6.8 children per
 * parent over all layers; layer 1 of the paper's own text sits lowest (5.3–5.4 on average over seeds), so the
 * lower bound is 4.5.
 */
const LAYER_MIN = 4.5;
const LAYER_MAX = 8;
/** No single seed's layer 1 leaves this range (the earlier design made clusters of 14–22). */
const SEED_MIN = 3;
const SEED_MAX = 10;
/** The earlier design (full local covariances, components of ≥ d nodes) made clusters of 14–22. */
const COARSE_MIN = 10;

describe('tree shape: layer-1 clusters of the paper’s size on real text (GloVe fixture)', () => {
  for (const name of ['sample', 'paper', 'collection-head']) {
    it(`${name}: mean children per parent over seeds ${SEEDS[0]}–${SEEDS.at(-1)} in [${LAYER_MIN}, ${LAYER_MAX}], each seed in [${SEED_MIN}, ${SEED_MAX}]`, () => {
      const c = corpora.get(name)!;
      let mean = 0;
      for (const seed of SEEDS) {
        const { meanSize } = purity(clusterNodes(c.vectors, c.tokens, { seed }), c.docs);
        expect(meanSize).toBeGreaterThanOrEqual(SEED_MIN);
        expect(meanSize).toBeLessThanOrEqual(SEED_MAX);
        mean += meanSize / SEEDS.length;
      }
      expect(mean).toBeGreaterThanOrEqual(LAYER_MIN);
      expect(mean).toBeLessThanOrEqual(LAYER_MAX);
      // A limit, not a speed: eight clusterings of a corpus, 1–7 s on an idle core, took 61–81 s beside
      // another test file on a machine at load 20.
    }, 120_000);
  }

  it('the earlier design (full local covariances) is what these bounds rule out', () => {
    const c = corpora.get('sample')!;
    const clusters = clusterNodes(c.vectors, c.tokens, { seed: 224, local: { covariance: 'full' } });
    expect(purity(clusters, c.docs).meanSize).toBeGreaterThan(COARSE_MIN);
  });

  it('no cluster is a lone node: local components own at least LOCAL_MIN_CLUSTER_SIZE nodes', () => {
    const c = corpora.get('paper')!;
    // Threshold 1: every node only in its most probable cluster, so sizes are the components' own (a
    // component of effective size ≥ 3 may own 2 nodes outright and share a third).
    const clusters = clusterNodes(c.vectors, c.tokens, { seed: 224, threshold: 1 });
    const sizes = clusters.map((cluster) => cluster.length);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(LOCAL_MIN_CLUSTER_SIZE - 1);
  });
});

describe('tree shape: clusters of related text (collection head, 23 unrelated documents)', () => {
  it('layer-1 purity is at least spherical k-means’ on the same embeddings at the same mean cluster size', () => {
    const c = corpora.get('collection-head')!;
    for (const seed of SEEDS.slice(0, 3)) {
      const ours = purity(clusterNodes(c.vectors, c.tokens, { seed }), c.docs);
      const k = Math.round(c.leaves / ours.meanSize);
      const baseline = purity(clustersOf(sphericalKMeans(c.vectors, k).labels), c.docs);
      expect(ours.links).toBeGreaterThanOrEqual(baseline.links);
    }
  });
});

describe('tree shape: a whole tree built with the offline GloVe model (real model, extractive summaries)', () => {
  it('the sample makes trees of 5–8 children per parent on average over seeds, every node in them', async () => {
    configureRuntime({ localModelPath: fileURLToPath(new URL('../../public/models/', import.meta.url)) });
    const embedder = await TransformersEmbedder.load(OFFLINE_MODEL_ID, { dtype: 'q8' });
    const embed = async (texts: string[]) => splitRows(await embedder.embed(texts));
    const text = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');
    // One tree is one draw (4.0–7.5 over seeds 1–12 for this 44-leaf text): the shape is the average's.
    const seeds = [1, 2, 3, 4, 5, 6];
    let mean = 0;
    for (const seed of seeds) {
      const tree = await buildTree(
        text,
        { embed, summarize: createExtractiveSummarizer(embed) },
        { ...DEFAULT_BUILD_PARAMS, seed },
      );
      const stats = treeStats(tree);
      mean += stats.avgChildrenPerParent / seeds.length;
      // Every leaf has a parent, and a 100-token summary keeps well under half of its children's text.
      const children = new Set(tree.nodes.flatMap((n) => n.children));
      for (const leaf of tree.nodes.filter((n) => n.layer === 0)) expect(children.has(leaf.id)).toBe(true);
      expect(stats.avgCompressionRatio).toBeLessThan(0.4);
    }
    await embedder.dispose();
    expect(mean).toBeGreaterThanOrEqual(5);
    expect(mean).toBeLessThanOrEqual(8);
  }, 120_000);
});
