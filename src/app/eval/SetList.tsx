/** The tree's question sets as a list to pick from, each with what it holds, where it came from, Export and Delete. */
import { serializeQuestionSet, type EvalQuestion } from '../../core/eval';
import type { EvalSetRecord } from '../../storage';
import { download, safeFileBase } from '../download';
import { formatDate } from '../format';

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

/** Props of `SetList`. */
interface SetListProps {
  sets: readonly EvalSetRecord[];
  /** The radio group's name. */
  name: string;
  selectedId?: string;
  onSelect(id: string): void;
  onRemove(id: string): void;
}

/** The sets, one radio each; see the module comment. */
export function SetList({ sets, name, selectedId, onSelect, onRemove }: SetListProps) {
  return (
    <ul className="eval-set-list">
      {sets.map((set) => (
        <li key={set.id} className={set.id === selectedId ? 'selected' : undefined}>
          <label>
            <input
              type="radio"
              name={name}
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
              onClick={() => onRemove(set.id)}
              aria-label={`Delete ${set.name}`}
            >
              Delete
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}
