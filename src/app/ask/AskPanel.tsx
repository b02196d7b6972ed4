/**
 * Asking the open tree a question: the question, the retrieval mode and its options (checked as they are
 * typed), "Ask" and "Compare modes", and the results — an answer with clickable citations when an answering
 * model is set up, otherwise the retrieved context; all three modes side by side after "Compare modes".
 * Presentational: every action is a callback; the state hooks retrieve, stream and store.
 */
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { AskResults, ConversationProps, RetrievalSettings } from '../state/types';
import { questionProblem } from '../conversations/question';
import { AskResultsView } from './AskResultsView';
import { ConversationBar } from './ConversationBar';
import type { PassageSource } from './PassageList';
import { ModeOptions, ModePicker } from './RetrievalFields';
import { SearchConfirm } from './SearchConfirm';
import { SearchControls } from './SearchControls';
import { TurnList } from './TurnList';
import { useRetrievalForm } from './useRetrievalForm';
import './ask.css';

/** Props of `AskPanel`. */
export interface AskPanelProps {
  /** Why asking is impossible now, e.g. "Build or open a tree first."; shown, and the controls are disabled. */
  disabledReason?: string;
  settings: RetrievalSettings;
  /** Top layer of the open tree (0 when it has only leaves). */
  maxLayer: number;
  onSettingsChange(next: RetrievalSettings): void;
  /** A question is being answered: Ask and Compare wait, Stop appears. */
  busy: boolean;
  /** `followUp`: the question continues the conversation (offered once it has earlier turns). */
  onAsk(question: string, followUp: boolean): void;
  /** Runs all three modes. */
  onCompare(question: string, followUp: boolean): void;
  onStop?(): void;
  results?: AskResults;
  onOpenNode(id: number): void;
  /** Shows citation [n]'s passage in the document (the Document tab), from the citation `from`. */
  onOpenCitation?(n: number, nodeId: number, from: HTMLElement, read?: string): void;
  /** False when no answering endpoint is set up: the retrieved context is shown instead of an answer. */
  hasAnswerModel: boolean;
  /** The node open in the inspector; its passages are marked. */
  activeNodeId?: number;
  /** Where each passage stands in the tree and the documents (shown under an answer). */
  sourceOf?(id: number): PassageSource | undefined;
  /** The open tree's conversations, when storage is available. */
  conversation?: ConversationProps;
}

/** The Ask panel; see the module comment. */
export function AskPanel(props: AskPanelProps) {
  const { disabledReason, settings, maxLayer, onSettingsChange, busy, onAsk, onCompare, onStop } = props;
  const disabled = disabledReason !== undefined;
  const ids = useId();
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const [followUp, setFollowUp] = useState(true);
  const canFollowUp = (props.conversation?.turns.length ?? 0) > 0 || props.results !== undefined;
  const [questionError, setQuestionError] = useState<string>();
  const form = useRetrievalForm(settings, maxLayer, onSettingsChange);

  const submit = (kind: 'ask' | 'compare') => {
    if (disabled || busy) return;
    const text = (questionRef.current?.value ?? '').trim();
    const problem = questionProblem(text);
    if (problem !== undefined) {
      setQuestionError(problem);
      questionRef.current?.focus();
      return;
    }
    if (!form.readyFor(kind)) return;
    (kind === 'compare' ? onCompare : onAsk)(text, canFollowUp && followUp);
  };

  const onQuestionKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit('ask');
  };

  const describedBy = [disabled && `${ids}-reason`, questionError && `${ids}-qerror`]
    .filter(Boolean)
    .join(' ');
  return (
    <section className="ask-panel" aria-labelledby={`${ids}-heading`}>
      <h2 className="ask-heading" id={`${ids}-heading`}>
        Ask
      </h2>
      {props.conversation && <ConversationBar {...props.conversation.bar} />}
      {disabled && (
        <p className="ask-disabled-reason" id={`${ids}-reason`}>
          {disabledReason}
        </p>
      )}
      <form
        className="ask-form"
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          submit('ask');
        }}
      >
        <fieldset className="ask-controls" disabled={disabled}>
          <label className="ask-label" htmlFor={`${ids}-question`}>
            Question
          </label>
          <textarea
            ref={questionRef}
            id={`${ids}-question`}
            className="ask-question"
            rows={2}
            defaultValue=""
            placeholder="What is this document about?"
            aria-describedby={describedBy || undefined}
            aria-invalid={questionError !== undefined || undefined}
            // Uncontrolled, so a keystroke renders nothing; only a shown error is cleared.
            onChange={() => {
              if (questionError !== undefined) setQuestionError(undefined);
            }}
            onKeyDown={onQuestionKeyDown}
          />
          <p className="ask-field-error" id={`${ids}-qerror`}>
            {questionError}
          </p>
          <ModePicker idPrefix={ids} mode={settings.mode} onChoose={form.chooseMode} />
          <ModeOptions idPrefix={ids} settings={settings} maxLayer={maxLayer} form={form} />
          <SearchControls settings={settings} onChange={onSettingsChange} />
          {form.formError !== undefined && (
            <p className="ask-form-error" role="alert">
              {form.formError}
            </p>
          )}
          {canFollowUp && props.conversation && (
            <label className="ask-check">
              <input type="checkbox" checked={followUp} onChange={(e) => setFollowUp(e.target.checked)} />
              Follow-up to the questions before (uncheck for a new topic)
            </label>
          )}
          <div className="ask-actions">
            <button type="submit" className="ask-primary" aria-disabled={busy || undefined}>
              Ask
            </button>
            <button type="button" aria-disabled={busy || undefined} onClick={() => submit('compare')}>
              Compare modes
            </button>
            {busy && onStop !== undefined && (
              <button type="button" className="ask-stop" onClick={onStop}>
                Stop
              </button>
            )}
          </div>
        </fieldset>
      </form>
      {props.conversation && (
        <ConversationTurns
          conversation={props.conversation}
          onOpenNode={props.onOpenNode}
          onOpenCitation={props.onOpenCitation}
        />
      )}
      <AskResultsView
        results={props.results}
        busy={busy}
        settings={settings}
        hasAnswerModel={props.hasAnswerModel}
        onOpenNode={props.onOpenNode}
        onOpenCitation={props.onOpenCitation}
        activeNodeId={props.activeNodeId}
        disabledReason={disabledReason}
        sourceOf={props.sourceOf}
      />
    </section>
  );
}

/** The conversation's turns above the results, and the confirmation of a rewritten search when one waits. */
function ConversationTurns({
  conversation,
  onOpenNode,
  onOpenCitation,
}: Pick<AskPanelProps, 'onOpenNode' | 'onOpenCitation'> & { conversation: ConversationProps }) {
  return (
    <>
      <TurnList
        turns={conversation.turns}
        earlier={conversation.earlier}
        onShowEarlier={conversation.onShowEarlier}
        stamp={conversation.stamp}
        onOpenNode={onOpenNode}
        onOpenCitation={onOpenCitation}
      />
      {conversation.pending && (
        <SearchConfirm
          pending={conversation.pending}
          onConfirm={conversation.onConfirm}
          onCancel={conversation.onCancelPending}
        />
      )}
    </>
  );
}
