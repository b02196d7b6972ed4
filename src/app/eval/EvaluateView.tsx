/**
 * The Evaluate view of the open tree: question sets, the run form, the runs and the chosen run's results. It
 * renders; `useEvaluation` holds the state and runs things.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RaptorTree } from '../../core/types';
import type { EvalRunRecord } from '../../storage';
import { RunForm } from './RunForm';
import { RunResults } from './RunResults';
import { RunsList } from './RunsList';
import { SetsPanel } from './SetsPanel';
import type { Evaluation } from './useEvaluation';
import './eval.css';

/** Props of `EvaluateView`. */
export interface EvaluateViewProps {
  evaluation: Evaluation;
  tree: RaptorTree;
  /** The answering model's name, or undefined when none is set. */
  answerModel?: string;
  /** Why the tree's questions cannot be embedded now. */
  blocker?: string;
  onOpenNode(id: number): void;
}

/** The Evaluate view; see the module comment. */
export function EvaluateView({ evaluation, tree, answerModel, blocker, onOpenNode }: EvaluateViewProps) {
  const { sets, runs, activity } = evaluation;
  const [setId, setSetId] = useState<string>();
  const [runId, setRunId] = useState<string>();
  const [others, setOthers] = useState<EvalRunRecord[]>();
  const chosenSet = sets.find((s) => s.id === setId) ?? sets[0];
  const activeRun = activity?.kind === 'run' ? activity.runId : undefined;
  // A new run shows itself; otherwise the chosen run, else the newest.
  useEffect(() => {
    if (activeRun) setRunId(activeRun);
  }, [activeRun]);
  const run = runs.find((r) => r.id === runId) ?? runs[0];
  const comparable = useMemo(() => [...runs, ...(others ?? [])], [runs, others]);
  // The set-up is open until there is a run to show, then folds away (the user may open it again).
  const [setupOpen, setSetupOpen] = useState(true);
  const folded = useRef(false);
  useEffect(() => {
    if (runs.length > 0 && !folded.current) {
      folded.current = true;
      setSetupOpen(false);
    }
  }, [runs.length]);

  return (
    <div className="eval-view">
      <p className="eval-intro">
        Does the tree help on your documents? Ask a set of questions with every retrieval mode and search
        setting and see how much of each answer’s evidence came back, how high, at what cost in context, and
        from which layers. Nothing here changes the tree.
      </p>
      <details
        className="eval-setup-fold"
        open={setupOpen}
        onToggle={(e) => setSetupOpen((e.target as HTMLDetailsElement).open)}
      >
        <summary>Question sets and a new run</summary>
        <div className="eval-setup">
          <SetsPanel
            evaluation={evaluation}
            tree={tree}
            selectedId={chosenSet?.id}
            onSelect={setSetId}
            model={answerModel}
          />
          <RunForm
            set={chosenSet}
            model={answerModel}
            blocker={blocker}
            busy={!!activity}
            onRun={(options) => {
              if (!chosenSet) return;
              evaluation.startRun(chosenSet, options);
              setSetupOpen(false);
            }}
          />
        </div>
      </details>
      <RunsList
        runs={runs}
        selectedId={run?.id}
        activeId={activeRun}
        busy={!!activity}
        onSelect={setRunId}
        onResume={evaluation.resume}
        onCancel={evaluation.cancel}
        onDelete={(id) => void evaluation.removeRun(id)}
      />
      {run && (
        <RunResults
          run={run}
          tree={tree}
          comparable={comparable}
          onLoadOthers={() => {
            if (!others) void evaluation.loadOthers().then((o) => setOthers(o.runs));
          }}
          onOpenNode={onOpenNode}
        />
      )}
    </div>
  );
}
