/**
 * The results under the Ask form: the empty state, the answer with its sources, the retrieved context, or all
 * three modes side by side.
 */
import { memo } from 'react';
import { MODE_LABELS, modeColorVar, RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import { Notice } from '../notices/Notice';
import type { AnswerState, AskResults, RetrievalSettings } from '../state/types';
import { AnswerView } from './AnswerView';
import { citationNodeIds, splitCitations } from './citations';
import { CompareView, ModeTotals, PassageList, type PassageSource } from './PassageList';

/** What the results under the form show (the Ask panel's props of the same names). */
export interface ResultsViewProps {
  results?: AskResults;
  busy: boolean;
  settings: RetrievalSettings;
  hasAnswerModel: boolean;
  onOpenNode(id: number): void;
  onOpenCitation?(n: number, nodeId: number, from: HTMLElement, read?: string): void;
  activeNodeId?: number;
  disabledReason?: string;
  sourceOf?(id: number): PassageSource | undefined;
}

/**
 * The results under the form: empty state, answer, context or the comparison. Memoised: a keystroke in the
 * question box changes none of its props, so it does not render the passages again.
 */
export const AskResultsView = memo(function AskResultsView({
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
