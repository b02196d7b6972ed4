/**
 * State and actions of the Evaluate view for the open tree: its question sets (imported, typed, generated or
 * copied from another tree) and runs (started, cancelled, resumed, deleted). A run or a generation in progress
 * belongs to this page; switching trees stops it (it can be resumed), and a run another page left "running"
 * (closed or reloaded) shows as stopped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  listAllEvalRuns,
  listAllEvalSets,
  listEvalRuns,
  listEvalSets,
  type EvalRunRecord,
  type EvalSetRecord,
} from '../../storage';
import { onDeletions } from '../state/deletions';
import { errorMessage } from '../state/messages';
import {
  deletedElsewhere,
  settled,
  type EvalActivity,
  type EvalShared,
  type EvaluationOptions,
} from './eval-shared';
import { useEvalRuns } from './useEvalRuns';
import { useQuestionGeneration } from './useQuestionGeneration';
import { useQuestionSets } from './useQuestionSets';

export {
  deletedElsewhere,
  type EvalActivity,
  type EvaluationOptions,
  type ImportOutcome,
} from './eval-shared';

/** The Evaluate view's state for the open tree (`treeId`, its `record`). */
export function useEvaluation({ db, treeId, tree, record, settings, notify }: EvaluationOptions) {
  const [sets, setSets] = useState<EvalSetRecord[]>([]);
  const [runs, setRuns] = useState<EvalRunRecord[]>([]);
  const [activity, setActivity] = useState<EvalActivity>();
  const controller = useRef<AbortController | undefined>(undefined);
  const liveRun = useRef<string | undefined>(undefined);
  /** The set a generation in progress writes into. */
  const liveSet = useRef<string | undefined>(undefined);
  // The tree shown now: a run of the previous tree that ends after a switch must not join this tree's list.
  const shownTree = useRef(treeId);
  useEffect(() => {
    shownTree.current = treeId;
  }, [treeId]);

  const report = useCallback(
    (title: string, error: unknown) => notify({ kind: 'error', title, body: errorMessage(error) }),
    [notify],
  );

  const refresh = useCallback(async () => {
    if (!db || !treeId) {
      setSets([]);
      setRuns([]);
      return;
    }
    const [s, r] = await Promise.all([listEvalSets(db, treeId), listEvalRuns(db, treeId)]);
    setSets(s);
    setRuns(r.map((run) => settled(run, run.id === liveRun.current)));
  }, [db, treeId]);

  const cancel = useCallback(() => controller.current?.abort(), []);
  useEffect(() => {
    void refresh().catch((e: unknown) => report('The evaluations could not be read', e));
    // Another tree: whatever ran for the previous one stops (and can be resumed there).
    return cancel;
  }, [refresh, report, cancel]);

  // A set or run of this tree deleted in another tab: it leaves the list, and what runs on it here stops.
  useEffect(() => {
    if (!treeId) return undefined;
    return onDeletions((deletion) => {
      if (deletion.kind === 'tree' || deletion.treeId !== treeId) return;
      const running = deletion.kind === 'eval-set' ? liveSet.current : liveRun.current;
      if (running === deletion.id) {
        controller.current?.abort();
        notify(deletedElsewhere(deletion.kind));
      }
      void refresh().catch(() => undefined);
    });
  }, [treeId, refresh, notify]);

  const shared: EvalShared = {
    db,
    treeId,
    tree,
    record,
    settings,
    notify,
    report,
    refresh,
    activity,
    setActivity,
    setRuns,
    controller,
    liveRun,
    liveSet,
    shownTree,
  };
  const questionSets = useQuestionSets(shared);
  const generate = useQuestionGeneration(shared);
  const evalRuns = useEvalRuns(shared);

  /** Every tree's sets and runs (to copy a set or compare across trees). */
  const loadOthers = useCallback(async () => {
    if (!db) return { sets: [], runs: [] };
    const [allSets, allRuns] = await Promise.all([listAllEvalSets(db), listAllEvalRuns(db)]);
    return {
      sets: allSets.filter((s) => s.treeId !== treeId),
      runs: allRuns.filter((r) => r.treeId !== treeId).map((r) => settled(r, false)),
    };
  }, [db, treeId]);

  return { sets, runs, activity, ...questionSets, generate, ...evalRuns, cancel, loadOthers };
}

/** What the Evaluate view gets from `useEvaluation`. */
export type Evaluation = ReturnType<typeof useEvaluation>;
