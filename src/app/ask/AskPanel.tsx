/**
 * Asking the open tree a question: the question, the retrieval mode and its options (checked as they are
 * typed), "Ask" and "Compare modes", and the results — an answer with clickable citations when an answering
 * model is set up, otherwise the retrieved context; all three modes side by side after "Compare modes".
 * Presentational: every action is a callback; the state hooks retrieve, stream and store.
 */
import { memo, useId, useRef, useState, type CSSProperties, type FormEvent, type KeyboardEvent } from 'react';
import { MODE_LABELS, modeColorVar, RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import { Notice } from '../notices/Notice';
import type { AnswerState, AskResults, ConversationProps, RetrievalSettings } from '../state/types';
import { questionProblem } from '../conversations/question';
import { AnswerView } from './AnswerView';
import { ConversationBar } from './ConversationBar';
import { SearchConfirm } from './SearchConfirm';
import { SearchControls } from './SearchControls';
import { TurnList } from './TurnList';
import { citationNodeIds, splitCitations } from './citations';
import { CompareView, ModeTotals, PassageList, type PassageSource } from './PassageList';
import {
  fieldBounds,
  fieldError,
  MODE_FIELDS,
  settingsErrors,
  withField,
  type FieldSpec,
  type RetrievalField,
} from './retrieval-form';
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

type Drafts = Partial<Record<RetrievalField, string>>;

/** The Ask panel; see the module comment. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function AskPanel(props: AskPanelProps) {
  const { disabledReason, settings, maxLayer, onSettingsChange, busy, onAsk, onCompare, onStop } = props;
  const disabled = disabledReason !== undefined;
  const ids = useId();
  const questionRef = useRef<HTMLTextAreaElement>(null);
  const fieldRefs = useRef(new Map<RetrievalField, HTMLInputElement>());
  const [followUp, setFollowUp] = useState(true);
  const canFollowUp = (props.conversation?.turns.length ?? 0) > 0 || props.results !== undefined;
  const [questionError, setQuestionError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  // What the user typed into each option while it is not (yet) a valid value; the settings hold valid ones.
  const [drafts, setDrafts] = useState<Drafts>({});

  const valueOf = (field: RetrievalField) => drafts[field] ?? String(settings[field]);
  const errorOf = (field: RetrievalField) => fieldError(field, valueOf(field), settings, maxLayer);

  const chooseMode = (mode: RetrievalMode) => {
    setDrafts({});
    setFormError(undefined);
    onSettingsChange({ ...settings, mode });
  };

  const editField = (field: RetrievalField, raw: string) => {
    setFormError(undefined);
    if (fieldError(field, raw, settings, maxLayer) !== undefined) {
      setDrafts((d) => ({ ...d, [field]: raw }));
      return;
    }
    // The depth's bounds follow the start layer, so a stale draft of it would be checked against old bounds.
    setDrafts(({ [field]: _own, traversalLayers, ...rest }) =>
      field === 'traversalStartLayer' || field === 'traversalLayers' ? rest : { ...rest, traversalLayers },
    );
    onSettingsChange(withField(settings, field, Number(raw.trim())));
  };

  const submit = (kind: 'ask' | 'compare') => {
    if (disabled || busy) return;
    const text = (questionRef.current?.value ?? '').trim();
    const problem = questionProblem(text);
    if (problem !== undefined) {
      setQuestionError(problem);
      questionRef.current?.focus();
      return;
    }
    const invalid = MODE_FIELDS[settings.mode].find((spec) => errorOf(spec.field) !== undefined);
    if (invalid !== undefined) {
      fieldRefs.current.get(invalid.field)?.focus();
      return;
    }
    if (kind === 'compare') {
      const other = settingsErrors(settings, maxLayer)[0];
      if (other !== undefined) {
        setFormError(
          `${MODE_LABELS[other.mode]} cannot run: ${other.spec.label} — ${other.message} Select that mode to change it.`,
        );
        return;
      }
      onCompare(text, canFollowUp && followUp);
    } else {
      onAsk(text, canFollowUp && followUp);
    }
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

          <fieldset className="ask-modes" role="radiogroup" aria-labelledby={`${ids}-modes`}>
            <legend className="ask-label" id={`${ids}-modes`}>
              Retrieval mode
            </legend>
            <div className="ask-mode-options">
              {RETRIEVAL_MODES.map((mode) => (
                <label
                  key={mode}
                  className="ask-mode"
                  data-mode={mode}
                  style={{ '--mode': modeColorVar(mode) } as CSSProperties}
                >
                  <input
                    type="radio"
                    name={`${ids}-mode`}
                    value={mode}
                    checked={settings.mode === mode}
                    onChange={() => chooseMode(mode)}
                  />
                  <span className="mode-dot" aria-hidden="true" />
                  {MODE_LABELS[mode]}
                </label>
              ))}
            </div>
          </fieldset>

          <div className="ask-options" data-mode={settings.mode}>
            {MODE_FIELDS[settings.mode].map((spec) => (
              <OptionField
                key={spec.field}
                spec={spec}
                idPrefix={ids}
                value={valueOf(spec.field)}
                error={errorOf(spec.field)}
                bounds={fieldBounds(spec.field, settings, maxLayer)}
                inputRef={(el) => {
                  if (el === null) fieldRefs.current.delete(spec.field);
                  else fieldRefs.current.set(spec.field, el);
                }}
                onChange={(raw) => editField(spec.field, raw)}
                onBlur={() => {
                  if (drafts[spec.field] !== undefined && errorOf(spec.field) === undefined) {
                    setDrafts(({ [spec.field]: _dropped, ...rest }) => rest);
                  }
                }}
              />
            ))}
          </div>

          <SearchControls settings={settings} onChange={onSettingsChange} />

          {formError !== undefined && (
            <p className="ask-form-error" role="alert">
              {formError}
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
        <>
          <TurnList
            turns={props.conversation.turns}
            earlier={props.conversation.earlier}
            onShowEarlier={props.conversation.onShowEarlier}
            stamp={props.conversation.stamp}
            onOpenNode={props.onOpenNode}
            onOpenCitation={props.onOpenCitation}
          />
          {props.conversation.pending && (
            <SearchConfirm
              pending={props.conversation.pending}
              onConfirm={props.conversation.onConfirm}
              onCancel={props.conversation.onCancelPending}
            />
          )}
        </>
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

interface OptionFieldProps {
  spec: FieldSpec;
  idPrefix: string;
  value: string;
  error: string | undefined;
  bounds: { min: number; max?: number };
  inputRef(el: HTMLInputElement | null): void;
  onChange(raw: string): void;
  onBlur(): void;
}

/** One numeric option: a short visible label, a scoped accessible name, a hint and its error. */
function OptionField({ spec, idPrefix, value, error, bounds, inputRef, onChange, onBlur }: OptionFieldProps) {
  const id = `${idPrefix}-${spec.field}`;
  return (
    <div className="ask-option" data-invalid={error !== undefined || undefined}>
      <label className="ask-option-label" htmlFor={id}>
        {spec.label}
      </label>
      <input
        ref={inputRef}
        id={id}
        type="number"
        inputMode="numeric"
        step={1}
        min={bounds.min}
        max={bounds.max}
        value={value}
        aria-label={spec.name === spec.label ? undefined : spec.name}
        aria-invalid={error !== undefined || undefined}
        aria-describedby={`${id}-note`}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      <p className={error === undefined ? 'ask-option-hint' : 'ask-field-error'} id={`${id}-note`}>
        {error ?? spec.hint}
      </p>
    </div>
  );
}

/** What the results under the form show. */
type ResultsViewProps = Pick<
  AskPanelProps,
  | 'results'
  | 'busy'
  | 'settings'
  | 'hasAnswerModel'
  | 'onOpenNode'
  | 'onOpenCitation'
  | 'activeNodeId'
  | 'disabledReason'
  | 'sourceOf'
>;

/**
 * The results under the form: empty state, answer, context or the comparison. Memoised: a keystroke in the
 * question box changes none of its props, so it does not render the passages again.
 */
const AskResultsView = memo(function AskResultsView({
  results,
  busy,
  settings,
  hasAnswerModel,
  onOpenNode,
  onOpenCitation,
  activeNodeId,
  disabledReason,
  sourceOf,
}: ResultsViewProps) {
  if (results === undefined) {
    return (
      <div className="ask-results" data-state={busy ? 'busy' : 'empty'}>
        <div className="ask-results-head">
          <p className="ask-status" role="status">
            {busy ? 'Retrieving passages…' : ''}
          </p>
        </div>
        {!busy && disabledReason === undefined && (
          <p className="ask-muted">
            Ask a question to see the passages each retrieval mode picks from the tree
            {hasAnswerModel ? ' and an answer that cites them.' : '.'}
          </p>
        )}
        {!hasAnswerModel && <NoAnswerModelNote />}
      </div>
    );
  }

  const modes = RETRIEVAL_MODES.filter((m) => results.results[m] !== undefined);
  const answer = results.answer;
  const answerPassages = answer === undefined ? [] : (results.results[answer.mode]?.passages ?? []);
  const budgets: Partial<Record<RetrievalMode, number>> = {
    collapsed: settings.collapsedMaxTokens,
    leaves: settings.leavesMaxTokens,
  };
  const single = modes.length === 1 ? results.results[modes[0]] : undefined;
  const cited = answer === undefined ? undefined : citedNodes(answer, answerPassages);
  return (
    <div className="ask-results" data-state={busy ? 'busy' : 'done'}>
      <div className="ask-results-head">
        <h3 className="ask-results-heading">Results</h3>
        <p className="ask-status" role="status">
          {busy && answer?.streaming !== true ? 'Retrieving passages…' : ''}
        </p>
      </div>
      <blockquote className="ask-results-question">{results.question}</blockquote>
      {results.search !== undefined && <p className="turn-search">Searched for: {results.search}</p>}
      {results.notes?.map((note) => (
        <p key={note} className="ask-note" role="note">
          {note}
        </p>
      ))}
      {answer !== undefined && (
        <AnswerView
          answer={answer}
          passages={answerPassages}
          onOpenNode={onOpenNode}
          onOpenCitation={onOpenCitation}
        />
      )}
      {answer === undefined && !hasAnswerModel && <NoAnswerModelNote />}
      {single !== undefined && (
        <section className="ask-context" aria-label="Retrieved context" data-mode={single.mode}>
          <h3 className="ask-context-heading">
            <span className="mode-dot" style={{ background: modeColorVar(single.mode) }} aria-hidden="true" />
            {answer ? 'Sources of the answer' : 'Retrieved context'} · {MODE_LABELS[single.mode]}
          </h3>
          <ModeTotals result={single} budget={budgets[single.mode]} />
          <PassageList
            mode={single.mode}
            passages={single.passages}
            onOpenNode={onOpenNode}
            activeNodeId={activeNodeId}
            citedNodeIds={answer?.streaming ? undefined : cited}
            sourceOf={sourceOf}
            label={answer ? 'Sources of the answer, in the order sent' : undefined}
          />
        </section>
      )}
      {modes.length > 1 && (
        <CompareView
          results={results.results}
          budgets={budgets}
          initialMode={answer?.mode ?? settings.mode}
          onOpenNode={onOpenNode}
          activeNodeId={activeNodeId}
          sourceOf={sourceOf}
        />
      )}
    </div>
  );
});

/** Node ids of the passages the answer's text cites so far (it may still be streaming). */
function citedNodes(answer: AnswerState, passages: readonly { id: number }[]): ReadonlySet<number> {
  const segments = splitCitations(answer.text, citationNodeIds(passages, answer.citations));
  return new Set(segments.flatMap((s) => (s.kind === 'citation' ? [s.nodeId] : [])));
}

function NoAnswerModelNote() {
  return (
    <Notice kind="info" title="No answering model is set up.">
      Aerie shows the retrieved context instead of a written answer. To get answers that cite the passages,
      add an answering endpoint in Settings, or choose the built-in model (it runs in this browser).
    </Notice>
  );
}
