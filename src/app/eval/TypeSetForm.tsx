/**
 * Typing a question set: a question, an optional reference answer and optional evidence quotes (one per line),
 * added one by one to a list, then saved as a set.
 */
import { useId, useState, type FormEvent } from 'react';
import type { EvalQuestion } from '../../core/eval';

/** Props of `TypeSetForm`. */
export interface TypeSetFormProps {
  onSave(name: string, questions: EvalQuestion[]): void;
  onCancel(): void;
}

/** The typed questions' form; see the module comment. */
export function TypeSetForm({ onSave, onCancel }: TypeSetFormProps) {
  const id = useId();
  const [questions, setQuestions] = useState<EvalQuestion[]>([]);
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [evidence, setEvidence] = useState('');
  const [name, setName] = useState('Typed questions');
  const [error, setError] = useState<string>();

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!question.trim()) {
      setError('Write the question first.');
      return;
    }
    const next: EvalQuestion = { question: question.trim() };
    if (answer.trim()) next.answer = answer.trim();
    const quotes = evidence
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (quotes.length) next.evidence = quotes;
    setQuestions((list) => [...list, next]);
    setQuestion('');
    setAnswer('');
    setEvidence('');
    setError(undefined);
  };

  return (
    <div className="eval-subform">
      <form onSubmit={add} aria-label="Type a question">
        <label htmlFor={`${id}-q`}>Question</label>
        <input id={`${id}-q`} value={question} onChange={(e) => setQuestion(e.target.value)} />
        <label htmlFor={`${id}-a`}>Reference answer (optional)</label>
        <input id={`${id}-a`} value={answer} onChange={(e) => setAnswer(e.target.value)} />
        <label htmlFor={`${id}-e`}>
          Evidence: verbatim quotes from the documents, one per line (optional)
        </label>
        <textarea id={`${id}-e`} rows={3} value={evidence} onChange={(e) => setEvidence(e.target.value)} />
        {error && (
          <p className="eval-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit">Add question</button>
      </form>
      {questions.length > 0 && (
        <ol className="eval-typed-list">
          {questions.map((q, i) => (
            <li key={i}>
              {q.question}
              {q.evidence && <span className="eval-muted"> · {q.evidence.length} quotes</span>}
              <button
                type="button"
                className="eval-link"
                onClick={() => setQuestions((list) => list.filter((_, j) => j !== i))}
                aria-label={`Remove question ${i + 1}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <div className="eval-row">
        <label htmlFor={`${id}-name`}>Set name</label>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} />
        <button
          type="button"
          className="primary"
          disabled={questions.length === 0}
          onClick={() => onSave(name.trim() || 'Typed questions', questions)}
        >
          Save {questions.length} {questions.length === 1 ? 'question' : 'questions'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
