/**
 * The fast retrieval path (one packed buffer of embeddings, a partial selection of the best few, token counts
 * remembered per tree) against a brute-force reference written in the plainest way: score every candidate,
 * sort them all, fill the budget. Embeddings have small integer components, so every dot product and norm is
 * exact in float64 whatever the order of the additions: many distinct nodes tie exactly, and the two must
 * agree on those ties too (higher score, then lower id).
 */
import { describe, expect, it } from 'vitest';
import { seededRandom, type RandomFn } from '../../../src/core/random';
import { prepareRetrieval, retrieve, type RetrieveOptions } from '../../../src/core/search/retrieve';
import { countTokens } from '../../../src/core/text';
import type { RaptorTree, TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

const DIM = 6;

function integerVector(random: RandomFn): Float32Array {
  // Components in −2…2: few distinct directions, so exact ties are common; now and then all zeros.
  return Float32Array.from({ length: DIM }, () => Math.floor(random() * 5) - 2);
}

function randomTree(random: RandomFn, size: number, layout: 'own' | 'flat' | 'shuffled' = 'own'): RaptorTree {
  const layers = [Math.ceil(size * 0.7), Math.ceil(size * 0.2)];
  const nodes: TreeNode[] = [];
  for (let id = 0; id < size; id++) {
    const layer = id < layers[0] ? 0 : id < layers[0] + layers[1] ? 1 : 2;
    const below = nodes.filter((n) => n.layer === layer - 1);
    const children =
      layer === 0
        ? []
        : [...new Set(Array.from({ length: 3 }, () => below[Math.floor(random() * below.length)].id))];
    const text = ' w'.repeat(1 + Math.floor(random() * 6));
    nodes.push({ id, layer, text, tokens: countTokens(text), children, embedding: integerVector(random) });
  }
  if (layout !== 'own') {
    // As parseTree and storage lay them out: views of one buffer, in node order ('flat'), or not quite
    // ('shuffled': the rows of one buffer, but not in node order, so they must be copied).
    const flat = new Float32Array(size * DIM);
    const row = (id: number) => (layout === 'flat' ? id : (id * 7 + 3) % size);
    nodes.forEach((n, id) => {
      flat.set(n.embedding, row(id) * DIM);
      n.embedding = flat.subarray(row(id) * DIM, (row(id) + 1) * DIM);
    });
  }
  return treeOf(nodes, { title: 'random' });
}

/** Cosine with plain loops (0 for a zero vector), as the retrieval defines it. */
function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < a.length; k++) {
    dot += a[k] * b[k];
    na += a[k] * a[k];
    nb += b[k] * b[k];
  }
  const denominator = Math.sqrt(na) * Math.sqrt(nb);
  return denominator === 0 ? 0 : dot / denominator;
}

/** All of `ids` sorted best first: higher cosine, then lower id. */
function ranking(tree: RaptorTree, query: Float32Array, ids: number[]): number[] {
  const score = (id: number) => cosine(query, tree.nodes[id].embedding);
  return ids.slice().sort((a, b) => score(b) - score(a) || a - b);
}

/** The brute-force reference of every mode. */
function bruteForce(tree: RaptorTree, query: Float32Array, options: RetrieveOptions): number[] {
  const { nodes } = tree;
  if (options.mode === 'traversal') {
    const top = Math.max(...nodes.map((n) => n.layer));
    const { topK = 5, startLayer = top, numLayers = startLayer + 1 } = options;
    const chosen: number[] = [];
    let candidates = nodes.filter((n) => n.layer === startLayer).map((n) => n.id);
    for (let step = 0; step < numLayers && candidates.length; step++) {
      const best = ranking(tree, query, candidates).slice(0, topK);
      chosen.push(...best);
      candidates = [...new Set(best.flatMap((id) => nodes[id].children))];
    }
    return chosen;
  }
  const pool = nodes.filter((n) => options.mode === 'collapsed' || n.layer === 0).map((n) => n.id);
  const ranked = ranking(tree, query, pool).slice(0, options.topK ?? pool.length);
  const chosen: number[] = [];
  let total = 0;
  for (const id of ranked) {
    const tokens = countTokens(nodes[id].text);
    if (total + tokens > (options.maxTokens ?? 2000)) break;
    chosen.push(id);
    total += tokens;
  }
  return chosen;
}

describe('fast retrieval equals a brute-force ranking', () => {
  const random = seededRandom(20241124);
  // Sizes around the first partial selection (64) and its growth (256, 1,024), budgets that stop early,
  // reach past those sizes, or take everything.
  const sizes = [1, 5, 63, 64, 65, 300, 1500];

  for (const size of sizes) {
    it(`agrees on ${size}-node trees in every mode, ties included, whatever the embeddings' layout`, () => {
      for (let t = 0; t < 6; t++) {
        const tree = randomTree(random, size, (['own', 'flat', 'shuffled'] as const)[t % 3]);
        if (t >= 3) prepareRetrieval(tree);
        for (let q = 0; q < 6; q++) {
          const query = integerVector(random);
          const options: RetrieveOptions[] = [
            { mode: 'collapsed', maxTokens: 1 + Math.floor(random() * 40) },
            { mode: 'collapsed', maxTokens: 1 + Math.floor(random() * size * 5) },
            { mode: 'collapsed', maxTokens: size * 10, topK: 1 + Math.floor(random() * size) },
            { mode: 'leaves', maxTokens: 1 + Math.floor(random() * size * 3) },
            { mode: 'traversal', topK: 1 + Math.floor(random() * 8) },
          ];
          for (const option of options) {
            const fast = retrieve(tree, query, option).nodes.map((n) => n.id);
            expect(fast, `${size} nodes, ${JSON.stringify(option)}`).toEqual(bruteForce(tree, query, option));
          }
        }
      }
    });
  }

  it('ranks beyond the first partial selection in the same order as a full sort', () => {
    const tree = randomTree(seededRandom(7), 2000);
    const query = integerVector(seededRandom(8));
    const everything = retrieve(tree, query, { mode: 'collapsed', maxTokens: 1e9 }).nodes.map((n) => n.id);
    expect(everything).toHaveLength(2000);
    expect(everything).toEqual(
      ranking(
        tree,
        query,
        tree.nodes.map((n) => n.id),
      ),
    );
  });

  it('gives the same ids and scores on a repeated query (the cached index and token counts change nothing)', () => {
    const tree = randomTree(seededRandom(9), 400);
    const query = integerVector(seededRandom(10));
    const first = retrieve(tree, query, { mode: 'collapsed', maxTokens: 300 });
    expect(retrieve(tree, query, { mode: 'collapsed', maxTokens: 300 })).toEqual(first);
  });
});

describe('packed embeddings', () => {
  it('reads the embeddings of a small tree in place: a later write to their buffer moves the ranking', () => {
    const tree = randomTree(seededRandom(11), 50, 'flat');
    const query = Float32Array.from({ length: DIM }, (_, k) => (k === 0 ? 1 : 0));
    const before = retrieve(tree, query, { mode: 'collapsed', topK: 1 }).nodes[0].id;
    const target = before === 17 ? 18 : 17;
    tree.nodes[target].embedding.set([100, 0, 0, 0, 0, 0]);
    // Trees are immutable by contract; this only shows that no copy was taken (the norm is cached, so the
    // score exceeds 1, but the node does rank first). Large trees are scored by the WebAssembly kernel from
    // memory their loader placed them in (dot-kernel.test.ts).
    expect(retrieve(tree, query, { mode: 'collapsed', topK: 1 }).nodes[0].id).toBe(target);
  });
});
