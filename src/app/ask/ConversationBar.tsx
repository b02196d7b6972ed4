/**
 * The open tree's conversations: which one continues (a list), a new one, export as Markdown, delete this one
 * or all (asked twice). Presentational.
 */
import { memo, useId, useState } from 'react';
import type { ConversationBarProps } from '../state/types';
import './ask.css';
import './conversation.css';

const NEW = '';

/** The conversation bar; see the module comment. Memoised: typing a question does not render it again. */
export const ConversationBar = memo(function ConversationBar(props: ConversationBarProps) {
  const { conversations, activeId, onSelect, onNew, onExport, onDelete, onDeleteAll } = props;
  const id = useId();
  const [confirmAll, setConfirmAll] = useState(false);
  const count = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'question' : 'questions'}`;
  return (
    <div className="card conversation-bar">
      <label className="ask-label" htmlFor={`${id}-select`}>
        Conversation
      </label>
      <div className="conversation-row">
        <select
          id={`${id}-select`}
          value={activeId ?? NEW}
          onChange={(e) => (e.target.value === NEW ? onNew() : onSelect(e.target.value))}
        >
          <option value={NEW}>New conversation</option>
          {conversations.map((c) => (
            <option key={c.id} value={c.id}>
              {`${c.title} (${count(c.turns)})`}
            </option>
          ))}
        </select>
        {activeId !== undefined && (
          <>
            <button type="button" onClick={onNew}>
              New
            </button>
            <button type="button" onClick={onExport}>
              Export Markdown
            </button>
            <button type="button" onClick={() => onDelete(activeId)}>
              Delete
            </button>
          </>
        )}
        {conversations.length > 0 &&
          (confirmAll ? (
            <span className="conversation-confirm" role="group" aria-label="Delete all conversations?">
              Delete all {conversations.length}?
              <button
                type="button"
                onClick={() => {
                  setConfirmAll(false);
                  onDeleteAll();
                }}
              >
                Delete all
              </button>
              <button type="button" onClick={() => setConfirmAll(false)}>
                Keep
              </button>
            </span>
          ) : (
            <button type="button" onClick={() => setConfirmAll(true)}>
              Delete all…
            </button>
          ))}
      </div>
    </div>
  );
});
