/**
 * A library row's buttons: Open or Resume (by status), Rename, Export (with the PDFs when it keeps some),
 * Duplicate settings and Delete. Each accessible name includes the tree's title ("Delete Cinderella").
 */
import type { Ref } from 'react';
import type { TreeSummary } from '../../storage';
import type { RowStatus } from './row-status';

/** Actions of a row (the panel's callbacks bound to nothing yet). */
export interface RowActions {
  onOpen(id: string): void;
  onRename(id: string, title: string): void;
  /** Asks for confirmation first (the panel's dialog). */
  onAskDelete(tree: TreeSummary): void;
  onExport(id: string, options?: { originals?: boolean }): void;
  onResume(id: string): void;
  onDuplicate(id: string): void;
}

/** Props of `LibraryRowActions`. */
export interface LibraryRowActionsProps extends Omit<RowActions, 'onRename'> {
  tree: TreeSummary;
  status: RowStatus;
  /** The Rename button (focus comes back to it when renaming ends). */
  renameRef: Ref<HTMLButtonElement>;
  onStartRename(): void;
}

/** The row's buttons; see the module comment. */
export function LibraryRowActions({
  tree,
  status,
  renameRef,
  onStartRename,
  onOpen,
  onAskDelete,
  onExport,
  onResume,
  onDuplicate,
}: LibraryRowActionsProps) {
  const canResume = status === 'paused' || status === 'failed' || status === 'interrupted';
  const title = tree.title;
  return (
    <div className="library-actions">
      {(status === 'ready' || status === 'building') && (
        <button
          type="button"
          className={`library-button${status === 'ready' ? ' library-button-primary' : ''}`}
          aria-label={`Open ${title}`}
          onClick={() => onOpen(tree.id)}
        >
          Open
        </button>
      )}
      {canResume && (
        <button
          type="button"
          className="library-button library-button-primary"
          aria-label={`Resume ${title}`}
          onClick={() => onResume(tree.id)}
        >
          Resume
        </button>
      )}
      <button
        ref={renameRef}
        type="button"
        className="library-button"
        aria-label={`Rename ${title}`}
        onClick={onStartRename}
      >
        Rename
      </button>
      {status === 'ready' && (
        <button
          type="button"
          className="library-button"
          aria-label={`Export ${title}`}
          onClick={() => onExport(tree.id)}
        >
          Export
        </button>
      )}
      {status === 'ready' && tree.documents.some((d) => d.original?.kept) && (
        <button
          type="button"
          className="library-button"
          aria-label={`Export ${title} with its original files`}
          onClick={() => onExport(tree.id, { originals: true })}
        >
          Export with PDFs
        </button>
      )}
      <button
        type="button"
        className="library-button"
        aria-label={`Duplicate settings of ${title}`}
        onClick={() => onDuplicate(tree.id)}
      >
        Duplicate settings
      </button>
      <button
        type="button"
        className="library-button library-button-danger"
        aria-label={`Delete ${title}`}
        onClick={() => onAskDelete(tree)}
      >
        Delete
      </button>
    </div>
  );
}
