/**
 * What the panels read of the open tree, computed once per tree: its statistics, topics, root summary, leaves
 * with their sources, and where a node's text is (its path through the tree and its place in the documents).
 */
import { useCallback, useMemo } from 'react';
import { treeStats } from '../../core/stats';
import type { RaptorTree } from '../../core/types';
import { passagePath, placeOf } from '../ask/sources';
import { hierarchyOf } from '../tree/hierarchy';
import { layerTopics, rootTerms } from '../tree/topics';
import type { OpenDocument } from './useOpenTree';

/** The overview of `tree` (undefined while none is open), whose documents are `documents`. */
export function useTreeOverview(tree: RaptorTree | undefined, documents: readonly OpenDocument[]) {
  const maxLayer = tree ? Math.max(0, ...tree.nodes.map((n) => n.layer)) : 0;
  const stats = useMemo(() => (tree ? treeStats(tree) : undefined), [tree]);
  const topics = useMemo(() => (tree ? rootTerms(tree.nodes) : []), [tree]);
  const topicsByLayer = useMemo(() => (tree ? layerTopics(tree.nodes) : []), [tree]);
  const rootSummary = useMemo(() => {
    if (!tree || maxLayer === 0) return undefined;
    return tree.nodes
      .filter((n) => n.layer === maxLayer)
      .map((n) => n.text)
      .join(' ');
  }, [tree, maxLayer]);
  const leaves = useMemo(
    () =>
      tree
        ? tree.nodes.filter((n) => n.layer === 0 && n.source).map((n) => ({ id: n.id, source: n.source! }))
        : [],
    [tree],
  );
  const primaryParent = useMemo(() => (tree ? hierarchyOf(tree.nodes).primaryParent : []), [tree]);
  /** Where a node's text is in the documents ("report.pdf, page 7 · …"). */
  const placeOfNode = useCallback(
    (id: number) => (tree ? placeOf(tree, documents, id) : undefined),
    [tree, documents],
  );
  /** A node's path through the tree and its place in the documents, for the sources of an answer. */
  const sourceOf = useCallback(
    (id: number) =>
      tree?.nodes[id]
        ? { path: passagePath(tree.nodes, primaryParent, id), where: placeOf(tree, documents, id) }
        : undefined,
    [tree, primaryParent, documents],
  );
  /** The text of one of the tree's documents (undefined when it is not stored). */
  const documentText = useCallback(
    (docId: string) => documents.find((d) => d.id === docId)?.text || undefined,
    [documents],
  );
  return {
    maxLayer,
    stats,
    topics,
    topicsByLayer,
    rootSummary,
    leaves,
    primaryParent,
    placeOfNode,
    sourceOf,
    documentText,
  };
}
