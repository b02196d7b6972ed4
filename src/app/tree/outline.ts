/**
 * The outline's model: which nodes the ARIA tree shows for a set of expanded nodes (depth first, in the
 * icicle's order), what each item is called, and where each key of the WAI-ARIA tree pattern moves the
 * focus. Pure functions, tested in Node.
 */
import type { TreeNode } from '../../core/types';
import { ancestorsOf, kidsOf, ROOT, type Hierarchy } from './hierarchy';
import { count, truncateText } from './describe';

/** One visible item of the outline. */
export interface OutlineRow {
  id: number;
  /** 1-based depth (aria-level). */
  level: number;
  /** 1-based position among its siblings, and their number (aria-posinset, aria-setsize). */
  position: number;
  siblings: number;
  /** Its parent in the outline, or ROOT. */
  parent: number;
}

/** The items shown when the nodes in `expanded` are open: depth first, each parent before its kids. */
export function visibleRows(h: Hierarchy, expanded: ReadonlySet<number>): OutlineRow[] {
  const out: OutlineRow[] = [];
  const visit = (parent: number, level: number) => {
    const kids = kidsOf(h, parent);
    kids.forEach((id, k) => {
      out.push({ id, level, position: k + 1, siblings: kids.length, parent });
      if (expanded.has(id) && h.kids[id].length > 0) visit(id, level + 1);
    });
  };
  visit(ROOT, 1);
  return out;
}

/** `expanded` plus every ancestor of `id`, so it becomes visible (a new set; the same one when nothing changes). */
export function expandTo(h: Hierarchy, expanded: ReadonlySet<number>, id: number): ReadonlySet<number> {
  const missing = ancestorsOf(h, id).filter((a) => !expanded.has(a));
  return missing.length === 0 ? expanded : new Set([...expanded, ...missing]);
}

/** What a node is called in the outline: its label (or a leaf's opening words), layer and number of children. */
export function outlineName(
  node: Pick<TreeNode, 'id' | 'layer' | 'text' | 'label' | 'title'>,
  children: number,
): string {
  if (node.layer === 0) return `${truncateText(node.text, LEAF_NAME_CHARS)}, leaf ${node.id}, layer 0`;
  return `${summaryName(node)}, layer ${node.layer}, ${count(children, 'child', 'children')}`;
}

/** Characters of a leaf's text in its outline name. */
export const LEAF_NAME_CHARS = 80;

/** A summary's words: its title and label, or "Summary <id>" when it has neither. */
export function summaryName(node: Pick<TreeNode, 'id' | 'label' | 'title'>): string {
  const label = node.label?.join(', ') ?? '';
  if (node.title !== undefined && label !== '') return `${node.title} (${label})`;
  return node.title ?? (label !== '' ? label : `Summary ${node.id}`);
}

/** A node in a few words, for the tree view's status line: "leaf 12, <its opening words>" or a summary's name. */
export function describeShort(node: Pick<TreeNode, 'id' | 'layer' | 'text' | 'label' | 'title'>): string {
  return node.layer === 0
    ? `leaf ${node.id}, ${truncateText(node.text, 60)}`
    : `${summaryName(node)}, layer ${node.layer}`;
}

/** A key of the ARIA tree pattern and what it does. */
export type OutlineAction =
  | { kind: 'focus'; id: number }
  | { kind: 'expand'; id: number }
  | { kind: 'collapse'; id: number }
  | { kind: 'expand-siblings'; ids: number[] }
  | { kind: 'open'; id: number };

/**
 * What a key does on the focused item (WAI-ARIA tree view pattern): ↑/↓ the previous/next visible item;
 * → opens a closed parent, or goes to its first child; ← closes an open parent, or goes to the parent;
 * Home/End the first/last visible item; Enter opens the node (zoom and inspect); * opens every sibling.
 * Undefined for any other key.
 */
export function outlineKey(
  h: Hierarchy,
  rows: readonly OutlineRow[],
  expanded: ReadonlySet<number>,
  focused: number,
  key: string,
): OutlineAction | undefined {
  const at = rows.findIndex((r) => r.id === focused);
  if (at < 0) return rows.length > 0 ? { kind: 'focus', id: rows[0].id } : undefined;
  const row = rows[at];
  const hasKids = h.kids[row.id].length > 0;
  switch (key) {
    case 'ArrowDown':
      return { kind: 'focus', id: rows[Math.min(rows.length - 1, at + 1)].id };
    case 'ArrowUp':
      return { kind: 'focus', id: rows[Math.max(0, at - 1)].id };
    case 'Home':
      return { kind: 'focus', id: rows[0].id };
    case 'End':
      return { kind: 'focus', id: rows[rows.length - 1].id };
    case 'ArrowRight':
      if (!hasKids) return undefined;
      return expanded.has(row.id) ? { kind: 'focus', id: h.kids[row.id][0] } : { kind: 'expand', id: row.id };
    case 'ArrowLeft':
      if (hasKids && expanded.has(row.id)) return { kind: 'collapse', id: row.id };
      return row.parent === ROOT ? undefined : { kind: 'focus', id: row.parent };
    case 'Enter':
      return { kind: 'open', id: row.id };
    case '*':
      return {
        kind: 'expand-siblings',
        ids: Array.from(kidsOf(h, row.parent)).filter((id) => h.kids[id].length > 0),
      };
    default:
      return undefined;
  }
}
