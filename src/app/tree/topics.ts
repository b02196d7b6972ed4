/**
 * Topic labels as the page quotes them outside the tree: the root layer's terms in one line (the "Root
 * layer" line and Statistics) and the terms most labels of a layer share (Statistics). Pure, tested in Node.
 */
import type { TreeNode } from '../../core/types';

/**
 * The distinct terms of the top layer's labels, taken in turns (every node's first term, then every node's
 * second…), so a root of several nodes shows what each is about before any says more.
 */
export function rootTerms(nodes: readonly Pick<TreeNode, 'layer' | 'label'>[]): string[] {
  let top = -1;
  for (const node of nodes) top = Math.max(top, node.layer);
  if (top <= 0) return [];
  const labels = nodes.filter((n) => n.layer === top).map((n) => n.label ?? []);
  const out: string[] = [];
  const seen = new Set<string>();
  const longest = Math.max(0, ...labels.map((l) => l.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const label of labels) {
      const term = label[rank];
      if (term !== undefined && !seen.has(term)) {
        seen.add(term);
        out.push(term);
      }
    }
  }
  return out;
}

/** Terms shown per layer in Statistics. */
export const LAYER_TOPIC_TERMS = 5;

/**
 * Per layer (index = layer; leaves get none), the terms that label the most of its summaries (ties: the one
 * met first, layer order). Empty lists where no summary has a label.
 */
export function layerTopics(
  nodes: readonly Pick<TreeNode, 'layer' | 'label'>[],
  limit = LAYER_TOPIC_TERMS,
): string[][] {
  const counts: Map<string, number>[] = [];
  for (const node of nodes) {
    while (counts.length <= node.layer) counts.push(new Map());
    if (node.layer === 0) continue;
    for (const term of new Set(node.label ?? []))
      counts[node.layer].set(term, (counts[node.layer].get(term) ?? 0) + 1);
  }
  return counts.map((layer) =>
    [...layer.entries()]
      .map(([term, n], order) => ({ term, n, order }))
      .sort((a, b) => b.n - a.n || a.order - b.order)
      .slice(0, limit)
      .map((e) => e.term),
  );
}
