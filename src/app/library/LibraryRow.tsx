/**
 * One tree of the library: title (renamed inline: Enter saves, Escape cancels), status badge, what it was
 * built from and with, its size, where an unfinished build stopped, and its actions. Every button's
 * accessible name includes the tree's title ("Delete Cinderella") so rows can be told apart.
 */
import { useId } from 'react';
import type { TreeSummary } from '../../storage';
import { formatBytes } from '../format';
import { LibraryRowActions, type RowActions } from './LibraryRowActions';
import { LibraryRowDetails } from './LibraryRowDetails';
import { RenameField, useRename } from './RenameTitle';
import { STATUS_LABELS, type RowStatus } from './row-status';

/** Props of `LibraryRow`. */
export interface LibraryRowProps extends RowActions {
  tree: TreeSummary;
  status: RowStatus;
  active: boolean;
}

/** One library row; see the module comment. */
export function LibraryRow({ tree, status, active, onRename, ...actions }: LibraryRowProps) {
  const titleId = useId();
  const rename = useRename(tree, onRename);
  const title = tree.title;

  return (
    <li
      className={`card library-row is-${status}${active ? ' is-active' : ''}`}
      aria-current={active || undefined}
    >
      <div className="library-row-head">
        {rename.editing ? (
          <RenameField title={title} rename={rename} />
        ) : (
          <h3 id={titleId} className="library-title" title={title}>
            {title}
          </h3>
        )}
        <span className={`library-badge is-${status}`}>{STATUS_LABELS[status]}</span>
        {active && <span className="library-tag">Open now</span>}
        {tree.origin === 'imported' && <span className="library-tag">Imported</span>}
        <span className="library-size" title="Estimated size on disk">
          {formatBytes(tree.bytes)}
        </span>
      </div>
      <LibraryRowDetails tree={tree} status={status} />
      <LibraryRowActions
        tree={tree}
        status={status}
        renameRef={rename.renameRef}
        onStartRename={rename.start}
        {...actions}
      />
    </li>
  );
}
