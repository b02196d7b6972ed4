/**
 * What the Evaluate view's hooks share: the open tree and the page's services, what runs now (the activity, its
 * abort, the run or set it writes), and how a run or set deleted in another tab is told apart and said.
 */
import type { Dispatch, RefObject, SetStateAction } from 'react';
import type { QuestionSetCounts, QuestionSetError } from '../../core/eval';
import type { RaptorTree } from '../../core/types';
import { StorageError, type AerieDb, type EvalRunRecord, type TreeRecord } from '../../storage';
import type { AppSettings } from '../settings/app-settings';
import type { NoticeInput } from '../state/useNotices';

/** What the page is doing for the evaluation right now. */
export type EvalActivity =
  { kind: 'run'; runId: string } | { kind: 'generate'; done: number; total: number; status?: string };

/** The result of reading a question-set file: the questions kept, the exact counts and the first errors. */
export interface ImportOutcome {
  questions: number;
  counts: QuestionSetCounts;
  errors: QuestionSetError[];
}

/** What `useEvaluation` evaluates and where it keeps it. */
export interface EvaluationOptions {
  db: AerieDb | undefined;
  /** The open tree's id, or undefined when no tree is open. */
  treeId: string | undefined;
  tree: RaptorTree | undefined;
  record: TreeRecord | undefined;
  settings: AppSettings;
  notify: (notice: NoticeInput) => void;
}

/** The shared state of `useEvaluation`, given to each of its hooks. */
export interface EvalShared extends EvaluationOptions {
  /** Says an error under `title`. */
  report: (title: string, error: unknown) => void;
  /** Reads the open tree's sets and runs again. */
  refresh: () => Promise<void>;
  activity: EvalActivity | undefined;
  setActivity: Dispatch<SetStateAction<EvalActivity | undefined>>;
  setRuns: Dispatch<SetStateAction<EvalRunRecord[]>>;
  /** Aborts what runs now. */
  controller: RefObject<AbortController | undefined>;
  /** The run in progress on this page. */
  liveRun: RefObject<string | undefined>;
  /** The set a generation in progress writes into. */
  liveSet: RefObject<string | undefined>;
  /** The tree shown now: a run of the previous tree that ends after a switch must not join this tree's list. */
  shownTree: RefObject<string | undefined>;
}

/** Whether storage refused a write because what it was for was deleted meanwhile (in another tab). */
export function isDeleted(error: unknown): boolean {
  return error instanceof StorageError && error.code === 'NOT_FOUND';
}

/** What the page says when a set being written or a run in progress was deleted in another tab. */
export function deletedElsewhere(kind: 'eval-set' | 'eval-run'): NoticeInput {
  return kind === 'eval-set'
    ? {
        kind: 'info',
        key: 'eval-deleted',
        title: 'This question set was deleted in another tab',
        body: 'Its generation here was stopped; nothing more is written into it.',
      }
    : {
        kind: 'info',
        key: 'eval-deleted',
        title: 'This evaluation run was deleted in another tab',
        body: 'It was stopped here, and nothing more of it is kept.',
      };
}

/** A run as the page shows it: one left "running" by a page that is gone is stopped. */
export function settled(run: EvalRunRecord, live: boolean): EvalRunRecord {
  return run.status === 'running' && !live ? { ...run, status: 'stopped' } : run;
}
