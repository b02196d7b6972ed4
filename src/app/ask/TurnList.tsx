/**
 * The earlier turns of the conversation: each question, what was searched when a follow-up was made
 * standalone, the answer with its citations (buttons that open the node and its passage) and the passages in
 * a disclosure. A turn asked before the tree was rebuilt shows its stored passages and no node links: the ids
 * now name other nodes. Model and document text is rendered as text. Presentational.
 *
 * Long conversations: only the latest turns are given (the rest are offered a page at a time, "Show earlier
 * questions"), and the list is memoised on its props, so a keystroke in the question box or a streamed
 * answer never renders the turns again.
 */
import { memo, useCallback } from 'react';
import type { ConversationTurn } from '../../storage';
import { CitationButton, type CitationOpener } from './AnswerView';
import { citationNodeIds, splitCitations } from './citations';
import { layerLabel } from './retrieval-form';
import './ask.css';
import './conversation.css';

/** Props of `TurnList`. */
export interface TurnListProps {
  turns: readonly ConversationTurn[];
  /** Turns before `turns` not shown (0: the list starts at the conversation's first question). */
  earlier?: number;
  onShowEarlier?(): void;
  /** The open tree's build stamp (`treeStampOf`): turns with another stamp were asked of an earlier build. */
  stamp?: string;
  onOpenNode(id: number): void;
  /** Shows citation [n]'s passage in the document. */
  /** `read`: the passage's text as it was sent (an excerpt of the node, or its whole text). */
  onOpenCitation?(n: number, nodeId: number, from: HTMLElement, read?: string): void;
}

/** "1 question", "1,000 questions". */
const questions = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'question' : 'questions'}`;

/** The earlier turns; see the module comment. */
export const TurnList = memo(function TurnList({
  turns,
  earlier = 0,
  onShowEarlier,
  stamp,
  onOpenNode,
  onOpenCitation,
}: TurnListProps) {
  const open: CitationOpener = useCallback(
    (segment, from) =>
      onOpenCitation ? onOpenCitation(segment.n, segment.nodeId, from) : onOpenNode(segment.nodeId),
    [onOpenCitation, onOpenNode],
  );
  if (turns.length === 0 && earlier === 0) return null;
  return (
    <>
      {earlier > 0 && onShowEarlier && (
        <p className="turn-earlier">
          <button type="button" className="ask-link" onClick={onShowEarlier}>
            Show earlier questions
          </button>{' '}
          ({questions(earlier)} before these)
        </p>
      )}
      <ol className="turn-list" aria-label="Earlier questions in this conversation">
        {turns.map((turn) => (
          <Turn
            key={turn.id}
            turn={turn}
            stale={stamp !== undefined && turn.treeStamp !== stamp}
            onOpenNode={onOpenNode}
            open={open}
          />
        ))}
      </ol>
    </>
  );
});

/** One turn: memoised too, so reading an earlier page renders only the new turns. */
const Turn = memo(function Turn({
  turn,
  stale,
  onOpenNode,
  open,
}: {
  turn: ConversationTurn;
  stale: boolean;
  onOpenNode(id: number): void;
  open: CitationOpener;
}) {
  const answer = turn.answer;
  const nodeIds = citationNodeIds(turn.passages, answer?.citations);
  return (
    <li className="turn" data-stale={stale || undefined}>
      <p className="turn-question">{turn.question}</p>
      {turn.search !== turn.question && (
        <p className="turn-search">
          Searched for
          {turn.rewrite === 'llm'
            ? ' (rewritten by the model)'
            : turn.rewrite === 'joined'
              ? ' (joined with the questions before)'
              : ''}
          : {turn.search}
        </p>
      )}
      {stale && (
        <p className="turn-stale">
          Asked before the tree was rebuilt: its passages are shown as they were, without links to nodes.
        </p>
      )}
      {answer && (
        <p className="turn-answer">
          {splitCitations(answer.text, stale ? [] : nodeIds).map((segment) =>
            segment.kind === 'text' ? (
              <span key={segment.start}>{segment.text}</span>
            ) : (
              <CitationButton key={segment.start} segment={segment} open={open} />
            ),
          )}
          {answer.error !== undefined && <span className="turn-error"> ({answer.error})</span>}
        </p>
      )}
      {turn.passages.length > 0 && (
        <details className="turn-passages">
          <summary>
            {turn.passages.length} {turn.passages.length === 1 ? 'passage' : 'passages'}
          </summary>
          <ol>
            {turn.passages.map((p, i) => (
              <li key={`${p.id}-${i}`} data-node-id={p.id}>
                <span className="turn-passage-head">
                  [{i + 1}] {layerLabel(p.layer)}{' '}
                  {stale ? (
                    `node ${p.id}`
                  ) : (
                    <button type="button" className="ask-link" onClick={() => onOpenNode(p.id)}>
                      Open node {p.id}
                    </button>
                  )}
                </span>
                <span className="turn-passage-text">{p.text}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
});
