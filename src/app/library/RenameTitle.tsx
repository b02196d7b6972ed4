/**
 * Renaming a library row's tree inline: Enter or Save keeps the new title, Escape or Cancel drops it, an empty
 * title is refused with a sentence. Focus goes to the input when renaming starts and back to the row's Rename
 * button when it ends.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { TREE_LIMITS } from '../../core/tree-limits';

/** The rename state of one row: `start` from its Rename button, the field reads and ends it. */
export function useRename(
  tree: { id: string; title: string },
  onRename: (id: string, title: string) => void,
) {
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

  const start = () => {
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
  const change = (value: string) => {
    setDraft(value);
    setError(undefined);
  };
  const cancel = () => setEditing(false);

  return { editing, draft, error, inputRef, renameRef, start, commit, change, cancel };
}

/** What `useRename` gives a row. */
export type RenameState = ReturnType<typeof useRename>;

/** The title's input with Save and Cancel, named after the tree's current `title`. */
export function RenameField({ title, rename }: { title: string; rename: RenameState }) {
  const errorId = useId();
  const { draft, error, inputRef, commit, change, cancel } = rename;
  return (
    <div className="library-rename">
      <input
        ref={inputRef}
        type="text"
        aria-label={`New title for ${title}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        maxLength={TREE_LIMITS.maxNameChars}
        value={draft}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          } else if (e.key === 'Escape') {
            // Handled here: Escape must not also close whatever panel or dialog holds the library.
            e.preventDefault();
            e.stopPropagation();
            cancel();
          }
        }}
      />
      <button type="button" className="library-button" aria-label={`Save title of ${title}`} onClick={commit}>
        Save
      </button>
      <button
        type="button"
        className="library-button"
        aria-label={`Cancel renaming ${title}`}
        onClick={cancel}
      >
        Cancel
      </button>
      {error && (
        <span id={errorId} className="library-rename-error">
          {error}
        </span>
      )}
    </div>
  );
}
