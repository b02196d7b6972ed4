/**
 * A generated tree shaped like a RAPTOR build of a long book, for the view bench and the large-tree browser
 * test: leaves of about a hundred words whose topic drifts along the text, summaries over 4–9 consecutive
 * nodes of the layer below (about 1 in 10 also in the next cluster: soft clustering), layers until one has at
 * most 11 nodes, small embeddings that follow the topics. The 14k-node size is a 1M-token tree (the KJV built
 * here: 14,210 nodes). Seeded: the same options give the same tree. No labels (a tree from before labels);
 * runs in Node and in the browser.
 */
import { deriveSeed, seededRandom, type RandomFn } from '../../src/core/random';
import { DEFAULT_BUILD_PARAMS, type RaptorTree, type TreeNode } from '../../src/core/types';

/** Options of `syntheticTree`. */
export interface SyntheticTreeOptions {
  /** Nodes wanted in all; the tree has about this many (±1%). */
  nodes: number;
  /** Embedding dimension. Default 16. */
  dim?: number;
  /** Words per leaf. Default 60. */
  wordsPerLeaf?: number;
  seed?: number;
}

const TOPICS = [
  ['river', 'mill', 'wheel', 'miller', 'flour', 'stream', 'bridge', 'water', 'Hartley'],
  ['castle', 'king', 'ball', 'prince', 'guests', 'music', 'hall', 'crown', 'Aldric'],
  ['forest', 'wolf', 'path', 'hunter', 'oak', 'cottage', 'lantern', 'owl', 'Brenna'],
  ['garden', 'tree', 'birds', 'grave', 'hazel', 'branch', 'doves', 'blossom', 'Mirren'],
  ['kitchen', 'ashes', 'hearth', 'lentils', 'bread', 'broom', 'fire', 'cinders', 'Ella'],
  ['market', 'merchant', 'silk', 'coins', 'cart', 'horses', 'fair', 'bargain', 'Tobias'],
  ['slipper', 'gold', 'shoe', 'search', 'heel', 'ring', 'bride', 'wedding', 'Rosalind'],
  ['storm', 'ship', 'sailors', 'harbour', 'waves', 'mast', 'shore', 'anchor', 'Corwin'],
  ['temple', 'priest', 'altar', 'offering', 'incense', 'prayer', 'sanctuary', 'Ezra'],
  ['army', 'sword', 'battle', 'captain', 'siege', 'walls', 'banner', 'Joram'],
];
const GLUE = ['the', 'and', 'of', 'by', 'with', 'near', 'after', 'under', 'was', 'had', 'saw', 'found'];
/** Leaves in a row that keep one topic before it may drift. */
const TOPIC_RUN = 12;
const MIN_CLUSTER = 4;
const MAX_CLUSTER = 9;
/** Chance that a node also joins the next cluster. */
const SOFT_SHARE = 0.1;
/** A layer this small is the top (the paper's stop rule: at most reductionDim + 1 nodes). */
const TOP_MAX = 11;
/** Leaves per node of the whole tree (1 / (1 + 1/6.5 + …) for ~6.5 children per parent). */
const LEAF_SHARE = 0.86;

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= s;
  return v;
}

function sentence(random: RandomFn, topic: readonly string[], words: number): string {
  const out: string[] = [];
  for (let w = 0; w < words; w++) {
    out.push(
      w % 3 === 2 ? topic[Math.floor(random() * topic.length)] : GLUE[Math.floor(random() * GLUE.length)],
    );
  }
  const text = out.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** A generated tree of about `options.nodes` nodes; see the module comment. */
export function syntheticTree(options: SyntheticTreeOptions): RaptorTree {
  const { nodes: wanted, dim = 16, wordsPerLeaf = 60, seed = 1 } = options;
  const random = seededRandom(deriveSeed(seed, wanted));
  const centres = TOPICS.map(() => unit(Float32Array.from({ length: dim }, () => random() * 2 - 1)));
  const leafCount = Math.max(2, Math.round(wanted * LEAF_SHARE));
  const nodes: TreeNode[] = [];
  const texts: string[] = [];
  let topic = 0;
  let start = 0;
  for (let i = 0; i < leafCount; i++) {
    if (i % TOPIC_RUN === 0 && random() < 0.5) topic = Math.floor(random() * TOPICS.length);
    const text = sentence(random, TOPICS[topic], wordsPerLeaf);
    const embedding = unit(Float32Array.from(centres[topic], (c) => c + 0.3 * (random() * 2 - 1)));
    nodes.push({
      id: i,
      layer: 0,
      text,
      tokens: wordsPerLeaf + 1,
      children: [],
      embedding,
      source: { doc: 'doc-0', start, end: start + text.length },
    });
    texts.push(text);
    start += text.length + 1;
  }
  let layer = 0;
  let current = nodes.map((n) => n.id);
  while (current.length > TOP_MAX) {
    layer++;
    const next: number[] = [];
    for (let from = 0; from < current.length;) {
      const size = MIN_CLUSTER + Math.floor(random() * (MAX_CLUSTER - MIN_CLUSTER + 1));
      const members = current.slice(from, from + size);
      from += size;
      if (from < current.length && random() < SOFT_SHARE) members.push(current[from]);
      const embedding = new Float32Array(dim);
      for (const m of members) for (let d = 0; d < dim; d++) embedding[d] += nodes[m].embedding[d];
      const text =
        members
          .map((m) => nodes[m].text.split('.')[0])
          .slice(0, 3)
          .join('. ') + '.';
      const id = nodes.length;
      nodes.push({ id, layer, text, tokens: 100, children: members, embedding: unit(embedding) });
      next.push(id);
    }
    current = next;
  }
  return {
    format: 'raptor-tree',
    version: 1,
    title: `Generated ${nodes.length}-node tree`,
    createdAt: '2026-01-01T00:00:00.000Z',
    embedding: { model: 'synthetic', dim },
    summarizer: { kind: 'extractive' },
    params: { ...DEFAULT_BUILD_PARAMS },
    documents: [{ id: 'doc-0', name: 'generated.txt', chars: start }],
    nodes,
  };
}
