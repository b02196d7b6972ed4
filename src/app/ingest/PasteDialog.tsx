/**
 * A modal dialog to paste text as a document: the text, a name for it, "Add" and "Cancel". A native <dialog>
 * opened with showModal(), so focus is trapped inside, the page behind is inert, and Escape cancels; focus goes
 * back to what had it before (the "Paste text" button) when the dialog closes.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import './ingest.css';

/** Name of a pasted document when the user gives none. */
export const DEFAULT_PASTE_NAME = 'Pasted text';

/** Props of `PasteDialog`. Render it to open it; unmount it to close it. */
export interface PasteDialogProps {
  /** The text as pasted, and its name (trimmed; `DEFAULT_PASTE_NAME` when left empty). */
  onAdd(text: string, name: string): void;
  /** Cancel, Escape. */
  onCancel(): void;
}

/** The paste dialog; see the module comment. */
export function PasteDialog({ onAdd, onCancel }: PasteDialogProps) {
  const ids = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog === null) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    return () => {
      dialog.close();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') {
      setError('Paste or type some text first.');
      return;
    }
    onAdd(text, name.trim() || DEFAULT_PASTE_NAME);
  };

  return (
    <dialog
      ref={dialogRef}
      className="paste-dialog"
      aria-labelledby={`${ids}-title`}
      onCancel={(event) => {
        // Escape: the parent decides (it unmounts the dialog), so the dialog never closes behind its back.
        event.preventDefault();
        onCancel();
      }}
      onClose={() => {
        // A close the browser forced (e.g. a second Escape) while the dialog is still rendered.
        if (dialogRef.current?.open === false && dialogRef.current.isConnected) onCancel();
      }}
    >
      <form className="paste-form" onSubmit={submit} noValidate>
        <h2 className="paste-title" id={`${ids}-title`}>
          Paste text
        </h2>
        <label className="paste-label" htmlFor={`${ids}-text`}>
          Text
        </label>
        <textarea
          id={`${ids}-text`}
          className="paste-text"
          value={text}
          autoFocus
          rows={12}
          aria-invalid={error !== undefined || undefined}
          aria-describedby={error === undefined ? undefined : `${ids}-error`}
          onChange={(e) => {
            setText(e.target.value);
            setError(undefined);
          }}
        />
        {error !== undefined && (
          <p className="paste-error" id={`${ids}-error`} role="alert">
            {error}
          </p>
        )}
        <label className="paste-label" htmlFor={`${ids}-name`}>
          Name
        </label>
        <input
          id={`${ids}-name`}
          className="paste-name"
          type="text"
          value={name}
          placeholder={DEFAULT_PASTE_NAME}
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
        />
        <div className="paste-actions">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="ingest-primary">
            Add
          </button>
        </div>
      </form>
    </dialog>
  );
}
