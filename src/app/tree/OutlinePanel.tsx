/**
 * The outline under the icicle: "Expand all" (up to EXPAND_ALL_LIMIT nodes) and "Collapse all" above the ARIA
 * tree (TreeOutline.tsx), whose zoom keys (+ − 0) move the icicle.
 */
import type { RefObject } from 'react';
import type { Hierarchy, TreeViewNode } from './hierarchy';
import { ZOOM_STEP } from './icicle';
import type { IcicleHandle } from './IcicleCanvas';
import type { SubtreeCounts } from './marks';
import type { SelectionIndex } from './selection';
import { TreeOutline } from './TreeOutline';
import type { useTreeFocus } from './useTreeFocus';

/** "Expand all" is offered up to this many nodes (each open item is an element in the page). */
export const EXPAND_ALL_LIMIT = 5000;

/** Props of `OutlinePanel`. */
export interface OutlinePanelProps {
  h: Hierarchy;
  nodes: readonly TreeViewNode[];
  focus: ReturnType<typeof useTreeFocus>;
  selection: SelectionIndex;
  counts: SubtreeCounts;
  isMatch(id: number): boolean;
  icicle: RefObject<IcicleHandle | null>;
}

/** The outline panel; see the module comment. */
export function OutlinePanel({ h, nodes, focus, selection, counts, isMatch, icicle }: OutlinePanelProps) {
  const canExpandAll = nodes.length <= EXPAND_ALL_LIMIT;
  const zoomKey = (key: string): boolean => {
    if (key === '+' || key === '=') icicle.current?.zoomBy(ZOOM_STEP);
    else if (key === '-' || key === '_') icicle.current?.zoomBy(1 / ZOOM_STEP);
    else if (key === '0') icicle.current?.fit();
    else return false;
    return true;
  };
  return (
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
            focus.setExpanded(new Set(nodes.filter((n) => h.kids[n.id].length > 0).map((n) => n.id)))
          }
        >
          Expand all
        </button>
        <button type="button" onClick={() => focus.setExpanded(new Set())}>
          Collapse all
        </button>
      </div>
      <TreeOutline
        h={h}
        nodes={nodes}
        rows={focus.rows}
        expanded={focus.expanded}
        active={focus.active}
        followFocus={focus.inOutline}
        selection={selection}
        counts={counts}
        isMatch={isMatch}
        onAction={focus.onAction}
        onToggle={focus.toggle}
        onOtherKey={zoomKey}
        onFocusIn={focus.enterOutline}
        onFocusOut={focus.leaveOutline}
      />
    </section>
  );
}
