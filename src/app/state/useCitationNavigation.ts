/**
 * The open tree's navigation between views: the node open in the inspector, the leaf the Document tab scrolls to,
 * and the citation shown there with where "Back to the answer" returns. All of it belongs to the open tree
 * (useTreeBound.ts): another tree reads it as unset.
 */
import { useCallback, useRef } from 'react';
import type { RaptorTree } from '../../core/types';
import type { ActiveCitation } from '../document/panel-document';
import { citationTarget } from '../document/citation-target';
import { returnPointOf, returnTo, type ReturnPoint } from '../document/return-point';
import { useTreeBound } from './useTreeBound';
import type { View } from './useViewTabs';

/** The inspected node, the scroll target and the citation of the open tree, and the handlers that set them. */
export function useCitationNavigation(
  tree: RaptorTree | undefined,
  documentText: (docId: string) => string | undefined,
  view: View,
  setView: (view: View) => void,
) {
  const [inspected, setInspected] = useTreeBound<number | undefined>(tree, undefined);
  const [scrollLeaf, setScrollLeaf] = useTreeBound<number | undefined>(tree, undefined);
  /** The citation shown in the Document tab, with where "Back to the answer" returns. */
  const [citation, setCitation] = useTreeBound<
    (ActiveCitation & { back: ReturnPoint; view: View }) | undefined
  >(tree, undefined);
  const citationKey = useRef(0);
  // Stable while the tree is, so the memoised lists that take it (the conversation's turns) are not rendered
  // again for it.
  const openNode = useCallback((id: number) => setInspected(id), [setInspected]);
  /** Citation [n]: its exact passage in the Document tab (on its PDF page when kept), and its node opened. */
  const openCitation = useCallback(
    (n: number, nodeId: number, from: HTMLElement, read?: string) => {
      if (!tree?.nodes[nodeId]) return;
      const target = citationTarget(tree, n, nodeId, (doc) => documentText(doc), read);
      citationKey.current += 1;
      setCitation({ target, key: citationKey.current, back: returnPointOf(from), view });
      setInspected(nodeId);
      setView('document');
    },
    [tree, view, documentText, setCitation, setInspected, setView],
  );
  const backToAnswer = () => {
    if (!citation) return;
    setView(citation.view);
    setCitation(undefined);
    // After the tab switch has rendered, so the restored scroll positions hold.
    requestAnimationFrame(() => returnTo(citation.back));
  };
  /** The inspector's "show in document": the Document tab, scrolled to the leaf. */
  const showInDocument = (leafId: number) => {
    setView('document');
    setScrollLeaf(leafId);
  };
  return {
    inspected,
    setInspected,
    scrollLeaf,
    citation,
    openNode,
    openCitation,
    backToAnswer,
    showInDocument,
  };
}
