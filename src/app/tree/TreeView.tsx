/**
 * The tree view: a zoomable icicle (one row per layer, each node over its primary subtree's leaves, its topic
 * label written on it) above an outline of the same hierarchy. Retrieval marks show at every zoom: a node a
 * mode picked is tinted with a strip of the mode's colour, a node with picks below it has the mode's strip and
 * count at its foot, and runs of nodes too narrow to draw carry their members' marks. "Next selected" and Find
 * (labels and text; Enter for the next match) bring a node into view. A click zooms into a summary (and opens
 * it), the breadcrumb zooms back out; the outline is the keyboard's way through it all.
 *
 * Contracts: see IcicleCanvas (the canvas) and TreeOutline (the ARIA tree) for what tests rely on.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { MODE_LABELS, type ModeSelections } from '../modes';
import { count, truncateText } from './describe';
import { hierarchyOf, type TreeViewNode } from './hierarchy';
import {
  fitView,
  revealView,
  isDrawnAlone,
  viewPath,
  ZOOM_STEP,
  type Frame,
  type Item,
  type View,
} from './icicle';
import { IcicleCanvas, type IcicleHandle } from './IcicleCanvas';
import type { CanvasMarks, FrameInfo } from './useFramePainter';
import { cycle, findNodes, searchText, selectedOrder, subtreeCounts, sumUp } from './marks';
import { expandTo, summaryName, visibleRows, type OutlineAction } from './outline';
import { indexSelections } from './selection';
import { TreeOutline } from './TreeOutline';
import { useTreeBound } from '../state/useTreeBound';
import { placeTooltip } from './TreeTooltip';
import { HoverBox, TreeLegend } from './TreeParts';
import './tree.css';

/** Props of `TreeView`. */
export interface TreeViewProps {
  /** The tree; `nodes[i].id === i` (tree format v1). */
  tree: { readonly nodes: readonly TreeViewNode[] };
  /** What each mode selected for the current question, each list best first; `{}` before any question. */
  selections: ModeSelections;
  /** Called with a node's id when the user clicks it or presses Enter on it. */
  onOpenNode(id: number): void;
  /** When this changes to a node's id (e.g. the node open in the inspector), the view shows and marks it. */
  focusNodeId?: number;
  /** Height of the icicle in CSS pixels. Default 440. */
  height?: number;
  /** Each drawn frame's cost (the view bench). */
  onFrame?(info: FrameInfo): void;
}

/** Tree-bound initial values (stable, so their setters keep their identity while the tree does). */
const NO_NODES: ReadonlySet<number> = new Set();
const NO_PATH: readonly number[] = [];
const NO_MATCH = { query: '', at: -1 };

/** Default height of the icicle, in CSS pixels. */
export const DEFAULT_TREE_HEIGHT = 440;
/** "Expand all" is offered up to this many nodes (each open item is an element in the page). */
export const EXPAND_ALL_LIMIT = 5000;
/** The pointer rests this long on a node before its tooltip shows. */
const HOVER_DELAY_MS = 400;
/** Find waits this long after the last keystroke. */
const FIND_DEBOUNCE_MS = 150;

/** The tree view; see the module comment. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function TreeView({
  tree,
  selections,
  onOpenNode,
  focusNodeId,
  height = DEFAULT_TREE_HEIGHT,
  onFrame,
}: TreeViewProps) {
  const nodes = tree.nodes;
  const h = useMemo(() => hierarchyOf(nodes), [nodes]);
  const selection = useMemo(() => indexSelections(selections, nodes.length), [selections, nodes.length]);
  const counts = useMemo(() => subtreeCounts(h, selection), [h, selection]);
  const picks = useMemo(() => selectedOrder(selection), [selection]);
  // Folded texts for Find, made on the first search only (a 1M-token tree's are megabytes).
  const haystackCache = useRef<{ nodes: readonly TreeViewNode[]; texts: string[] } | null>(null);
  const haystacks = useCallback(() => {
    if (haystackCache.current?.nodes !== nodes)
      haystackCache.current = { nodes, texts: nodes.map(searchText) };
    return haystackCache.current.texts;
  }, [nodes]);
  const helpId = useId();
  const icicle = useRef<IcicleHandle>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);

  // Node ids belong to the tree they were made for: another tree starts closed, at Fit (useTreeBound.ts).
  const [expanded, setExpanded] = useTreeBound<ReadonlySet<number>>(h, NO_NODES);
  const [active, setActive] = useTreeBound<number | null>(h, null);
  const [inOutline, setInOutline] = useState(false);
  const [path, setPath] = useTreeBound<readonly number[]>(h, NO_PATH);
  const [query, setQuery] = useState('');
  const [findQuery, setFindQuery] = useState('');
  const [matchState, setMatchState] = useTreeBound(h, NO_MATCH);
  const [pickState, setPickState] = useState<{ picks: readonly number[]; at: number }>({ picks: [], at: -1 });
  const [status, setStatus] = useState('');
  const [hover, setHover] = useTreeBound<{ item: Item; x: number; frame: Frame } | null>(h, null);

  const pickAt = pickState.picks === picks ? pickState.at : -1;

  useEffect(() => {
    const timer = setTimeout(() => setFindQuery(query), FIND_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  const matches = useMemo(
    () => (findQuery.trim() === '' ? [] : findNodes(h, haystacks(), findQuery)),
    [h, haystacks, findQuery],
  );
  const matchSet = useMemo(() => new Set(matches), [matches]);
  const findCounts = useMemo(() => (matches.length > 0 ? sumUp(h, matches) : undefined), [h, matches]);
  const matchAt = matchState.query === findQuery ? matchState.at : -1;

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
    [h, setActive, setExpanded],
  );

  // The node open in the inspector: shown and marked.
  const [adopted, setAdopted] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (focusNodeId === adopted) return;
    setAdopted(focusNodeId);
    if (focusNodeId !== undefined && focusNodeId >= 0 && focusNodeId < nodes.length) show(focusNodeId);
  }, [focusNodeId, adopted, nodes.length, show]);

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

  const zoomKey = (key: string): boolean => {
    if (key === '+' || key === '=') icicle.current?.zoomBy(ZOOM_STEP);
    else if (key === '-' || key === '_') icicle.current?.zoomBy(1 / ZOOM_STEP);
    else if (key === '0') icicle.current?.fit();
    else return false;
    return true;
  };

  /** Enter in Find: the next match (Shift: the previous), searching at once if the debounce has not run. */
  const onFindKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const fresh = findQuery !== query;
    const list = fresh ? findNodes(h, haystacks(), query) : matches;
    if (fresh) setFindQuery(query);
    if (list.length === 0) return;
    const next = cycle(fresh ? -1 : matchAt, list.length, e.shiftKey);
    setMatchState({ query, at: next });
    show(list[next]);
    setStatus(`Match ${next + 1} of ${list.length}: ${describeShort(nodes[list[next]])}`);
  };

  const nextSelected = () => {
    if (picks.length === 0) return;
    const next = cycle(pickAt, picks.length);
    setPickState({ picks, at: next });
    show(picks[next]);
    const marks = selection.byNode.get(picks[next]) ?? [];
    setStatus(
      `Selected ${next + 1} of ${picks.length}: ${describeShort(nodes[picks[next]])} — ` +
        marks.map((m) => `${MODE_LABELS[m.mode]} rank ${m.rank}`).join(', '),
    );
  };

  const marks: CanvasMarks = useMemo(
    () => ({
      linesOf: (id: number) => {
        const node = nodes[id];
        if (node.layer === 0) return [node.text];
        const label = node.label ?? [];
        return node.title !== undefined ? [node.title, ...label] : label;
      },
      selection,
      counts,
      findCounts,
      isMatch: (id: number) => matchSet.has(id),
      hasExtraParents: (id: number) => h.parents.offsets[id + 1] - h.parents.offsets[id] > 1,
      active,
    }),
    [nodes, selection, counts, findCounts, matchSet, h, active],
  );

  // The tooltip waits for the pointer to rest (HOVER_DELAY_MS) so it does not cover what the user is aiming at;
  // once shown it follows the pointer from node to node.
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onHover = (item: Item | null, x: number, frame: Frame) => {
    clearTimeout(hoverTimer.current);
    if (item === null) setHover(null);
    else if (hover !== null) setHover({ item, x, frame });
    else hoverTimer.current = setTimeout(() => setHover({ item, x, frame }), HOVER_DELAY_MS);
  };
  useEffect(() => () => clearTimeout(hoverTimer.current), []);

  useEffect(() => {
    const el = tooltipRef.current;
    if (el === null || hover === null) return;
    const { item, frame, x } = hover;
    const box = el.parentElement?.getBoundingClientRect();
    const top = frame.rows.top[item.layer];
    placeTooltip(el, x - (box?.left ?? 0), top, top + frame.rows.height[item.layer], frame.size.width);
  }, [hover]);

  const canExpandAll = nodes.length <= EXPAND_ALL_LIMIT;
  const isMatch = useCallback((id: number) => matchSet.has(id), [matchSet]);
  const matchText =
    findQuery.trim().length === 0
      ? ''
      : matches.length === 0
        ? 'No match'
        : matchAt < 0
          ? count(matches.length, 'match', 'matches')
          : `${matchAt + 1} of ${matches.length}`;

  return (
    <div className="tree-view">
      <div className="tree-toolbar">
        <TreeLegend selections={selections} nodeCount={nodes.length} layerCount={h.layerCount} />
        <div className="tree-tools">
          <div className="tree-find" role="search">
            <input
              type="search"
              aria-label="Find in the tree"
              placeholder="Find labels and text"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={onFindKey}
            />
            <span className="tree-find-count" aria-live="polite">
              {matchText}
            </span>
          </div>
          <button type="button" disabled={picks.length === 0} onClick={nextSelected}>
            Next selected{picks.length > 0 && pickAt >= 0 ? ` (${pickAt + 1}/${picks.length})` : ''}
          </button>
          <div className="tree-zoom-buttons">
            <button
              type="button"
              aria-label="Zoom in"
              title="Zoom in (+)"
              onClick={() => icicle.current?.zoomBy(ZOOM_STEP)}
            >
              +
            </button>
            <button
              type="button"
              aria-label="Zoom out"
              title="Zoom out (−)"
              onClick={() => icicle.current?.zoomBy(1 / ZOOM_STEP)}
            >
              −
            </button>
            <button
              type="button"
              aria-label="Fit"
              title="Fit the whole tree (0)"
              onClick={() => icicle.current?.fit()}
            >
              Fit
            </button>
          </div>
        </div>
      </div>
      <nav className="tree-breadcrumb" aria-label="Zoomed into">
        <button
          type="button"
          aria-current={path.length === 0 ? 'location' : undefined}
          onClick={() => icicle.current?.zoomTo(fitView(h))}
        >
          Whole tree
        </button>
        {path.map((id, k) => (
          <span key={id} className="tree-breadcrumb-step">
            <span aria-hidden="true">›</span>
            <button
              type="button"
              aria-current={k === path.length - 1 ? 'location' : undefined}
              onClick={() => icicle.current?.zoomTo(revealView(h, id))}
              title={summaryName(nodes[id])}
            >
              {crumb(nodes[id])}
            </button>
          </span>
        ))}
      </nav>
      <div className="tree-stage">
        <IcicleCanvas
          ref={icicle}
          h={h}
          marks={marks}
          height={height}
          onOpen={open}
          onViewChange={(view: View) => setPath(viewPath(h, view))}
          onHover={onHover}
          onFrame={onFrame}
          describedBy={helpId}
        />
        {hover !== null && (
          <HoverBox ref={tooltipRef} hover={hover} h={h} nodes={nodes} selection={selection} />
        )}
      </div>
      <p id={helpId} className="visually-hidden">
        An icicle of {count(nodes.length, 'node')} in {count(h.layerCount, 'layer')}: the top layer on top,
        the passages at the bottom, each summary above the passages it covers. The outline below holds the
        same tree for the keyboard.
      </p>
      <section className="tree-outline-panel" aria-label="Outline">
        <div className="tree-outline-head">
          <h3>Outline</h3>
          <button
            type="button"
            disabled={!canExpandAll}
            title={
              canExpandAll ? undefined : `Trees of more than ${EXPAND_ALL_LIMIT} nodes open branch by branch`
            }
            onClick={() =>
              setExpanded(new Set(nodes.filter((n) => h.kids[n.id].length > 0).map((n) => n.id)))
            }
          >
            Expand all
          </button>
          <button type="button" onClick={() => setExpanded(new Set())}>
            Collapse all
          </button>
        </div>
        <TreeOutline
          h={h}
          nodes={nodes}
          rows={rows}
          expanded={expanded}
          active={active}
          followFocus={inOutline}
          selection={selection}
          counts={counts}
          isMatch={isMatch}
          onAction={stableAction}
          onToggle={toggle}
          onOtherKey={zoomKey}
          onFocusIn={() => {
            setInOutline(true);
            if (active === null && rows.length > 0) setActive(rows[0].id);
          }}
          onFocusOut={() => setInOutline(false)}
        />
      </section>
      <div role="status" className="visually-hidden">
        {status}
      </div>
    </div>
  );
}

/** A node in a few words, for the status line. */
function describeShort(node: TreeViewNode): string {
  return node.layer === 0
    ? `leaf ${node.id}, ${truncateText(node.text, 60)}`
    : `${summaryName(node)}, layer ${node.layer}`;
}

/** A breadcrumb step: the first two terms of a label. */
function crumb(node: TreeViewNode): string {
  if (node.title !== undefined) return truncateText(node.title, 28);
  const label = node.label ?? [];
  return label.length > 0 ? label.slice(0, 2).join(' · ') : `Node ${node.id}`;
}
