/**
 * The preview shown beside a hovered (or keyboard-focused) node. Text is rendered as React text, never as
 * HTML. It is hidden from assistive technology: the tree view's status line says the same for the focused
 * node. Its position is set from outside (see `placeTooltip`), so zooming moves it without a React render.
 */
import type { Ref } from 'react';
import type { TreeNode } from '../../core/types';
import { MODE_LABELS, modeColorVar } from '../modes';
import { nodeKind, SCORE_DECIMALS, truncateText } from './describe';
import type { NodeMark } from './selection';

/** Characters of the node's text previewed in the tooltip. */
export const TOOLTIP_TEXT_CHARS = 360;
/** Gap between the node's circle and the tooltip, in pixels. */
const TOOLTIP_GAP = 10;

interface TreeTooltipProps {
  node: Pick<TreeNode, 'id' | 'layer' | 'text' | 'tokens'>;
  marks: readonly NodeMark[] | undefined;
  ref: Ref<HTMLDivElement>;
}

/** The tooltip box; `placeTooltip` positions it. */
export function TreeTooltip({ node, marks, ref }: TreeTooltipProps) {
  return (
    <div className="tree-tooltip" ref={ref} aria-hidden="true">
      <div className="tree-tooltip-head">
        Node {node.id} · {nodeKind(node.layer)} · {node.tokens} tokens
      </div>
      {marks?.map((m) => (
        <div key={m.mode} className="tree-tooltip-mark">
          <span className="mode-swatch" style={{ background: modeColorVar(m.mode) }} />
          {MODE_LABELS[m.mode]}: rank {m.rank}, score {m.score.toFixed(SCORE_DECIMALS)}
        </div>
      ))}
      <p className="tree-tooltip-text">{truncateText(node.text, TOOLTIP_TEXT_CHARS)}</p>
    </div>
  );
}

/**
 * Puts the tooltip above the circle whose top is at screen point (x, top) and bottom at (x, bottom), or
 * below it when there is no room above; keeps it inside a viewport `width` pixels wide.
 */
export function placeTooltip(el: HTMLElement, x: number, top: number, bottom: number, width: number): void {
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const left = Math.min(Math.max(0, x - w / 2), Math.max(0, width - w));
  const above = top - TOOLTIP_GAP - h;
  const y = above >= 0 ? above : bottom + TOOLTIP_GAP;
  el.style.transform = `translate(${Math.round(left)}px, ${Math.round(y)}px)`;
}
