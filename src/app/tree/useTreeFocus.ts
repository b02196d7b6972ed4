/**
 * Where the tree view is: the outline's open branches and active node (the roving focus), and the icicle
 * brought to a node. `show` makes a node the active one (zooming only when it is not drawn on its own in the
 * view); `open` does so for a click or Enter and tells the page; the node open in the inspector (`focusNodeId`)
 * is shown when it changes. Node ids belong to the tree they were made for: another tree starts closed
 * (useTreeBound.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTreeBound } from '../state/useTreeBound';
import type { Hierarchy } from './hierarchy';
import { isDrawnAlone, revealView } from './icicle';
import type { IcicleHandle } from './IcicleCanvas';
import { expandTo, visibleRows, type OutlineAction } from './outline';

/** Tree-bound initial value (stable, so the setter keeps its identity while the tree does). */
const NO_NODES: ReadonlySet<number> = new Set();

/** What `useTreeFocus` moves and whom it tells. */
export interface TreeFocusOptions {
  h: Hierarchy;
  /** Nodes in the tree (ids run from 0). */
  nodeCount: number;
  /** The icicle's controls (zoomed to the node shown). */
  icicle: RefObject<IcicleHandle | null>;
  /** When this changes to a node's id (e.g. the node open in the inspector), the view shows and marks it. */
  focusNodeId?: number;
  /** Called with a node's id when the user clicks it or presses Enter on it. */
  onOpenNode(id: number): void;
}

/** The outline's state and the ways to move it; see the module comment. */
export function useTreeFocus({ h, nodeCount, icicle, focusNodeId, onOpenNode }: TreeFocusOptions) {
  const [expanded, setExpanded] = useTreeBound<ReadonlySet<number>>(h, NO_NODES);
  const [active, setActive] = useTreeBound<number | null>(h, null);
  const [inOutline, setInOutline] = useState(false);
  const rows = useMemo(() => visibleRows(h, expanded), [h, expanded]);

  /** Makes a node the active one: opens the outline to it and brings it into the icicle's view. */
  const show = useCallback(
    (id: number, options: { zoom?: boolean } = {}) => {
      setActive(id);
      setExpanded((e) => expandTo(h, e, id));
      const handle = icicle.current;
      if (handle === null) return;
      if (options.zoom) {
        handle.zoomTo(revealView(h, id));
        return;
      }
      // Zoom only when the node is not drawn on its own in the current view.
      const view = handle.view();
      const inView = h.start[id] >= view.x0 && h.start[id] + h.span[id] <= view.x1;
      if (!inView || !isDrawnAlone(handle.plan(view), h, id)) handle.zoomTo(revealView(h, id));
    },
    [h, icicle, setActive, setExpanded],
  );
  useShowFocusNode(focusNodeId, nodeCount, show);

  const open = (id: number) => {
    setActive(id);
    setExpanded((e) => {
      const shown = expandTo(h, e, id);
      return h.kids[id].length > 0 && !shown.has(id) ? new Set([...shown, id]) : shown;
    });
    if (h.layer[id] > 0) icicle.current?.zoomTo(revealView(h, id));
    onOpenNode(id);
  };

  const onAction = (action: OutlineAction) => {
    switch (action.kind) {
      case 'focus':
        setActive(action.id);
        show(action.id);
        break;
      case 'expand':
        setExpanded((e) => new Set([...e, action.id]));
        break;
      case 'collapse':
        setExpanded((e) => new Set([...e].filter((id) => id !== action.id)));
        break;
      case 'expand-siblings':
        setExpanded((e) => new Set([...e, ...action.ids]));
        break;
      case 'open':
        open(action.id);
        break;
    }
  };

  // Stable identities for the outline's memoised items (they call the latest handlers).
  const latestAction = useRef(onAction);
  latestAction.current = onAction;
  const stableAction = useCallback((action: OutlineAction) => latestAction.current(action), []);
  const toggle = useCallback(
    (id: number) =>
      setExpanded((e) => (e.has(id) ? new Set([...e].filter((x) => x !== id)) : new Set([...e, id]))),
    [setExpanded],
  );
  /** The outline took focus: it follows the active node, the first row when none is active yet. */
  const enterOutline = () => {
    setInOutline(true);
    if (active === null && rows.length > 0) setActive(rows[0].id);
  };

  return {
    expanded,
    setExpanded,
    active,
    rows,
    inOutline,
    show,
    open,
    onAction: stableAction,
    toggle,
    enterOutline,
    leaveOutline: () => setInOutline(false),
  };
}

/** The node open in the inspector: shown and marked when it changes (an id out of the tree is ignored). */
function useShowFocusNode(focusNodeId: number | undefined, nodeCount: number, show: (id: number) => void) {
  const [adopted, setAdopted] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (focusNodeId === adopted) return;
    setAdopted(focusNodeId);
    if (focusNodeId !== undefined && focusNodeId >= 0 && focusNodeId < nodeCount) show(focusNodeId);
  }, [focusNodeId, adopted, nodeCount, show]);
}
