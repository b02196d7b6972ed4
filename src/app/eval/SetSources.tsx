/**
 * Where a new question set comes from, beside the list: the report of an imported file (its bad rows by row and
 * field, its good rows counted) and the sets of the other trees to copy one from.
 */
import { questionSetSummary } from '../../core/eval';
import type { EvalSetRecord } from '../../storage';
import { describeSet } from './SetList';
import type { ImportOutcome } from './useEvaluation';

/** Bad rows listed after an import; the rest are counted. */
const ERRORS_SHOWN = 12;

/** Props of `ImportReport`. */
interface ImportReportProps {
  outcome: ImportOutcome & { file: string };
  onDismiss(): void;
}

/** What an import kept and the rows it skipped, with why. */
export function ImportReport({ outcome, onDismiss }: ImportReportProps) {
  return (
    <div className={outcome.errors.length ? 'eval-import warn' : 'eval-import'} role="status">
      <p>
        {outcome.file}: {questionSetSummary(outcome.counts)}.
        <button type="button" className="eval-link" onClick={onDismiss}>
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
  );
}

/** Props of `CopySetForm`. */
interface CopySetFormProps {
  /** The other trees' sets; undefined while they are read. */
  others: readonly EvalSetRecord[] | undefined;
  onCopy(set: EvalSetRecord): void;
}

/** The other trees' sets, each with "Use on this tree". */
export function CopySetForm({ others, onCopy }: CopySetFormProps) {
  return (
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
              <button type="button" onClick={() => onCopy(set)}>
                Use on this tree
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
