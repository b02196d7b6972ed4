/**
 * Reading order: the passages of a context as the documents have them, so the model reads a scene before its
 * consequence and two passages that follow each other in the book follow each other in the context (DOS RAG,
 * arXiv 2506.03989: passages in document order beat RAPTOR's ranked order at 5k tokens and more). A leaf's
 * place is its `source` (document, start offset); a summary's is the first of the leaves under it, so it is
 * read where what it summarises begins. Nodes whose place is unknown (leaves without a source, as in trees the
 * official code made) keep their order after the placed ones.
 */
import type { RaptorTree, TreeNode } from '../types';
import { leavesUnder } from './distinct';

/** Where a node begins: the index of its document in the tree and the offset in it. */
export interface NodePlace {
  doc: number;
  start: number;
}

/** The place of node `id`: its own source, or the earliest source among the leaves under it; undefined if none. */
export function nodePlace(
  nodes: readonly TreeNode[],
  documentIndex: ReadonlyMap<string, number>,
  id: number,
): NodePlace | undefined {
  let best: NodePlace | undefined;
  const leaves = nodes[id].layer === 0 ? [id] : leavesUnder(nodes, id);
  for (const leaf of leaves) {
    const source = nodes[leaf].source;
    const doc = source ? documentIndex.get(source.doc) : undefined;
    if (!source || doc === undefined) continue;
    if (!best || doc < best.doc || (doc === best.doc && source.start < best.start)) {
      best = { doc, start: source.start };
    }
  }
  return best;
}

/**
 * `items` sorted into reading order by their node's place (see the module comment); stable, so items of one
 * place and items without one keep their given order.
 */
export function inReadingOrder<T extends { id: number }>(
  tree: Pick<RaptorTree, 'nodes' | 'documents'>,
  items: readonly T[],
): T[] {
  const documentIndex = new Map(tree.documents.map((d, i) => [d.id, i]));
  const places = items.map((item) => nodePlace(tree.nodes, documentIndex, item.id));
  return items
    .map((item, i) => ({ item, place: places[i], i }))
    .sort((a, b) => {
      if (!a.place || !b.place) return Number(!a.place) - Number(!b.place) || a.i - b.i;
      return a.place.doc - b.place.doc || a.place.start - b.place.start || a.i - b.i;
    })
    .map(({ item }) => item);
}
