/**
 * The static picture of a tree: edges, then one group per row holding (a) the row's nodes as dots in a single
 * path, drawn when zoomed far out, and (b) one element per node — the `data-node-id` contract — with its
 * circle and the marks of each retrieval mode that selected it (a pie slice whose strength is the score, a
 * ring segment per mode). Text (ids, rank badges) lives in TreeLabels. Memoised: it renders again only when
 * the tree, its layout, the row heights or the selections change — never on zoom, hover or keyboard focus
 * (useTreeZoom moves the groups).
 */
import { memo, useMemo } from 'react';
import type { TreeNode } from '../../core/types';
import { modeColorVar, type RetrievalMode } from '../modes';
import type { TreeLayout } from './layout';
import { dotsPath, edgesPath, pieSlicePath, ringSegmentPath } from './paths';
import { scoreIntensity, selectedAttr, type NodeMark, type SelectionIndex } from './selection';
import { EDGES_CLASS, ROW_CLASS } from './useTreeZoom';

/** What the drawing reads of a node. */
export type DrawnNode = Pick<TreeNode, 'id' | 'layer' | 'children'>;

/** Distance from a node's circle to its selection ring, in layout units. */
export const RING_OFFSET = 3.5;
/** Fill opacity of a selected node's pie slice at the lowest and at the highest score. */
const FILL_OPACITY_MIN = 0.12;
const FILL_OPACITY_MAX = 0.62;

interface TreeDrawingProps {
  /** The nodes; `nodes[i].id === i`. */
  nodes: readonly DrawnNode[];
  layout: TreeLayout;
  /** Screen y of each layer's row. */
  rowY: Float64Array;
  selection: SelectionIndex;
}

function TreeDrawingImpl({ nodes, layout, rowY, selection }: TreeDrawingProps) {
  const hasSelection = selection.modes.length > 0;
  const basePath = useMemo(() => edgesPath(nodes, layout, rowY), [nodes, layout, rowY]);
  const selectedPaths = useMemo(
    () =>
      selection.modes.map((mode) => {
        const picked = (id: number) => hasMode(selection, id, mode);
        return { mode, d: edgesPath(nodes, layout, rowY, (p, c) => picked(p) && picked(c)) };
      }),
    [nodes, layout, rowY, selection],
  );

  return (
    <g className={hasSelection ? 'tree-drawing has-selection' : 'tree-drawing'}>
      <g className={EDGES_CLASS}>
        <path className="tree-edges" d={basePath} />
        {selectedPaths.map(({ mode, d }) =>
          d === '' ? null : (
            <path key={mode} className="tree-edges-selected" d={d} style={{ stroke: modeColorVar(mode) }} />
          ),
        )}
      </g>
      {layout.rows.map((row, layer) => (
        <TreeRow key={layer} layer={layer} row={row} nodes={nodes} layout={layout} selection={selection} />
      ))}
    </g>
  );
}

/** Memoised tree picture; see the module comment. */
export const TreeDrawing = memo(TreeDrawingImpl);

function hasMode(selection: SelectionIndex, id: number, mode: RetrievalMode): boolean {
  return selection.byNode.get(id)?.some((m) => m.mode === mode) ?? false;
}

interface TreeRowProps {
  layer: number;
  row: Int32Array;
  nodes: readonly DrawnNode[];
  layout: TreeLayout;
  selection: SelectionIndex;
}

function TreeRow({ layer, row, nodes, layout, selection }: TreeRowProps) {
  // Unselected first, so that where nodes overlap no grey dot or circle covers a selection's colour.
  const ids = Array.from(row);
  const order = [
    ...ids.filter((id) => !selection.byNode.has(id)),
    ...ids.filter((id) => selection.byNode.has(id)),
  ];
  return (
    <g className={ROW_CLASS} data-row={layer}>
      <g className="tree-row-dots">
        <path className="tree-dots" d={dotsPath(row, layout.x)} />
        {selection.modes.map((mode) => {
          const picked = ids.filter((id) => hasMode(selection, id, mode));
          return picked.length === 0 ? null : (
            <path
              key={mode}
              className="tree-dots-selected"
              data-mode={mode}
              d={dotsPath(picked, layout.x)}
              style={{ stroke: modeColorVar(mode) }}
            />
          );
        })}
      </g>
      <g className="tree-row-nodes">
        {order.map((id) => (
          <DrawnTreeNode
            key={id}
            node={nodes[id]}
            x={layout.x[id]}
            radius={layout.radius[id]}
            marks={markVisuals(selection, id)}
            segments={selection.modes.length}
          />
        ))}
      </g>
    </g>
  );
}

/** How to draw one mode's mark on a node. */
interface MarkVisual {
  mode: RetrievalMode;
  /** Ring segment (and pie slice) of the mode: its index among the modes with a selection. */
  slot: number;
  /** Pie fill opacity, from the score. */
  fillOpacity: number;
}

function markVisuals(selection: SelectionIndex, id: number): MarkVisual[] | undefined {
  return selection.byNode.get(id)?.map((mark: NodeMark) => ({
    mode: mark.mode,
    slot: selection.modes.indexOf(mark.mode),
    fillOpacity:
      FILL_OPACITY_MIN + (FILL_OPACITY_MAX - FILL_OPACITY_MIN) * scoreIntensity(selection, mark.score),
  }));
}

interface DrawnTreeNodeProps {
  node: DrawnNode;
  x: number;
  radius: number;
  marks: readonly MarkVisual[] | undefined;
  /** Number of ring segments: the modes with a selection. */
  segments: number;
}

/** One node. Memoised: a new question re-renders only the nodes whose marks change. */
const DrawnTreeNode = memo(function DrawnTreeNode({ node, x, radius, marks, segments }: DrawnTreeNodeProps) {
  return (
    <g
      className="tree-node"
      data-node-id={node.id}
      data-layer={node.layer}
      data-selected={selectedAttr(marks)}
      transform={`translate(${x} 0)`}
    >
      <circle className="tree-node-disc" r={radius} />
      {marks?.map(({ mode, slot, fillOpacity }) => (
        <g key={mode} className="tree-node-mark">
          <path
            className="tree-node-fill"
            d={pieSlicePath(radius, slot, segments)}
            style={{ fill: modeColorVar(mode) }}
            fillOpacity={fillOpacity}
          />
          <path
            className="tree-node-ring"
            d={ringSegmentPath(radius + RING_OFFSET, slot, segments)}
            style={{ stroke: modeColorVar(mode) }}
          />
        </g>
      ))}
    </g>
  );
});
