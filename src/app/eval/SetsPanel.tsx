/**
 * The tree's question sets: pick one, export or delete it, and add one by importing a JSONL or CSV file, typing
 * questions, generating them with the answering model or copying a set from another tree. A file's bad rows are
 * listed by row and field; its good rows are kept.
 */
import { useId, useRef, useState } from 'react';
import { questionSetSummary, serializeQuestionSet, type EvalQuestion } from '../../core/eval';
import type { RaptorTree } from '../../core/types';
import type { EvalSetRecord } from '../../storage';
import { download, safeFileBase } from '../download';
import { formatDate } from '../format';
import { GenerateForm } from './GenerateForm';
import { TypeSetForm } from './TypeSetForm';
import type { Evaluation, ImportOutcome } from './useEvaluation';

/** Bad rows listed after an import; the rest are counted. */
const ERRORS_SHOWN = 12;

/** Props of `SetsPanel`. */
export interface SetsPanelProps {
  evaluation: Evaluation;
  tree: RaptorTree;
  selectedId?: string;
  onSelect(id: string): void;
  /** The answering model's name, or undefined when none is set. */
  model?: string;
}

type Adding = 'type' | 'generate' | 'copy' | undefined;

const SOURCE_LABEL: Record<EvalSetRecord['source'], string> = {
  typed: 'typed',
  imported: 'imported',
  generated: 'generated',
};

/** "40 questions · 12 with evidence · 8 multiple choice". */
export function describeSet(questions: readonly EvalQuestion[]): string {
  const parts = [`${questions.length} ${questions.length === 1 ? 'question' : 'questions'}`];
  const evidence = questions.filter((q) => q.evidence?.length).length;
  const gold = questions.filter((q) => !q.evidence?.length && q.goldNode !== undefined).length;
  const choices = questions.filter((q) => q.choices && q.gold !== undefined).length;
  const answers = questions.filter((q) => q.answer !== undefined).length;
  if (evidence) parts.push(`${evidence} with evidence`);
  if (gold) parts.push(`${gold} with a gold node`);
  if (choices) parts.push(`${choices} multiple choice`);
  if (answers) parts.push(`${answers} with a reference answer`);
  return parts.join(' · ');
}

/** The sets panel; see the module comment. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function SetsPanel({ evaluation, tree, selectedId, onSelect, model }: SetsPanelProps) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [adding, setAdding] = useState<Adding>();
  const [outcome, setOutcome] = useState<ImportOutcome & { file: string }>();
  const [others, setOthers] = useState<EvalSetRecord[]>();
  const generating = evaluation.activity?.kind === 'generate' ? evaluation.activity : undefined;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const result = await evaluation.importFile(file);
    setOutcome({ ...result, file: file.name });
    if (fileRef.current) fileRef.current.value = '';
  };
  const openCopy = async () => {
    setAdding('copy');
    setOthers((await evaluation.loadOthers()).sets);
  };

  return (
    <section className="card eval-card eval-sets" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Question sets</h3>
      {evaluation.sets.length === 0 ? (
        <p className="eval-muted">No question set yet: import one, type one or generate one.</p>
      ) : (
        <ul className="eval-set-list">
          {evaluation.sets.map((set) => (
            <li key={set.id} className={set.id === selectedId ? 'selected' : undefined}>
              <label>
                <input
                  type="radio"
                  name={`${id}-set`}
                  checked={set.id === selectedId}
                  onChange={() => onSelect(set.id)}
                />
                <span className="eval-set-name">{set.name}</span>
              </label>
              <span className="eval-muted">
                {describeSet(set.questions)} · {SOURCE_LABEL[set.source]} {formatDate(set.createdAt)}
                {set.skippedRows ? ` · ${set.skippedRows.toLocaleString('en')} rows skipped` : ''}
                {set.overLimit ? ` · ${set.overLimit.toLocaleString('en')} over the limit left out` : ''}
                {set.generator?.stopped
                  ? ` · ${set.generator.stopped === 'cancelled' ? 'stopped' : 'endpoint failed'} after ${set.questions.length} of ${set.generator.calls}`
                  : ''}
                {set.generator?.failures ? ` · ${set.generator.failures} skipped` : ''}
              </span>
              <span className="eval-set-actions">
                <button
                  type="button"
                  className="eval-link"
                  onClick={() =>
                    download(
                      `${safeFileBase(set.name, 'questions')}.jsonl`,
                      serializeQuestionSet(set.questions),
                      'application/jsonl',
                    )
                  }
                >
                  Export
                </button>
                <button
                  type="button"
                  className="eval-link"
                  onClick={() => void evaluation.removeSet(set.id)}
                  aria-label={`Delete ${set.name}`}
                >
                  Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="eval-row eval-add">
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept=".jsonl,.json,.ndjson,.csv,.tsv,text/csv,application/json"
          aria-label="Question set file"
          hidden
          tabIndex={-1}
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        <button type="button" onClick={() => fileRef.current?.click()}>
          Import JSONL or CSV…
        </button>
        <button
          type="button"
          aria-expanded={adding === 'type'}
          onClick={() => setAdding(adding === 'type' ? undefined : 'type')}
        >
          Type questions
        </button>
        <button
          type="button"
          aria-expanded={adding === 'generate'}
          onClick={() => setAdding(adding === 'generate' ? undefined : 'generate')}
        >
          Generate…
        </button>
        <button
          type="button"
          aria-expanded={adding === 'copy'}
          onClick={() => (adding === 'copy' ? setAdding(undefined) : void openCopy())}
        >
          From another tree…
        </button>
      </div>
      {outcome && (
        <div className={outcome.errors.length ? 'eval-import warn' : 'eval-import'} role="status">
          <p>
            {outcome.file}: {questionSetSummary(outcome.counts)}.
            <button type="button" className="eval-link" onClick={() => setOutcome(undefined)}>
              Dismiss
            </button>
          </p>
          {outcome.errors.length > 0 && (
            <ul>
              {outcome.errors.slice(0, ERRORS_SHOWN).map((e, i) => (
                <li key={i}>
                  {e.row > 0 ? `Row ${e.row}` : 'File'}
                  {e.field ? `, ${e.field}` : ''}: {e.message}
                </li>
              ))}
              {outcome.counts.skipped > ERRORS_SHOWN && (
                <li>… and {(outcome.counts.skipped - ERRORS_SHOWN).toLocaleString('en')} more rows.</li>
              )}
            </ul>
          )}
        </div>
      )}
      {adding === 'type' && (
        <TypeSetForm
          onSave={(name, questions) => {
            void evaluation.saveTyped(name, questions).then((set) => set && onSelect(set.id));
            setAdding(undefined);
          }}
          onCancel={() => setAdding(undefined)}
        />
      )}
      {(adding === 'generate' || generating) && (
        <GenerateForm
          tree={tree}
          model={model}
          progress={generating}
          onGenerate={(count, seed) => void evaluation.generate(count, seed)}
          onCancel={evaluation.cancel}
          onClose={() => setAdding(undefined)}
        />
      )}
      {adding === 'copy' && (
        <div className="eval-subform">
          {others === undefined ? (
            <p>Reading the other trees’ sets…</p>
          ) : others.length === 0 ? (
            <p className="eval-muted">No other tree has a question set.</p>
          ) : (
            <ul className="eval-set-list">
              {others.map((set) => (
                <li key={set.id}>
                  <span className="eval-set-name">{set.name}</span>
                  <span className="eval-muted">{describeSet(set.questions)}</span>
                  <button
                    type="button"
                    onClick={() => {
                      void evaluation.copySet(set).then((copy) => copy && onSelect(copy.id));
                      setAdding(undefined);
                    }}
                  >
                    Use on this tree
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
