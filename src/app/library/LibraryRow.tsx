/**
 * One tree of the library: title (renamed inline: Enter saves, Escape cancels), status badge, what it was
 * built from and with, its size, where an unfinished build stopped, and its actions. Every button's
 * accessible name includes the tree's title ("Delete Cinderella") so rows can be told apart.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { TREE_LIMITS } from '../../core/tree-limits';
import type { TreeSummary } from '../../storage';
import { stageLabel, stageUnit } from '../build/progress-reducer';
import { formatBytes, formatCount, formatDate, formatQuantity } from '../format';
import { devicesLines } from '../build/devices-text';
import { embeddingModelLabel, summarizerLabel } from './model-label';

/** A row's status as the library shows it. */
export type RowStatus = 'ready' | 'building' | 'paused' | 'failed' | 'interrupted';

/** Badge text of each status. */
export const STATUS_LABELS: Readonly<Record<RowStatus, string>> = Object.freeze({
  ready: 'Ready',
  building: 'Building',
  paused: 'Paused',
  failed: 'Failed',
  interrupted: 'Interrupted',
});

/**
 * What the library shows for a tree: a tree being built by a live build (here or in another tab) is
 * "building"; one recorded as building that no live build owns was interrupted (its tab closed).
 */
export function rowStatus(tree: Pick<TreeSummary, 'id' | 'status'>, running: ReadonlySet<string>): RowStatus {
  if (tree.status === 'ready') return 'ready';
  if (running.has(tree.id)) return 'building';
  return tree.status === 'building' ? 'interrupted' : tree.status;
}

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

/** Props of `LibraryRow`. */
export interface LibraryRowProps extends RowActions {
  tree: TreeSummary;
  status: RowStatus;
  active: boolean;
}

/** Documents: the name of a single one, else "3 documents". */
function documentsText(tree: TreeSummary): string {
  const docs = tree.documents;
  const text = docs.length === 1 ? docs[0].name : formatQuantity(docs.length, 'document');
  return docs.length > 0 && docs.every((d) => !d.textStored) ? `${text} (text not stored)` : text;
}

/** "PDF kept: 2.1 MB" (the original files kept with the tree), or what could not be kept; '' when none. */
export function originalsText(tree: TreeSummary): string {
  const kept = tree.documents.filter((d) => d.original?.kept);
  const bytes = kept.reduce(
    (sum, d) => sum + (d.original?.kept ? d.original.bytes + d.original.layoutBytes : 0),
    0,
  );
  const missing = tree.documents.filter((d) => d.original && !d.original.kept).length;
  const parts: string[] = [];
  if (kept.length > 0)
    parts.push(`${kept.length === 1 ? 'PDF' : `${kept.length} PDFs`} kept: ${formatBytes(bytes)}`);
  if (missing > 0) parts.push(`${formatQuantity(missing, 'PDF')} not kept (text view only)`);
  return parts.join(' · ');
}

/** "2 layers · nodes per layer 34 / 6 / 1", "412 leaves" before any summary layer, or '' before any node. */
function shapeText(tree: TreeSummary): string {
  const counts = tree.nodesPerLayer;
  if (counts.length === 0) return '';
  if (counts.length === 1) return formatQuantity(counts[0], 'leaf', 'leaves');
  const layers = Math.max(tree.layers, counts.length - 1);
  return `${formatQuantity(layers, 'layer')} · nodes per layer ${counts.map((n) => formatCount(n)).join(' / ')}`;
}

/** "Stopped at Summarizing layer 2 (12 / 40 summaries)" for an unfinished build with a checkpoint. */
function checkpointText(tree: TreeSummary, status: RowStatus): string | undefined {
  const c = tree.checkpoint;
  if (!c || c.stage === 'done' || status === 'ready') return undefined;
  const label = stageLabel(c.stage, c.layer > 0 ? c.layer : undefined);
  const counts =
    c.stage === 'model-load'
      ? `${formatBytes(c.done)} / ${formatBytes(c.total)}`
      : `${formatCount(c.done)} / ${formatCount(c.total)} ${stageUnit(c.stage)}`;
  return `${status === 'building' ? 'Now' : 'Stopped at'}: ${label} (${counts})`;
}

/** One library row; see the module comment. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function LibraryRow({
  tree,
  status,
  active,
  onOpen,
  onRename,
  onAskDelete,
  onExport,
  onResume,
  onDuplicate,
}: LibraryRowProps) {
  const titleId = useId();
  const errorId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(tree.title);
  const [error, setError] = useState<string | undefined>(undefined);
  const inputRef = useRef<HTMLInputElement>(null);
  const renameRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  useEffect(() => {
    if (editing) inputRef.current?.select();
    else if (wasEditing.current) renameRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const startRename = () => {
    setDraft(tree.title);
    setError(undefined);
    setEditing(true);
  };
  const commit = () => {
    const title = draft.trim();
    if (title === '') {
      setError('A title cannot be empty.');
      return;
    }
    if (title !== tree.title) onRename(tree.id, title);
    setEditing(false);
  };

  const stoppedAt = checkpointText(tree, status);
  const shape = shapeText(tree);
  const canResume = status === 'paused' || status === 'failed' || status === 'interrupted';
  const title = tree.title;

  return (
    <li
      className={`card library-row is-${status}${active ? ' is-active' : ''}`}
      aria-current={active || undefined}
    >
      <div className="library-row-head">
        {editing ? (
          <div className="library-rename">
            <input
              ref={inputRef}
              type="text"
              aria-label={`New title for ${title}`}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              maxLength={TREE_LIMITS.maxNameChars}
              value={draft}
              onChange={(e) => {
                setDraft(e.target.value);
                setError(undefined);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  commit();
                } else if (e.key === 'Escape') {
                  // Handled here: Escape must not also close whatever panel or dialog holds the library.
                  e.preventDefault();
                  e.stopPropagation();
                  setEditing(false);
                }
              }}
            />
            <button
              type="button"
              className="library-button"
              aria-label={`Save title of ${title}`}
              onClick={commit}
            >
              Save
            </button>
            <button
              type="button"
              className="library-button"
              aria-label={`Cancel renaming ${title}`}
              onClick={() => setEditing(false)}
            >
              Cancel
            </button>
            {error && (
              <span id={errorId} className="library-rename-error">
                {error}
              </span>
            )}
          </div>
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
      <p className="library-meta">
        <span>{documentsText(tree)}</span>
        {originalsText(tree) && <span className="library-originals">{originalsText(tree)}</span>}
        {shape && <span>{shape}</span>}
        <span>
          <time dateTime={tree.createdAt}>{formatDate(tree.createdAt)}</time>
        </span>
      </p>
      <p className="library-meta">
        <span>
          Embeddings: {embeddingModelLabel(tree.embeddingModel)}
          {tree.embeddingFallbackFrom &&
            ` (instead of ${embeddingModelLabel(tree.embeddingFallbackFrom)}: the model hub was unreachable)`}
        </span>
        <span>Summaries: {summarizerLabel(tree.summarizer)}</span>
      </p>
      {devicesLines(tree.devices).map((line) => (
        <p key={line} className="library-meta library-devices">
          {line}
        </p>
      ))}
      {status === 'failed' && (
        <p className="library-error">{tree.error?.message ?? 'The build stopped with an error.'}</p>
      )}
      {status === 'interrupted' && (
        <p className="library-note">
          The build stopped when its tab was closed or reloaded. Resume continues where it stopped.
        </p>
      )}
      {stoppedAt && <p className="library-note">{stoppedAt}</p>}
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
          onClick={startRename}
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
    </li>
  );
}
