/** Where the icicle is zoomed: "Whole tree" and the summaries above the view, each a button that zooms to it. */
import type { RefObject } from 'react';
import { truncateText } from './describe';
import type { Hierarchy, TreeViewNode } from './hierarchy';
import { fitView, revealView } from './icicle';
import type { IcicleHandle } from './IcicleCanvas';
import { summaryName } from './outline';

/** Props of `TreeBreadcrumb`. */
export interface TreeBreadcrumbProps {
  h: Hierarchy;
  nodes: readonly TreeViewNode[];
  /** The summaries the view is inside, top layer first (icicle.ts's `viewPath`). */
  path: readonly number[];
  icicle: RefObject<IcicleHandle | null>;
}

/** The breadcrumb; see the module comment. */
export function TreeBreadcrumb({ h, nodes, path, icicle }: TreeBreadcrumbProps) {
  return (
    <nav className="tree-breadcrumb" aria-label="Zoomed into">
      <button
        type="button"
        aria-current={path.length === 0 ? 'location' : undefined}
        onClick={() => icicle.current?.zoomTo(fitView(h))}
      >
        Whole tree
      </button>
      {path.map((id, k) => (
        <span key={id} className="tree-breadcrumb-step">
          <span aria-hidden="true">›</span>
          <button
            type="button"
            aria-current={k === path.length - 1 ? 'location' : undefined}
            onClick={() => icicle.current?.zoomTo(revealView(h, id))}
            title={summaryName(nodes[id])}
          >
            {crumb(nodes[id])}
          </button>
        </span>
      ))}
    </nav>
  );
}

/** A breadcrumb step: the first two terms of a label. */
function crumb(node: TreeViewNode): string {
  if (node.title !== undefined) return truncateText(node.title, 28);
  const label = node.label ?? [];
  return label.length > 0 ? label.slice(0, 2).join(' · ') : `Node ${node.id}`;
}
