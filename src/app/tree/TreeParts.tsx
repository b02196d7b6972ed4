/**
 * Small parts of the tree view: the hover box (a node's tooltip, or what a run holds) and the legend (the
 * tree's size and each mode's colour and count).
 */
import type { Ref } from 'react';
import { MODE_LABELS, modeColorVar, RETRIEVAL_MODES, type ModeSelections } from '../modes';
import { count } from './describe';
import type { Hierarchy, TreeViewNode } from './hierarchy';
import type { Frame, Item } from './icicle';
import { summaryName } from './outline';
import type { SelectionIndex } from './selection';
import { TreeTooltip } from './TreeTooltip';

/** Props of `HoverBox`. */
export interface HoverBoxProps {
  hover: { item: Item; frame: Frame };
  h: Hierarchy;
  nodes: readonly TreeViewNode[];
  selection: SelectionIndex;
  ref: Ref<HTMLDivElement>;
}

/** The tooltip of the hovered node, or of a run: how many nodes it holds. */
export function HoverBox({ hover, h, nodes, selection, ref }: HoverBoxProps) {
  const { item } = hover;
  if (item.id >= 0)
    return <TreeTooltip ref={ref} node={nodes[item.id]} marks={selection.byNode.get(item.id)} />;
  const n = item.to - item.from;
  const what = item.layer === 0 ? count(n, 'passage') : count(n, 'summary', 'summaries');
  const first = nodes[h.rows[item.layer][item.from]];
  return (
    <div className="tree-tooltip" ref={ref} aria-hidden="true">
      <div className="tree-tooltip-head">
        {what} in layer {item.layer} — click to zoom in
      </div>
      {item.layer > 0 && <p className="tree-tooltip-text">First: {summaryName(first)}</p>}
    </div>
  );
}

/** Props of `TreeLegend`. */
export interface TreeLegendProps {
  selections: ModeSelections;
  nodeCount: number;
  layerCount: number;
}

/** Size of the tree and, per mode with a selection, its colour and how many nodes it picked. */
export function TreeLegend({ selections, nodeCount, layerCount }: TreeLegendProps) {
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
