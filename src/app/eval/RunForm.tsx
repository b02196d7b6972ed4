/**
 * Starting a run on the chosen set: which search settings, the context budget and traversal's top-k, and —
 * with an answering model — answers and the optional judge, whose prompts are shown. The number of retrievals
 * and of LLM calls is shown before anything runs.
 */
import { useId, useState } from 'react';
import {
  answerCallCount,
  CHOICE_ANSWER_TEMPLATE,
  EVAL_ANSWER_SYSTEM_PROMPT,
  EVAL_ANSWER_TEMPLATE,
  JUDGE_SYSTEM_PROMPT,
  JUDGE_TEMPLATE,
  RETRIEVAL_MODES,
} from '../../core/eval';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_SEARCH,
  DEFAULT_TRAVERSAL_TOP_K,
  SEARCH_MODES,
  type SearchMode,
} from '../../core/search';
import type { EvalRunOptions, EvalSetRecord } from '../../storage';
import { describeSet } from './SetList';

const SEARCH_LABELS: Record<SearchMode, string> = { meaning: 'Meaning', keywords: 'Keywords', both: 'Both' };
/** Largest context budget offered (a long-context model's whole window). */
const MAX_BUDGET = 200_000;
const MAX_TOP_K = 100;

/** Props of `RunForm`. */
export interface RunFormProps {
  set?: EvalSetRecord;
  /** The answering model's name, or undefined when none is set. */
  model?: string;
  /** Why questions cannot be embedded for this tree now. */
  blocker?: string;
  /** A run or generation is in progress (this form waits). */
  busy: boolean;
  onRun(options: EvalRunOptions): void;
}

/** The run form; see the module comment. */
export function RunForm({ set, model, blocker, busy, onRun }: RunFormProps) {
  const id = useId();
  const [searches, setSearches] = useState<SearchMode[]>([...SEARCH_MODES]);
  const [budget, setBudget] = useState(String(DEFAULT_MAX_TOKENS));
  const [topK, setTopK] = useState(String(DEFAULT_TRAVERSAL_TOP_K));
  // Answers cost LLM calls (or load the built-in model): asked for, never assumed.
  const [answers, setAnswers] = useState(false);
  const [judge, setJudge] = useState(false);
  const maxTokens = Number(budget);
  const traversalTopK = Number(topK);
  const budgetOk = Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= MAX_BUDGET;
  const topKOk = Number.isInteger(traversalTopK) && traversalTopK >= 1 && traversalTopK <= MAX_TOP_K;
  const answering = !!model && answers;
  const questions = set?.questions ?? [];
  // Every mode with every search setting, and plain BM25 over the leaves beside them (the reference).
  const retrievals = questions.length * (RETRIEVAL_MODES.length * searches.length + 1);
  const answerCalls = answering ? answerCallCount(questions, RETRIEVAL_MODES.length, false) : 0;
  const judgeCalls =
    answering && judge ? answerCallCount(questions, RETRIEVAL_MODES.length, true) - answerCalls : 0;
  const reason = !set
    ? 'Choose or add a question set first.'
    : blocker
      ? blocker
      : searches.length === 0
        ? 'Choose at least one search setting.'
        : !budgetOk
          ? `The context budget is a whole number of tokens from 1 to ${MAX_BUDGET}.`
          : !topKOk
            ? `Traversal's top-k is a whole number from 1 to ${MAX_TOP_K}.`
            : undefined;
  const toggle = (s: SearchMode) =>
    setSearches((list) =>
      list.includes(s)
        ? list.filter((x) => x !== s)
        : SEARCH_MODES.filter((x) => x === s || list.includes(x)),
    );

  return (
    <section className="card eval-card eval-run-form" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Run</h3>
      <p>
        {set ? (
          <>
            <strong>{set.name}</strong>: {describeSet(set.questions)}
          </>
        ) : (
          'No set chosen.'
        )}
      </p>
      <fieldset className="eval-fieldset">
        <legend>Search by</legend>
        {SEARCH_MODES.map((s) => (
          <label key={s}>
            <input type="checkbox" checked={searches.includes(s)} onChange={() => toggle(s)} />
            {SEARCH_LABELS[s]}
            {s === DEFAULT_SEARCH ? ' (default)' : ''}
          </label>
        ))}
      </fieldset>
      <div className="eval-row">
        <label htmlFor={`${id}-budget`}>Context tokens</label>
        <input
          id={`${id}-budget`}
          type="number"
          min={1}
          max={MAX_BUDGET}
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
        />
        <label htmlFor={`${id}-topk`}>Traversal top-k</label>
        <input
          id={`${id}-topk`}
          type="number"
          min={1}
          max={MAX_TOP_K}
          value={topK}
          onChange={(e) => setTopK(e.target.value)}
        />
      </div>
      <fieldset className="eval-fieldset">
        <legend>Answers</legend>
        {model ? (
          <>
            <label>
              <input type="checkbox" checked={answers} onChange={(e) => setAnswers(e.target.checked)} />
              Answer with <strong>{model}</strong> (the default search’s three modes)
            </label>
            <label>
              <input
                type="checkbox"
                checked={judge}
                disabled={!answers}
                onChange={(e) => setJudge(e.target.checked)}
              />
              Ask it to judge each free answer against the reference
            </label>
            <details>
              <summary>Prompts</summary>
              <p className="eval-prompt-title">Answer (system)</p>
              <pre className="eval-prompt">{EVAL_ANSWER_SYSTEM_PROMPT}</pre>
              <p className="eval-prompt-title">Answer (free, then multiple choice)</p>
              <pre className="eval-prompt">{EVAL_ANSWER_TEMPLATE}</pre>
              <pre className="eval-prompt">{CHOICE_ANSWER_TEMPLATE}</pre>
              <p className="eval-prompt-title">Judge (system, then request)</p>
              <pre className="eval-prompt">{JUDGE_SYSTEM_PROMPT}</pre>
              <pre className="eval-prompt">{JUDGE_TEMPLATE}</pre>
            </details>
          </>
        ) : (
          <p className="eval-muted">
            Set an answering model in Settings for multiple-choice accuracy, token F1, ROUGE-L and the judge.
          </p>
        )}
      </fieldset>
      <p className="eval-calls" data-testid="run-calls">
        {retrievals} retrievals ({questions.length} questions × 3 modes — collapsed tree, traversal, leaves —
        × {searches.length} search {searches.length === 1 ? 'setting' : 'settings'}, and plain BM25 over the
        leaves beside them), no LLM call
        {answering
          ? `; then ${answerCalls} answers${judgeCalls ? ` and ${judgeCalls} verdicts` : ''} from ${model} (replies already cached are not paid for again)`
          : ''}
        .
      </p>
      {reason && <p className="eval-muted">{reason}</p>}
      <button
        type="button"
        className="primary"
        disabled={!!reason || busy}
        onClick={() =>
          onRun({ searches, maxTokens, traversalTopK, answers: answering, judge: answering && judge })
        }
      >
        Run evaluation
      </button>
    </section>
  );
}
