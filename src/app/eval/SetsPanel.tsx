/**
 * The tree's question sets: pick one, export or delete it, and add one by importing a JSONL or CSV file, typing
 * questions, generating them with the answering model or copying a set from another tree. A file's bad rows are
 * listed by row and field; its good rows are kept.
 */
import { useId, useRef, useState } from 'react';
import type { RaptorTree } from '../../core/types';
import type { EvalSetRecord } from '../../storage';
import { GenerateForm } from './GenerateForm';
import { SetList } from './SetList';
import { CopySetForm, ImportReport } from './SetSources';
import { TypeSetForm } from './TypeSetForm';
import type { Evaluation, ImportOutcome } from './useEvaluation';

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

/** The sets panel; see the module comment. */
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
        <SetList
          sets={evaluation.sets}
          name={`${id}-set`}
          selectedId={selectedId}
          onSelect={onSelect}
          onRemove={(setId) => void evaluation.removeSet(setId)}
        />
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
      {outcome && <ImportReport outcome={outcome} onDismiss={() => setOutcome(undefined)} />}
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
        <CopySetForm
          others={others}
          onCopy={(set) => {
            void evaluation.copySet(set).then((copy) => copy && onSelect(copy.id));
            setAdding(undefined);
          }}
        />
      )}
    </section>
  );
}
