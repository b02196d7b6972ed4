/**
 * Reference variants an evaluation can run beside the modes: retrievals that say what the tree and the
 * question-focused passages add, measured on the same questions in the same run.
 *
 * - `plainBm25Variant`: BM25 over the leaves and nothing else (no tree, no model, no leaf indexed under its
 *   neighbours' words, whole leaves best first until the budget is spent): the "20-line BM25" any RAG tool has.
 * - `wholeVariant(mode)`: a mode with whole nodes best first (`passages: 'whole'`), as Aerie retrieved before
 *   passages by sentence (issue 42); `leaves` so is the paper's leaves-only baseline with keyword search.
 */
import { retrieve } from '../search';
import type { RaptorTree } from '../types';
import type { EvalVariant, RetrievalMode } from './variants';

/** The rerank-hook name of plain BM25 (its report key is `leaves+plain-bm25`). */
export const PLAIN_BM25 = 'plain-bm25';
/** The rerank-hook name of whole nodes (report keys `collapsed+whole`, `leaves+whole`, …). */
export const WHOLE = 'whole';

/** Per tree, its leaves alone without their sources: the keyword index then holds each leaf's own words only. */
const plainTrees = new WeakMap<RaptorTree, RaptorTree>();

/**
 * The leaves of `tree` as a tree of their own, without sources. Leaves come first in a tree (ids 0 … n−1), so
 * every id means the same leaf in both and reports name the tree's own nodes.
 */
function plainTree(tree: RaptorTree): RaptorTree {
  let plain = plainTrees.get(tree);
  if (!plain) {
    const leaves = tree.nodes.filter((n) => n.layer === 0).map(({ source: _source, ...leaf }) => leaf);
    if (leaves.some((leaf, i) => leaf.id !== i))
      throw new Error('The leaves of the tree are not nodes 0 … n−1.');
    plain = { ...tree, nodes: leaves };
    plainTrees.set(tree, plain);
  }
  return plain;
}

/** Plain BM25 over the leaves (see the module comment), as an evaluation variant. */
export function plainBm25Variant(): EvalVariant {
  return {
    mode: 'leaves',
    search: 'keywords',
    rerank: {
      name: PLAIN_BM25,
      retrieve: (tree, vector, options) =>
        retrieve(plainTree(tree), vector, {
          ...options,
          mode: 'leaves',
          search: 'keywords',
          passages: 'whole',
        }),
    },
  };
}

/** `mode` by the default search with whole nodes best first (see the module comment), as an evaluation variant. */
export function wholeVariant(mode: RetrievalMode): EvalVariant {
  return {
    mode,
    rerank: {
      name: WHOLE,
      retrieve: (tree, vector, options) => retrieve(tree, vector, { ...options, passages: 'whole' }),
    },
  };
}
