/**
 * A follow-up's standalone search before it runs: "Rewriting…" while the answering model works, then its
 * rewrite in an editable box, with "Search" (as shown or edited), "Use my question" and "Cancel".
 * Presentational.
 */
import { useEffect, useId, useState } from 'react';
import type { PendingSearch } from '../state/types';
import './ask.css';
import './conversation.css';

/** Props of `SearchConfirm`. */
export interface SearchConfirmProps {
  pending: PendingSearch;
  onConfirm(search: string): void;
  onCancel(): void;
}

/** The pending follow-up; see the module comment. */
export function SearchConfirm({ pending, onConfirm, onCancel }: SearchConfirmProps) {
  const id = useId();
  const [text, setText] = useState(pending.proposed ?? '');
  useEffect(() => setText(pending.proposed ?? ''), [pending.proposed]);
  if (pending.status === 'rewriting') {
    return (
      <div className="search-confirm" role="status">
        <p>Making the follow-up a standalone search…</p>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <form
      className="search-confirm"
      aria-label="Standalone search for the follow-up"
      onSubmit={(e) => {
        e.preventDefault();
        onConfirm(text);
      }}
    >
      {pending.note && <p className="ask-field-error">{pending.note}</p>}
      <label className="ask-label" htmlFor={`${id}-search`}>
        {pending.rewrite === 'llm'
          ? 'Search for (rewritten by the model; edit it if you like)'
          : 'Search for'}
      </label>
      <textarea
        id={`${id}-search`}
        className="ask-question"
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="ask-actions">
        <button type="submit" className="ask-primary">
          Search
        </button>
        <button type="button" onClick={() => onConfirm(pending.question)}>
          Use my question
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
