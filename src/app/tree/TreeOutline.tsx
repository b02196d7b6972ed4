/**
 * The tree as an outline: the WAI-ARIA tree pattern over the same hierarchy the icicle draws. Only open
 * branches are in the page, so a 14,000-node tree costs a few dozen items until the user opens more. One tab
 * stop with a roving focus; keys as `outlineKey` says, plus + − 0 for the icicle's zoom.
 *
 * Contract relied on by end-to-end tests and screen readers: role="tree" (aria-label "Tree outline",
 * aria-multiselectable) holds role="treeitem" items with aria-level, aria-posinset, aria-setsize,
 * aria-expanded (parents), aria-selected (true where a retrieval mode picked the node) and an accessible name
 * of label, layer and number of children; each item carries data-node-id, data-layer and data-selected (the
 * modes that picked it, space-separated, '' for none).
 */
import { createContext, memo, useContext, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { TreeNode } from '../../core/types';
import { MODE_LABELS, modeColorVar, modeInkVar } from '../modes';
import { ancestorsOf, kidsOf, ROOT, type Hierarchy } from './hierarchy';
import type { SubtreeCounts } from './marks';
import { outlineKey, outlineName, summaryName, type OutlineAction, type OutlineRow } from './outline';
import { selectedAttr, type SelectionIndex } from './selection';
import { truncateText } from './describe';

/** What the outline reads of a node. */
export type OutlineNode = Pick<TreeNode, 'id' | 'layer' | 'text' | 'label' | 'title'>;

interface TreeOutlineProps {
  h: Hierarchy;
  nodes: readonly OutlineNode[];
  rows: readonly OutlineRow[];
  expanded: ReadonlySet<number>;
  /** The item with the roving focus. */
  active: number | null;
  /** Move DOM focus to the active item when it changes (the user is in the outline). */
  followFocus: boolean;
  selection: SelectionIndex;
  counts: SubtreeCounts;
  isMatch(id: number): boolean;
  onAction(action: OutlineAction): void;
  onToggle(id: number): void;
  /** Other keys (zoom shortcuts). Return true when handled. */
  onOtherKey?(key: string): boolean;
  onFocusIn?(): void;
  onFocusOut?(): void;
}

/** Characters of a leaf's text shown in its row. */
const LEAF_ROW_CHARS = 120;

/** The outline; see the module comment. */
export function TreeOutline(props: TreeOutlineProps) {
  const { h, rows, expanded, active, followFocus } = props;
  const listRef = useRef<HTMLUListElement>(null);

  // Keep the active item in view inside the outline's own scroll box (never scrolling the page), and give
  // it DOM focus when the user is moving through the outline.
  useEffect(() => {
    const list = listRef.current;
    if (list === null || active === null) return;
    const item = list.querySelector<HTMLElement>(`[data-node-id="${active}"]`);
    if (item === null) return;
    const row = item.querySelector<HTMLElement>('.tree-outline-row') ?? item;
    const box = list.getBoundingClientRect();
    const at = row.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
    if (followFocus && document.activeElement !== item) item.focus({ preventScroll: true });
  }, [active, followFocus, rows]);

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const focused = active ?? rows[0]?.id;
    if (focused === undefined) return;
    const action = outlineKey(h, rows, expanded, focused, e.key);
    if (action !== undefined) props.onAction(action);
    else if (!props.onOtherKey?.(e.key)) return;
    e.preventDefault();
    e.stopPropagation();
  };

  const tabStop = active ?? rows[0]?.id ?? null;
  const { nodes, selection, counts, isMatch, onAction, onToggle } = props;
  const shared = useMemo<Shared>(
    () => ({
      h,
      nodes,
      expanded,
      selection,
      counts,
      isMatch,
      onAction,
      onToggle,
    }),
    [h, nodes, expanded, selection, counts, isMatch, onAction, onToggle],
  );
  const onPath = useMemo(
    () =>
      new Set([
        ...(active === null ? [] : ancestorsOf(h, active)),
        ...(tabStop === null ? [] : ancestorsOf(h, tabStop)),
      ]),
    [h, active, tabStop],
  );
  return (
    <ul
      ref={listRef}
      className="tree-outline"
      role="tree"
      aria-label="Tree outline"
      aria-multiselectable="true"
      onKeyDown={onKeyDown}
      onFocus={props.onFocusIn}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) props.onFocusOut?.();
      }}
    >
      <OnPath.Provider value={onPath}>
        <Branch shared={shared} parent={ROOT} level={1} active={active} tabStop={tabStop} />
      </OnPath.Provider>
    </ul>
  );
}

/** What every item needs; stable between key presses, so memoised items skip re-rendering. */
interface Shared {
  h: Hierarchy;
  nodes: readonly OutlineNode[];
  expanded: ReadonlySet<number>;
  selection: SelectionIndex;
  counts: SubtreeCounts;
  isMatch(id: number): boolean;
  onAction(action: OutlineAction): void;
  onToggle(id: number): void;
}

/**
 * Ancestors of the active item and of the tab stop. Branches read it to hand the active id only to the items
 * on that path, so a key press re-renders those items and no others.
 */
const OnPath = createContext<ReadonlySet<number>>(new Set());

interface BranchProps {
  shared: Shared;
  parent: number;
  level: number;
  /** The active item and the tab stop when they lie below this branch's parent, else null. */
  active: number | null;
  tabStop: number | null;
}

/** The items under one parent (the root's: the top of the outline). */
function Branch({ shared, parent, level, active, tabStop }: BranchProps) {
  const onPath = useContext(OnPath);
  const kids = kidsOf(shared.h, parent);
  const below = (target: number | null, id: number) =>
    target !== null && (target === id || onPath.has(id)) ? target : null;
  return (
    <>
      {Array.from(kids, (id, k) => (
        <Item
          key={id}
          shared={shared}
          id={id}
          level={level}
          position={k + 1}
          siblings={kids.length}
          open={shared.expanded.has(id)}
          active={below(active, id)}
          tabStop={below(tabStop, id)}
        />
      ))}
    </>
  );
}

interface ItemProps {
  shared: Shared;
  id: number;
  level: number;
  position: number;
  siblings: number;
  open: boolean;
  /** The active item or tab stop if it is this item or below it, else null. */
  active: number | null;
  tabStop: number | null;
}

const Item = memo(function Item({ shared, id, level, position, siblings, open, active, tabStop }: ItemProps) {
  const { h, nodes, selection, counts } = shared;
  const node = nodes[id];
  const kids = h.kids[id].length;
  const isParent = kids > 0;
  const marks = selection.byNode.get(id);
  const below = selection.modes
    .map((mode) => [mode, (counts[mode]?.[id] ?? 0) - (marks?.some((m) => m.mode === mode) ? 1 : 0)] as const)
    .filter(([, n]) => n > 0);
  const match = shared.isMatch(id);
  return (
    <li
      role="treeitem"
      aria-level={level}
      aria-posinset={position}
      aria-setsize={siblings}
      aria-expanded={isParent ? open : undefined}
      aria-selected={marks !== undefined}
      aria-label={outlineName(node, kids)}
      data-node-id={id}
      data-layer={node.layer}
      data-selected={selectedAttr(marks)}
      data-match={match ? '' : undefined}
      tabIndex={tabStop === id ? 0 : -1}
      className={active === id ? 'is-active' : undefined}
    >
      <div
        className="tree-outline-row"
        style={{ paddingInlineStart: `${(level - 1) * 16 + 4}px` }}
        onClick={() => shared.onAction({ kind: 'open', id })}
      >
        <span
          className="tree-outline-toggle"
          aria-hidden="true"
          onClick={(e) => {
            if (!isParent) return;
            e.stopPropagation();
            shared.onToggle(id);
          }}
        >
          {isParent ? (open ? '▾' : '▸') : '·'}
        </span>
        <span className={node.layer === 0 ? 'tree-outline-text' : 'tree-outline-label'} aria-hidden="true">
          {node.layer === 0 ? truncateText(node.text, LEAF_ROW_CHARS) : summaryName(node)}
        </span>
        <span className="tree-outline-meta" aria-hidden="true">
          {node.layer > 0 ? `L${node.layer} · ${kids}` : `#${id}`}
        </span>
        {marks?.map((m) => (
          <span
            key={m.mode}
            className="tree-outline-pick"
            style={{ background: modeColorVar(m.mode), color: modeInkVar(m.mode) }}
            title={`${MODE_LABELS[m.mode]} rank ${m.rank}`}
            aria-hidden="true"
          >
            {m.rank}
          </span>
        ))}
        {below.map(([mode, n]) => (
          <span
            key={mode}
            className="tree-outline-below"
            style={{ color: modeColorVar(mode) }}
            title={`${MODE_LABELS[mode]}: ${n} below`}
            aria-hidden="true"
          >
            ● {n}
          </span>
        ))}
      </div>
      {open && isParent && (
        <ul role="group">
          <Branch shared={shared} parent={id} level={level + 1} active={active} tabStop={tabStop} />
        </ul>
      )}
    </li>
  );
});
