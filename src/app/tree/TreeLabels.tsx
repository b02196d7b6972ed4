/**
 * The text of the tree drawing — node ids and rank badges — for the nodes inside a window of layout x only
 * (see `nextLabelWindow`). SVG text is what makes a zoom frame expensive (its layout is redone at every new
 * scale), so a 2,000-node tree carries text for the few hundred nodes near the view, and none when zoomed out.
 */
import { memo } from 'react';
import { modeColorVar, modeInkVar, type RetrievalMode } from '../modes';
import { rowRange } from './graph';
import type { TreeLayout } from './layout';
import { polar } from './paths';
import type { NodeMark, SelectionIndex } from './selection';
import { ROW_CLASS } from './useTreeZoom';
import type { LabelWindow } from './viewport';

/** Radius of a rank badge, in layout units. */
const BADGE_RADIUS = 7;
/** Distance from a node's circle to a badge's centre. */
const BADGE_OFFSET = 6;
/** Where each mode's badge sits, in degrees clockwise from 12 o'clock: always the same place per mode. */
const BADGE_ANGLE: Readonly<Record<RetrievalMode, number>> = { collapsed: -40, traversal: 40, leaves: 180 };
/** Ranks from this value up get a smaller font to fit the badge. */
const LONG_RANK = 100;
/** Font size of a rank badge, and of a rank ≥ LONG_RANK, in layout units. */
const BADGE_FONT_SIZE = 8.5;
const BADGE_FONT_SIZE_LONG = 6;
/** A node's id label is this fraction of its radius high… */
const LABEL_SIZE_RATIO = 0.9;
/** …unless its digits would then span more than this fraction of the circle's diameter. */
const LABEL_WIDTH_RATIO = 0.8;
/** Width of a digit in ems (tabular figures of common sans-serif fonts). */
const DIGIT_EM = 0.6;

/** Font size that fits the id inside a circle of `radius`. */
function labelSize(id: number, radius: number): number {
  const digits = String(id).length;
  return Math.min(radius * LABEL_SIZE_RATIO, (2 * radius * LABEL_WIDTH_RATIO) / (digits * DIGIT_EM));
}

interface TreeLabelsProps {
  layout: TreeLayout;
  selection: SelectionIndex;
  /** Nodes whose x lies in this window get text; null: none. */
  window: LabelWindow | null;
}

function TreeLabelsImpl({ layout, selection, window }: TreeLabelsProps) {
  if (window === null) return null;
  const dimUnselected = selection.modes.length > 0;
  return layout.rows.map((row, layer) => {
    const [from, to] = rowRange(layout, layer, window.x0, window.x1);
    const ids = Array.from(row.subarray(from, to));
    return (
      <g key={layer} className={`${ROW_CLASS} tree-row-labels`} data-row={layer}>
        {ids.map((id) => {
          const marks = selection.byNode.get(id);
          const radius = layout.radius[id];
          return (
            <g key={id} transform={`translate(${layout.x[id]} 0)`}>
              <text
                className={
                  dimUnselected && marks === undefined ? 'tree-node-label is-dim' : 'tree-node-label'
                }
                dy="0.35em"
                fontSize={labelSize(id, radius).toFixed(1)}
              >
                {id}
              </text>
              {marks?.map((mark) => (
                <RankBadge key={mark.mode} mark={mark} distance={radius + BADGE_OFFSET} />
              ))}
            </g>
          );
        })}
      </g>
    );
  });
}

/** Memoised labels; see the module comment. */
export const TreeLabels = memo(TreeLabelsImpl);

function RankBadge({ mark, distance }: { mark: NodeMark; distance: number }) {
  const [bx, by] = polar(distance, BADGE_ANGLE[mark.mode]);
  return (
    <g className="tree-badge" transform={`translate(${bx.toFixed(1)} ${by.toFixed(1)})`}>
      <circle r={BADGE_RADIUS} style={{ fill: modeColorVar(mark.mode) }} />
      <text
        dy="0.35em"
        style={{ fill: modeInkVar(mark.mode) }}
        fontSize={mark.rank >= LONG_RANK ? BADGE_FONT_SIZE_LONG : BADGE_FONT_SIZE}
      >
        {mark.rank}
      </text>
    </g>
  );
}
