/**
 * The tree's runs, newest first: when, which set, the tree as it was (model and summariser), settings and
 * status (with progress while one runs); show one, resume a stopped or failed one, cancel the running one,
 * delete one.
 */
import { useId } from 'react';
import type { EvalRunRecord } from '../../storage';
import { formatDate } from '../format';
import { embeddingModelLabel } from '../library/model-label';

/** Props of `RunsList`. */
export interface RunsListProps {
  runs: readonly EvalRunRecord[];
  selectedId?: string;
  /** The run this page is running, if any. */
  activeId?: string;
  /** Something runs (no other run may start). */
  busy: boolean;
  onSelect(id: string): void;
  onResume(run: EvalRunRecord): void;
  onCancel(): void;
  onDelete(id: string): void;
}

const STAGE_LABEL = { embed: 'Embedding questions', retrieve: 'Retrieving', answer: 'Answering' } as const;

/** "Retrieving 120 / 378", "Done", "Stopped at answering 12 / 90 (8 from earlier replies)". */
export function runStatusText(run: EvalRunRecord): string {
  const p = run.progress;
  const cached = p?.cached ? ` (${p.cached} from earlier replies)` : '';
  const where = p ? `${STAGE_LABEL[p.stage].toLowerCase()} ${p.done} / ${p.total}${cached}` : '';
  switch (run.status) {
    case 'running':
      return p ? `${STAGE_LABEL[p.stage]} ${p.done} / ${p.total}${cached}` : 'Starting';
    case 'done':
      return 'Done';
    case 'stopped':
      return p && (p.stage !== 'retrieve' || p.done < p.total) ? `Stopped at ${where}` : 'Stopped';
    case 'failed':
      return `Failed${p ? ` at ${where}` : ''}`;
  }
}

/** The runs list; see the module comment. */
export function RunsList({
  runs,
  selectedId,
  activeId,
  busy,
  onSelect,
  onResume,
  onCancel,
  onDelete,
}: RunsListProps) {
  const id = useId();
  if (runs.length === 0) return null;
  return (
    <section className="card eval-card" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Runs</h3>
      <div className="eval-table-scroll">
        <table className="eval-table eval-runs">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Set</th>
              <th scope="col">Tree when it ran</th>
              <th scope="col">Settings</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => {
              const active = run.id === activeId;
              return (
                <tr key={run.id} className={run.id === selectedId ? 'selected' : undefined}>
                  <td>
                    <button
                      type="button"
                      className="eval-link"
                      aria-pressed={run.id === selectedId}
                      onClick={() => onSelect(run.id)}
                    >
                      {formatDate(run.createdAt)}
                    </button>
                  </td>
                  <td>{run.setName}</td>
                  <td>
                    {embeddingModelLabel(run.tree.embedding)}, {run.tree.summarizer.replace(/^llm:/, '')} ·{' '}
                    {run.tree.nodes} nodes
                  </td>
                  <td>
                    {run.options.searches.join(', ')} · {run.options.maxTokens} tokens · top-
                    {run.options.traversalTopK}
                    {run.answerModel || run.options.answers
                      ? ` · answers${run.options.judge ? ' + judge' : ''}`
                      : ''}
                  </td>
                  <td>
                    <span className={`eval-status ${run.status}`}>{runStatusText(run)}</span>
                    {run.status === 'running' && run.progress && run.progress.total > 0 && (
                      <progress max={run.progress.total} value={run.progress.done} aria-label="Progress" />
                    )}
                    {run.error && <span className="eval-error"> {run.error}</span>}
                  </td>
                  <td className="eval-actions">
                    {active ? (
                      <button type="button" onClick={onCancel}>
                        Cancel
                      </button>
                    ) : (
                      (run.status === 'stopped' || run.status === 'failed') && (
                        <button type="button" disabled={busy} onClick={() => onResume(run)}>
                          Resume
                        </button>
                      )
                    )}
                    {!active && (
                      <button
                        type="button"
                        className="eval-link"
                        onClick={() => onDelete(run.id)}
                        aria-label={`Delete the run of ${formatDate(run.createdAt)}`}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
