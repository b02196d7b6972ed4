/**
 * The icicle's tooltip: it waits for the pointer to rest (HOVER_DELAY_MS) so it does not cover what the user is
 * aiming at; once shown it follows the pointer from node to node, placed beside the hovered row.
 */
import { useEffect, useRef } from 'react';
import { useTreeBound } from '../state/useTreeBound';
import type { Hierarchy } from './hierarchy';
import type { Frame, Item } from './icicle';
import { placeTooltip } from './TreeTooltip';

/** The pointer rests this long on a node before its tooltip shows. */
const HOVER_DELAY_MS = 400;

/** What the tooltip shows: the item under the pointer, where, in which frame. */
export interface Hover {
  item: Item;
  x: number;
  frame: Frame;
}

/** The hovered item (null: no tooltip), the canvas's `onHover`, and the tooltip's element. */
export function useTreeHover(h: Hierarchy) {
  const [hover, setHover] = useTreeBound<Hover | null>(h, null);
  const tooltipRef = useRef<HTMLDivElement>(null);
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

  return { hover, onHover, tooltipRef };
}
