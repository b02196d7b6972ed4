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
import { clusterNodes, LOCAL_MIN_CLUSTER_SIZE } from '../../src/core/cluster';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { treeStats } from '../../src/core/stats';
import { configureRuntime, TransformersEmbedder } from '../../src/models/embedder';
import { splitRows } from '../../src/models/rows';
import { OFFLINE_MODEL_ID } from '../../src/models/presets';

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

/** Layer-1 mean cluster size (children per parent) of the default clustering and of the previous design's. */
const SEEDS = [224, 7];
/**
 * Bounds of a layer's mean cluster size. The paper's trees average 5.7–6.8 children per parent over all
 * layers; layer 1 of the paper's own text sits lowest (4.4–5.3 over seeds, 5.2–5.8 for its whole tree), so the
 * lower bound of one layer on one seed is 4.
 */
const LAYER_MIN = 4;
const LAYER_MAX = 8;
/** The earlier design (full local covariances, components of ≥ d nodes) made clusters of 14–22. */
const COARSE_MIN = 10;

describe('tree shape: layer-1 clusters of the paper’s size on real text (GloVe fixture)', () => {
  for (const name of ['sample', 'paper', 'collection-head']) {
    for (const seed of SEEDS) {
      it(`${name}, seed ${seed}: mean children per parent in [${LAYER_MIN}, ${LAYER_MAX}]`, () => {
        const c = corpora.get(name)!;
        const clusters = clusterNodes(c.vectors, c.tokens, { seed });
        const { meanSize } = purity(clusters, c.docs);
        expect(meanSize).toBeGreaterThanOrEqual(LAYER_MIN);
        expect(meanSize).toBeLessThanOrEqual(LAYER_MAX);
      });
    }
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
    for (const seed of SEEDS) {
      const ours = purity(clusterNodes(c.vectors, c.tokens, { seed }), c.docs);
      const k = Math.round(c.leaves / ours.meanSize);
      const baseline = purity(clustersOf(sphericalKMeans(c.vectors, k).labels), c.docs);
      expect(ours.links).toBeGreaterThanOrEqual(baseline.links);
    }
  });
});

describe('tree shape: a whole tree built with the offline GloVe model (real model, extractive summaries)', () => {
  it('the sample makes a tree of 5–8 children per parent, every node in it', async () => {
    configureRuntime({ localModelPath: fileURLToPath(new URL('../../public/models/', import.meta.url)) });
    const embedder = await TransformersEmbedder.load(OFFLINE_MODEL_ID, { dtype: 'q8' });
    const embed = async (texts: string[]) => splitRows(await embedder.embed(texts));
    const text = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');
    const tree = await buildTree(text, { embed, summarize: createExtractiveSummarizer(embed) });
    await embedder.dispose();
    const stats = treeStats(tree);
    expect(stats.avgChildrenPerParent).toBeGreaterThanOrEqual(5);
    expect(stats.avgChildrenPerParent).toBeLessThanOrEqual(8);
    // Every leaf has a parent, and a 100-token summary keeps well under half of its children's text.
    const children = new Set(tree.nodes.flatMap((n) => n.children));
    for (const leaf of tree.nodes.filter((n) => n.layer === 0)) expect(children.has(leaf.id)).toBe(true);
    expect(stats.avgCompressionRatio).toBeLessThan(0.4);
  }, 60_000);
});
