/**
 * The collapsed-tree retrieval as it was before issue #10 (one Float32Array per node, scores for every node,
 * a heap over all of them): the reference `npm run bench query` times the current `retrieve` against.
 * Bench-only; the app never imports it.
 */
import { countTokens } from '../../src/core/text';
import type { RaptorTree, TreeNode } from '../../src/core/types';
import { norm } from '../../src/core/vector';

const indexCache = new WeakMap<readonly TreeNode[], Float64Array>();

function queryDot(query: Float64Array, embedding: Float32Array): number {
  const length = query.length;
  const whole = length - (length % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k < whole; k += 4) {
    s0 += query[k] * embedding[k];
    s1 += query[k + 1] * embedding[k + 1];
    s2 += query[k + 2] * embedding[k + 2];
    s3 += query[k + 3] * embedding[k + 3];
  }
  for (; k < length; k++) s0 += query[k] * embedding[k];
  return s0 + s1 + (s2 + s3);
}
function rankedPopper(candidates: ArrayLike<number>, scores: Float64Array): () => number {
  const heap = Int32Array.from(candidates);
  let size = heap.length;
  const better = (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && a < b);
  const siftDown = (start: number) => {
    let i = start;
    const item = heap[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && better(heap[child + 1], heap[child])) child++;
      if (!better(heap[child], item)) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = item;
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
  return () => {
    if (size === 0) return -1;
    const top = heap[0];
    heap[0] = heap[--size];
    siftDown(0);
    return top;
  };
}

/** Ids the previous `retrieve(tree, query, { mode: 'collapsed', maxTokens })` selected, best first. */
export function collapsedBefore(
  tree: RaptorTree,
  queryEmbedding: ArrayLike<number>,
  maxTokens: number,
): number[] {
  const nodes = tree.nodes;
  let norms = indexCache.get(nodes);
  if (!norms) {
    norms = new Float64Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) norms[i] = norm(nodes[i].embedding);
    indexCache.set(nodes, norms);
  }
  const query = Float64Array.from(queryEmbedding);
  const queryNorm = norm(query);
  const scores = new Float64Array(nodes.length);
  const all = new Int32Array(nodes.length);
  for (let id = 0; id < nodes.length; id++) {
    all[id] = id;
    const denominator = queryNorm * norms[id];
    scores[id] = denominator === 0 ? 0 : queryDot(query, nodes[id].embedding) / denominator;
  }
  const next = rankedPopper(all, scores);
  const selected: number[] = [];
  let total = 0;
  for (;;) {
    const id = next();
    if (id < 0) break;
    const tokens = countTokens(nodes[id].text);
    if (total + tokens > maxTokens) break;
    selected.push(id);
    total += tokens;
  }
  return selected;
}
