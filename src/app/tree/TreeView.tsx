/**
 * The RAPTOR tree as layered rows (root layer on top, leaves at the bottom), with the nodes each retrieval
 * mode selected highlighted as in the paper's Figure 4. Zoom and pan with d3-zoom (wheel, drag, pinch, the
 * buttons or + − 0); hover previews a node; click or Enter opens it. One tab stop with a roving focus moved by
 * the arrow keys.
 *
 * Contract relied on by end-to-end tests: the <svg> has aria-label="Tree view"; every node's <g> carries
 * data-node-id, data-layer and data-selected (its modes, space-separated; '' when none).
 */
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type MouseEvent,
} from 'react';
import type { TreeNode } from '../../core/types';
import { MODE_LABELS, modeColorVar, RETRIEVAL_MODES, type ModeSelections } from '../modes';
import { count, describeNode } from './describe';
import { buildParentIndex, moveFocus, nearestInRow, parentsOf, type TreeMove } from './graph';
import { layoutTree } from './layout';
import { indexSelections } from './selection';
import { TreeDrawing } from './TreeDrawing';
import { TreeLabels } from './TreeLabels';
import { placeTooltip, TreeTooltip } from './TreeTooltip';
import { useElementSize } from './useElementSize';
import { ROW_CLASS, useTreeZoom, ZOOM_STEP } from './useTreeZoom';
import { nextLabelWindow, rowOffsets, type LabelWindow, type ViewTransform } from './viewport';
import './tree.css';

/** What the tree view reads of a node. */
export type TreeViewNode = Pick<TreeNode, 'id' | 'layer' | 'text' | 'tokens' | 'children'>;

/** Props of `TreeView`. */
export interface TreeViewProps {
  /** The tree; `nodes[i].id === i` (tree format v1). */
  tree: { readonly nodes: readonly TreeViewNode[] };
  /**
   * What each mode selected for the current question, each list best first; `{}` before any question. Keep
   * the object stable between renders (memoise it): a new one re-indexes and redraws the selection marks.
   */
  selections: ModeSelections;
  /** Called with a node's id when the user clicks it or presses Enter on it. */
  onOpenNode(id: number): void;
  /**
   * When this changes to a node's id, that node gets the roving focus, is panned into view and keeps a ring
   * while the focus stays on it (e.g. the node open in an inspector).
   */
  focusNodeId?: number;
  /** Height of the drawing area in CSS pixels. Default 520. */
  height?: number;
}

/** Default height of the drawing area, in CSS pixels. */
export const DEFAULT_TREE_HEIGHT = 520;

const KEY_MOVES: ReadonlyMap<string, TreeMove> = new Map([
  ['ArrowLeft', 'left'],
  ['ArrowRight', 'right'],
  ['ArrowUp', 'up'],
  ['ArrowDown', 'down'],
  ['Home', 'first'],
  ['End', 'last'],
]);

/** The tree view; see the module comment. */
export function TreeView({
  tree,
  selections,
  onOpenNode,
  focusNodeId,
  height = DEFAULT_TREE_HEIGHT,
}: TreeViewProps) {
  const nodes = tree.nodes;
  const layout = useMemo(() => layoutTree(nodes), [nodes]);
  const parents = useMemo(() => buildParentIndex(nodes), [nodes]);
  const selection = useMemo(() => indexSelections(selections, nodes.length), [selections, nodes.length]);
  const isNode = useCallback(
    (id: number | undefined | null): id is number => id != null && id >= 0 && id < nodes.length,
    [nodes],
  );

  const canvasRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(canvasRef);
  const helpId = useId();

  const [hoverId, setHoverId] = useState<number | null>(null);
  const [rovingId, setRovingId] = useState<number | null>(null);
  const [hasFocus, setHasFocus] = useState(false);
  const [keyboardMode, setKeyboardMode] = useState(false);
  const focusId = isNode(rovingId) ? rovingId : null;

  // Adopt a new focusNodeId during render (React's pattern for state derived from a changing prop).
  const [adoptedFocusProp, setAdoptedFocusProp] = useState<number | undefined>(undefined);
  if (focusNodeId !== adoptedFocusProp) {
    setAdoptedFocusProp(focusNodeId);
    if (isNode(focusNodeId)) setRovingId(focusNodeId);
  }

  const tooltipId = hoverId ?? (keyboardMode && hasFocus ? focusId : null);
  const tooltipNode = isNode(tooltipId) ? tooltipId : null;

  const rowY = useMemo(() => rowOffsets(layout.layerCount, size.height), [layout.layerCount, size.height]);
  const positionTooltip = useCallback(
    (t: ViewTransform) => {
      const el = tooltipRef.current;
      if (el === null || tooltipNode === null) return;
      const y = rowY[nodes[tooltipNode].layer];
      const r = layout.radius[tooltipNode] * t.k;
      placeTooltip(el, t.k * layout.x[tooltipNode] + t.x, y - r, y + r, size.width);
    },
    [layout, nodes, rowY, tooltipNode, size.width],
  );
  // Text only near the view (see TreeLabels); the window changes rarely, so this re-renders rarely.
  const [labelWindow, setLabelWindow] = useState<LabelWindow | null>(null);
  const labelWindowRef = useRef<LabelWindow | null>(null);
  const onZoom = useCallback(
    (t: ViewTransform) => {
      positionTooltip(t);
      const next = nextLabelWindow(labelWindowRef.current, t, size.width);
      if (next !== labelWindowRef.current) {
        labelWindowRef.current = next;
        setLabelWindow(next);
      }
    },
    [positionTooltip, size.width],
  );
  const zoom = useTreeZoom(svgRef, layout.bounds, layout.layerCount, rowY, size, onZoom);
  // React may have created row groups (a new tree, new labels, the focus ring on another row).
  useLayoutEffect(() => zoom.placeNewGroups());
  useLayoutEffect(() => positionTooltip(zoom.transform()), [positionTooltip, zoom]);

  // Bring a node the app asked for into view (panning only: a click must not make the view jump), once the
  // view has a size. While the roving focus stays on it, its ring marks it even without keyboard focus.
  const revealedFocusProp = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (size.width === 0 || focusNodeId === revealedFocusProp.current) return;
    revealedFocusProp.current = focusNodeId;
    if (isNode(focusNodeId)) zoom.reveal(layout.x[focusNodeId]);
  }, [focusNodeId, layout, zoom, size.width, isNode]);
  const located = isNode(focusNodeId) && focusId === focusNodeId;

  /** Where the roving focus starts: the requested node, else the best selected node, else the top row's first. */
  const startingNode = (): number | null => {
    if (isNode(focusNodeId)) return focusNodeId;
    for (const mode of selection.modes) {
      const best = selections[mode]?.find((s) => isNode(s.id));
      if (best !== undefined) return best.id;
    }
    return layout.layerCount > 0 ? layout.rows[layout.layerCount - 1][0] : null;
  };

  /** The node under the pointer: its element, or, zoomed far out where rows are dots, the nearest dot. */
  const nodeIdAt = (e: { target: EventTarget | null; clientX: number }): number | null => {
    if (!(e.target instanceof Element)) return null;
    const element = e.target.closest('[data-node-id]');
    if (element !== null) {
      const id = Number(element.getAttribute('data-node-id'));
      return isNode(id) ? id : null;
    }
    const row = e.target.closest('.tree-row-dots')?.parentElement?.getAttribute('data-row');
    const svg = svgRef.current;
    if (row == null || svg === null) return null;
    const t = zoom.transform();
    const x = (e.clientX - svg.getBoundingClientRect().left - t.x) / t.k;
    const id = nearestInRow(layout, Number(row), x);
    return id !== undefined && Math.abs(layout.x[id] - x) * t.k <= DOT_HIT_PIXELS ? id : null;
  };

  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    // Leave the browser's own shortcuts (Ctrl + / − / 0 zoom the page) alone.
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const current = focusId ?? startingNode();
    const move = KEY_MOVES.get(e.key);
    if (move !== undefined && current !== null) {
      const next = moveFocus(layout, nodes, parents, current, move);
      setRovingId(next);
      zoom.reveal(layout.x[next]);
    } else if ((e.key === 'Enter' || e.key === ' ') && current !== null) {
      onOpenNode(current);
    } else if (e.key === '+' || e.key === '=') {
      zoom.zoomBy(ZOOM_STEP);
    } else if (e.key === '-' || e.key === '_') {
      zoom.zoomBy(1 / ZOOM_STEP);
    } else if (e.key === '0') {
      zoom.fit();
    } else {
      return;
    }
    e.preventDefault();
    setKeyboardMode(true);
    setHoverId(null);
  };

  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    // While a button is down the user is panning: no previews.
    const id = e.buttons === 0 ? nodeIdAt(e) : null;
    if (id !== hoverId) setHoverId(id);
  };

  const onClick = (e: MouseEvent<SVGSVGElement>) => {
    const id = nodeIdAt(e);
    if (id === null) return;
    setRovingId(id);
    onOpenNode(id);
  };

  const focused = focusId === null ? null : nodes[focusId];
  const status =
    hasFocus && focused != null
      ? describeNode(focused, selection.byNode.get(focused.id), parentsOf(parents, focused.id).length)
      : '';

  return (
    <div className="tree-view">
      <div className="tree-toolbar">
        <TreeLegend selections={selections} nodeCount={nodes.length} layerCount={layout.layerCount} />
        <div className="tree-zoom-buttons">
          <button
            type="button"
            aria-label="Zoom in"
            title="Zoom in (+)"
            onClick={() => zoom.zoomBy(ZOOM_STEP)}
          >
            +
          </button>
          <button
            type="button"
            aria-label="Zoom out"
            title="Zoom out (−)"
            onClick={() => zoom.zoomBy(1 / ZOOM_STEP)}
          >
            −
          </button>
          <button type="button" aria-label="Fit" title="Fit the whole tree (0)" onClick={() => zoom.fit()}>
            Fit
          </button>
        </div>
      </div>
      <div className="tree-canvas" ref={canvasRef} style={{ height }}>
        <svg
          ref={svgRef}
          className={`tree-svg${keyboardMode ? ' is-keyboard' : ''}${located ? ' is-located' : ''}`}
          role="group"
          aria-label="Tree view"
          aria-describedby={helpId}
          tabIndex={0}
          onKeyDown={onKeyDown}
          onFocus={(e) => {
            setHasFocus(true);
            if (e.currentTarget.matches(':focus-visible')) setKeyboardMode(true);
            if (focusId === null) setRovingId(startingNode());
          }}
          onBlur={() => setHasFocus(false)}
          onPointerDown={() => setKeyboardMode(false)}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHoverId(null)}
          onClick={onClick}
        >
          <g className="tree-viewport" aria-hidden="true">
            <TreeDrawing nodes={nodes} layout={layout} rowY={rowY} selection={selection} />
            <TreeLabels layout={layout} selection={selection} window={labelWindow} />
            {focusId !== null && (
              // Keyed by row: a new element (placed by placeNewGroups) whenever focus changes row.
              <g key={nodes[focusId].layer} className={ROW_CLASS} data-row={nodes[focusId].layer}>
                <circle
                  className="tree-focus-ring"
                  cx={layout.x[focusId]}
                  cy={0}
                  r={layout.radius[focusId] + FOCUS_RING_GAP}
                />
              </g>
            )}
          </g>
        </svg>
        {tooltipNode !== null && (
          <TreeTooltip ref={tooltipRef} node={nodes[tooltipNode]} marks={selection.byNode.get(tooltipNode)} />
        )}
      </div>
      <p id={helpId} className="visually-hidden">
        Arrow keys move between nodes: left and right within a layer, up to a parent, down to a child; Home
        and End go to the ends of the layer. Enter opens the node. Plus and minus zoom; 0 fits the whole tree.
      </p>
      <div role="status" className="visually-hidden">
        {status}
      </div>
    </div>
  );
}

/** Distance between a node's circle and its keyboard focus ring, in layout units. */
const FOCUS_RING_GAP = 9;
/** Zoomed far out, a pointer this close (pixels) to a node's dot is on that node. */
const DOT_HIT_PIXELS = 5;

interface TreeLegendProps {
  selections: ModeSelections;
  nodeCount: number;
  layerCount: number;
}

/** Size of the tree and, per mode with a selection, its colour and how many nodes it picked. */
function TreeLegend({ selections, nodeCount, layerCount }: TreeLegendProps) {
  const entries = RETRIEVAL_MODES.filter((mode) => selections[mode] !== undefined);
  return (
    <div className="tree-legend">
      <span className="tree-legend-size">
        {count(nodeCount, 'node')} · {count(layerCount, 'layer')}
      </span>
      {entries.map((mode) => (
        <span key={mode} className="tree-legend-mode">
          <span className="mode-swatch" style={{ background: modeColorVar(mode) }} />
          {MODE_LABELS[mode]} ({selections[mode]?.length ?? 0})
        </span>
      ))}
    </div>
  );
}
