/**
 * Generating a question set with the answering model: N detail questions from sampled leaves and N theme
 * questions from sampled summaries. The number of LLM calls is shown before anything runs.
 */
import { useId, useMemo, useState } from 'react';
import {
  DEFAULT_GENERATION_SEED,
  DETAIL_QUESTION_TEMPLATE,
  generationCallCount,
  planQuestionGeneration,
  QUESTION_SYSTEM_PROMPT,
  THEME_QUESTION_TEMPLATE,
} from '../../core/eval';
import type { RaptorTree } from '../../core/types';

/** Questions of each kind asked for by default. */
const DEFAULT_COUNT = 10;
/** Most questions of each kind one generation may ask for. */
export const MAX_GENERATED_PER_KIND = 200;

/** Props of `GenerateForm`. */
export interface GenerateFormProps {
  tree: RaptorTree;
  /** The model that will write them, or undefined when none is set. */
  model?: string;
  /** Generating now: done of total calls, and a status line while the model loads. */
  progress?: { done: number; total: number; status?: string };
  onGenerate(count: number, seed: number): void;
  onCancel(): void;
  onClose(): void;
}

/** The generation form; see the module comment. */
export function GenerateForm({ tree, model, progress, onGenerate, onCancel, onClose }: GenerateFormProps) {
  const id = useId();
  const [countText, setCountText] = useState(String(DEFAULT_COUNT));
  const [seedText, setSeedText] = useState(String(DEFAULT_GENERATION_SEED));
  const count = Number(countText);
  const seed = Number(seedText);
  const valid =
    Number.isInteger(count) &&
    count >= 1 &&
    count <= MAX_GENERATED_PER_KIND &&
    Number.isInteger(seed) &&
    seed >= 0;
  const plan = useMemo(
    () => (valid ? planQuestionGeneration(tree, count, seed) : undefined),
    [tree, count, seed, valid],
  );

  if (!model) {
    return (
      <div className="eval-subform">
        <p>
          Generating questions needs an answering model: set an endpoint or the built-in model in Settings.
        </p>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    );
  }
  return (
    <div className="eval-subform">
      <div className="eval-row">
        <label htmlFor={`${id}-n`}>Questions of each kind</label>
        <input
          id={`${id}-n`}
          type="number"
          min={1}
          max={MAX_GENERATED_PER_KIND}
          value={countText}
          onChange={(e) => setCountText(e.target.value)}
          disabled={!!progress}
        />
        <label htmlFor={`${id}-seed`}>Sample seed</label>
        <input
          id={`${id}-seed`}
          type="number"
          min={0}
          value={seedText}
          onChange={(e) => setSeedText(e.target.value)}
          disabled={!!progress}
        />
      </div>
      {plan ? (
        <p className="eval-calls" data-testid="generation-calls">
          This asks <strong>{model}</strong> {generationCallCount(plan)} times: {plan.detail.length} detail
          questions from sampled leaves and {plan.theme.length} theme questions from sampled summaries
          {plan.theme.length < count ? ` (the tree has ${plan.theme.length} summaries)` : ''}. Each question
          keeps the node it was written from as its gold. Replies already cached are not paid for again.
        </p>
      ) : (
        <p className="eval-error" role="alert">
          Give a whole number of questions from 1 to {MAX_GENERATED_PER_KIND} and a seed ≥ 0.
        </p>
      )}
      <details>
        <summary>Prompts</summary>
        <p className="eval-prompt-title">System</p>
        <pre className="eval-prompt">{QUESTION_SYSTEM_PROMPT}</pre>
        <p className="eval-prompt-title">Detail question (from a leaf)</p>
        <pre className="eval-prompt">{DETAIL_QUESTION_TEMPLATE}</pre>
        <p className="eval-prompt-title">Theme question (from a summary)</p>
        <pre className="eval-prompt">{THEME_QUESTION_TEMPLATE}</pre>
      </details>
      {progress ? (
        <div className="eval-row" aria-live="polite">
          <progress max={progress.total || 1} value={progress.done} aria-label="Questions written" />
          <span>{progress.status ?? `${progress.done} of ${progress.total} written`}</span>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="eval-row">
          <button type="button" className="primary" disabled={!plan} onClick={() => onGenerate(count, seed)}>
            Generate
          </button>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </div>
  );
}
