/**
 * The tree view: a zoomable icicle (one row per layer, each node over its primary subtree's leaves, its topic
 * label written on it) above an outline of the same hierarchy. Retrieval marks show at every zoom: a node a
 * mode picked is tinted with a strip of the mode's colour, a node with picks below it has the mode's strip and
 * count at its foot, and runs of nodes too narrow to draw carry their members' marks. "Next selected" and Find
 * (labels and text; Enter for the next match) bring a node into view. A click zooms into a summary (and opens
 * it), the breadcrumb zooms back out; the outline is the keyboard's way through it all.
 *
 * The pieces: TreeToolbar, TreeBreadcrumb, IcicleCanvas and OutlinePanel render; useTreeFocus (the outline's
 * open branches and active node, and showing a node), useTreeFind, useNextSelected and useTreeHover hold the
 * state. Contracts: see IcicleCanvas (the canvas) and TreeOutline (the ARIA tree) for what tests rely on.
 */
import { useId, useMemo, useRef, useState } from 'react';
import type { ModeSelections } from '../modes';
import { useTreeBound } from '../state/useTreeBound';
import { count } from './describe';
import { hierarchyOf, type TreeViewNode } from './hierarchy';
import { viewPath, type View } from './icicle';
import { IcicleCanvas, type IcicleHandle } from './IcicleCanvas';
import { subtreeCounts } from './marks';
import { OutlinePanel } from './OutlinePanel';
import { indexSelections } from './selection';
import { TreeBreadcrumb } from './TreeBreadcrumb';
import { HoverBox } from './TreeParts';
import { TreeToolbar } from './TreeToolbar';
import type { CanvasMarks, FrameInfo } from './useFramePainter';
import { useNextSelected } from './useNextSelected';
import { useTreeFind } from './useTreeFind';
import { useTreeFocus } from './useTreeFocus';
import { useTreeHover } from './useTreeHover';
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

/** Tree-bound initial value (stable, so its setter keeps its identity while the tree does). */
const NO_PATH: readonly number[] = [];

/** Default height of the icicle, in CSS pixels. */
export const DEFAULT_TREE_HEIGHT = 440;

/** The tree view; see the module comment. */
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
  const helpId = useId();
  const icicle = useRef<IcicleHandle>(null);
  const [path, setPath] = useTreeBound<readonly number[]>(h, NO_PATH);
  const [status, setStatus] = useState('');

  const focus = useTreeFocus({ h, nodeCount: nodes.length, icicle, focusNodeId, onOpenNode });
  const find = useTreeFind({ h, nodes, show: focus.show, announce: setStatus });
  const walk = useNextSelected({ selection, nodes, show: focus.show, announce: setStatus });
  const { hover, onHover, tooltipRef } = useTreeHover(h);
  const { matchSet, findCounts } = find;
  const active = focus.active;

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

  return (
    <div className="tree-view">
      <TreeToolbar
        selections={selections}
        nodeCount={nodes.length}
        layerCount={h.layerCount}
        find={find}
        walk={walk}
        icicle={icicle}
      />
      <TreeBreadcrumb h={h} nodes={nodes} path={path} icicle={icicle} />
      <div className="tree-stage">
        <IcicleCanvas
          ref={icicle}
          h={h}
          marks={marks}
          height={height}
          onOpen={focus.open}
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
      <OutlinePanel
        h={h}
        nodes={nodes}
        focus={focus}
        selection={selection}
        counts={counts}
        isMatch={find.isMatch}
        icicle={icicle}
      />
      <div role="status" className="visually-hidden">
        {status}
      </div>
    </div>
  );
}
