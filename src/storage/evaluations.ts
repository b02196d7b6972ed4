/**
 * Each tree's evaluations (schema version 4, stores `evalSets` and `evalRuns`, indexed `byTree`): question sets
 * (typed, imported or generated) and runs (settings, a copy of the questions, the tree as it was, status,
 * progress and the report). Deleting the tree deletes them (`deleteTree`). The replies of the evaluation's
 * model live in the cache store (`cachedEvalChat`).
 */
import { requireTree, StorageError } from './errors';
import type { AerieDb, EvalRunRecord, EvalSetRecord } from './schema';
import { runTransaction } from './transaction';

const newestFirst = <T extends { updatedAt: number; id: string }>(a: T, b: T) =>
  b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function checkIds(record: { id: string; treeId: string }, what: string): Promise<never> | undefined {
  if (record.id && record.treeId) return undefined;
  return Promise.reject(
    new StorageError('INVALID_ARGUMENT', `An evaluation ${what} needs an id and a tree.`, {
      id: record.id,
      treeId: record.treeId,
    }),
  );
}

/** The question sets of a tree, the most recently changed first. */
export async function listEvalSets(db: AerieDb, treeId: string): Promise<EvalSetRecord[]> {
  const sets = await runTransaction(db, ['evalSets'], 'readonly', 'read the question sets', (tx) =>
    tx.objectStore('evalSets').index('byTree').getAll(treeId),
  );
  return sets.sort(newestFirst);
}

/** Every tree's question sets (to reuse one on another tree), the most recently changed first. */
export async function listAllEvalSets(db: AerieDb): Promise<EvalSetRecord[]> {
  const sets = await runTransaction(db, ['evalSets'], 'readonly', 'read the question sets', (tx) =>
    tx.objectStore('evalSets').getAll(),
  );
  return sets.sort(newestFirst);
}

/** Options of `saveEvalSet` and `saveEvalRun`. */
export interface SaveEvalOptions {
  /**
   * The record was stored before and must still be there: a set or run deleted meanwhile (in this tab or
   * another) is not created again. Default false (a new record, or a new version of one).
   */
  update?: boolean;
}

function deletedMeanwhile(what: 'question set' | 'evaluation run', id: string): StorageError {
  return new StorageError('NOT_FOUND', `This ${what} was deleted, so it was not saved again.`, { id });
}

/**
 * Stores a question set (a new one, or a new version of one with the same id), only while its tree exists.
 * @throws StorageError NOT_FOUND (the tree was deleted; with `update`, the set was), INVALID_ARGUMENT (no id or
 *   tree), QUOTA_EXCEEDED.
 */
export function saveEvalSet(db: AerieDb, set: EvalSetRecord, options: SaveEvalOptions = {}): Promise<void> {
  return (
    checkIds(set, 'question set') ??
    runTransaction(db, ['trees', 'evalSets'], 'readwrite', 'keep the question set', async (tx) => {
      await requireTree(tx.objectStore('trees'), set.treeId);
      const sets = tx.objectStore('evalSets');
      if (options.update && !(await sets.get(set.id))) throw deletedMeanwhile('question set', set.id);
      await sets.put(set);
    })
  );
}

/** Deletes a question set (its runs keep their copy of the questions). */
export function deleteEvalSet(db: AerieDb, id: string): Promise<void> {
  return runTransaction(db, ['evalSets'], 'readwrite', 'delete the question set', async (tx) => {
    await tx.objectStore('evalSets').delete(id);
  });
}

/** The runs of a tree, the most recently changed first. */
export async function listEvalRuns(db: AerieDb, treeId: string): Promise<EvalRunRecord[]> {
  const runs = await runTransaction(db, ['evalRuns'], 'readonly', 'read the evaluation runs', (tx) =>
    tx.objectStore('evalRuns').index('byTree').getAll(treeId),
  );
  return runs.sort(newestFirst);
}

/** Every tree's runs (to compare across trees), the most recently changed first. */
export async function listAllEvalRuns(db: AerieDb): Promise<EvalRunRecord[]> {
  const runs = await runTransaction(db, ['evalRuns'], 'readonly', 'read the evaluation runs', (tx) =>
    tx.objectStore('evalRuns').getAll(),
  );
  return runs.sort(newestFirst);
}

/** One run, or undefined when it does not exist (any more). */
export function getEvalRun(db: AerieDb, id: string): Promise<EvalRunRecord | undefined> {
  return runTransaction(db, ['evalRuns'], 'readonly', 'read the evaluation run', (tx) =>
    tx.objectStore('evalRuns').get(id),
  );
}

/**
 * Stores a run as it now is (status, progress, report), only while its tree exists: a run whose tree was deleted
 * meanwhile is not stored again (its tree's history is gone with it).
 * @throws StorageError NOT_FOUND (the tree was deleted; with `update`, the run was), INVALID_ARGUMENT (no id or
 *   tree), QUOTA_EXCEEDED.
 */
export function saveEvalRun(db: AerieDb, run: EvalRunRecord, options: SaveEvalOptions = {}): Promise<void> {
  return (
    checkIds(run, 'run') ??
    runTransaction(db, ['trees', 'evalRuns'], 'readwrite', 'keep the evaluation run', async (tx) => {
      await requireTree(tx.objectStore('trees'), run.treeId);
      const runs = tx.objectStore('evalRuns');
      if (options.update && !(await runs.get(run.id))) throw deletedMeanwhile('evaluation run', run.id);
      await runs.put(run);
    })
  );
}

/** Deletes a run. */
export function deleteEvalRun(db: AerieDb, id: string): Promise<void> {
  return runTransaction(db, ['evalRuns'], 'readwrite', 'delete the evaluation run', async (tx) => {
    await tx.objectStore('evalRuns').delete(id);
  });
}
