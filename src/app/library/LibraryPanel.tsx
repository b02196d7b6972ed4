/**
 * The library: every tree stored in this browser with its status and actions, "Import tree", how much of
 * the browser's storage Aerie uses, and a way to ask the browser to keep it. Deleting asks for
 * confirmation in a modal dialog that names the tree. Presentational: every action is a callback.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { TreeSummary } from '../../storage';
import { formatBytes, formatPercent, formatQuantity } from '../format';
import { LibraryRow } from './LibraryRow';
import { rowStatus } from './row-status';
import './library.css';

/** Props of `LibraryPanel`. */
export interface LibraryPanelProps {
  /** The rows, in the order shown (listTrees gives the most recently changed first). */
  trees: TreeSummary[];
  /** The tree open in the main view, marked as current. */
  activeTreeId?: string;
  /** Trees a live build owns, in this tab or another; a "building" tree not listed was interrupted. */
  runningTreeIds: string[];
  /** The browser's storage estimate for this origin, in bytes. */
  storage?: { usage: number; quota: number; persisted: boolean };
  onOpen(id: string): void;
  onRename(id: string, title: string): void;
  /** Called after the user confirmed. */
  onDelete(id: string): void;
  /** Exports a tree (with its original files when `options.originals`). */
  onExport(id: string, options?: { originals?: boolean }): void;
  onResume(id: string): void;
  /** Start a new build with this tree's documents and parameters. */
  onDuplicate(id: string): void;
  onImport(file: File): void;
  /** Ask the browser for persistent storage (navigator.storage.persist). */
  onRequestPersistence(): void;
}

/** The meter turns to its "high" colour above this share of the quota. */
const HIGH_USAGE = 0.8;

/** Below this share of the quota, "0%" would read as "nothing stored": show "<1%". */
const MIN_SHOWN_SHARE = 0.005;

/** Files the import accepts: Aerie's tree format (JSON). */
export const IMPORT_ACCEPT = '.json,.raptor.json';

/** The library panel; see the module comment. */
export function LibraryPanel({
  trees,
  activeTreeId,
  runningTreeIds,
  storage,
  onOpen,
  onRename,
  onDelete,
  onExport,
  onResume,
  onDuplicate,
  onImport,
  onRequestPersistence,
}: LibraryPanelProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [deleting, setDeleting] = useState<TreeSummary | undefined>(undefined);
  const running = useMemo(() => new Set(runningTreeIds), [runningTreeIds]);

  return (
    <section className="library" aria-label="Library">
      <header className="library-header">
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="library-heading">
          Library
          {trees.length > 0 && (
            <span className="library-count"> · {formatQuantity(trees.length, 'tree')}</span>
          )}
        </h2>
        <button type="button" className="library-button" onClick={() => fileRef.current?.click()}>
          Import tree
        </button>
        <input
          ref={fileRef}
          type="file"
          accept={IMPORT_ACCEPT}
          aria-label="Tree file to import"
          hidden
          tabIndex={-1}
          onChange={(e) => {
            const file = e.target.files?.[0];
            // Cleared so choosing the same file again fires another change.
            e.target.value = '';
            if (file) onImport(file);
          }}
        />
      </header>
      {trees.length === 0 ? (
        <div className="library-empty">
          <p className="library-empty-title">No trees yet</p>
          <p>
            Add documents and build a tree: it is saved here, in this browser, and can be opened again later.
            To open a tree exported from Aerie, use “Import tree” (a <code>.raptor.json</code> file).
          </p>
        </div>
      ) : (
        <ul className="library-list" aria-labelledby={headingId}>
          {trees.map((tree) => (
            <LibraryRow
              key={tree.id}
              tree={tree}
              status={rowStatus(tree, running)}
              active={tree.id === activeTreeId}
              onOpen={onOpen}
              onRename={onRename}
              onAskDelete={setDeleting}
              onExport={onExport}
              onResume={onResume}
              onDuplicate={onDuplicate}
            />
          ))}
        </ul>
      )}
      {storage && <StorageUse storage={storage} onRequestPersistence={onRequestPersistence} />}
      <ConfirmDelete
        tree={deleting}
        running={deleting !== undefined && running.has(deleting.id)}
        onConfirm={(id) => {
          setDeleting(undefined);
          onDelete(id);
          // The row and its button are gone: give focus a stable place.
          headingRef.current?.focus();
        }}
        onCancel={() => setDeleting(undefined)}
      />
    </section>
  );
}

function StorageUse({
  storage,
  onRequestPersistence,
}: {
  storage: NonNullable<LibraryPanelProps['storage']>;
  onRequestPersistence(): void;
}) {
  const meterId = useId();
  const { usage, quota, persisted } = storage;
  const share = quota > 0 ? usage / quota : 0;
  return (
    <div className="library-storage">
      <div className="library-storage-line">
        <label htmlFor={meterId}>Storage</label>
        <meter
          id={meterId}
          min={0}
          max={Math.max(quota, 1)}
          value={usage}
          high={quota * HIGH_USAGE}
          optimum={0}
        />
        <span className="library-storage-numbers">
          {formatBytes(usage)} of {formatBytes(quota)} (
          {share > 0 && share < MIN_SHOWN_SHARE ? '<1%' : formatPercent(share)})
        </span>
      </div>
      {persisted ? (
        <p className="library-note">Kept on this device: the browser will not clear it to free space.</p>
      ) : (
        <div className="library-storage-line">
          <button type="button" className="library-button" onClick={onRequestPersistence}>
            Keep data on this device
          </button>
          <p className="library-note">Otherwise the browser may clear Aerie’s data when space runs low.</p>
        </div>
      )}
    </div>
  );
}

function ConfirmDelete({
  tree,
  running,
  onConfirm,
  onCancel,
}: {
  tree: TreeSummary | undefined;
  running: boolean;
  onConfirm(id: string): void;
  onCancel(): void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const textId = useId();
  const open = tree !== undefined;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The safe choice has focus: Enter or Space right away does not delete.
      cancelRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      className="library-confirm"
      role="alertdialog"
      aria-labelledby={headingId}
      aria-describedby={textId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      onClose={() => {
        if (open) onCancel();
      }}
    >
      {tree && (
        <>
          <h2 id={headingId}>Delete “{tree.title}”?</h2>
          <p id={textId}>
            Its nodes, and the document texts no other tree uses, are removed from this browser. This cannot
            be undone{running ? '; the build in progress stops' : ''}.
          </p>
          <div className="library-confirm-actions">
            <button ref={cancelRef} type="button" className="library-button" onClick={onCancel}>
              Cancel
            </button>
            <button
              type="button"
              className="library-button library-button-danger-solid"
              onClick={() => onConfirm(tree.id)}
            >
              Delete
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
