/**
 * Stopping a build: a pause asks the build worker first and ends it if a long step holds it; a tree deleted in
 * this tab or another stops its build at once, and a card of a build already ended goes with its tree.
 */
import { useCallback, useEffect, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { buildWorker, terminateBuildWorker } from '../../client/workers';
import { AbortError } from '../../core/abort';
import { asStopMessage, openBuildChannel, PAGE_ID } from '../../pipeline/build-stop';
import { buildLockName } from '../../pipeline/locks';
import { markBuildStopped, type AerieDb } from '../../storage';
import { markCancelling } from '../build/progress-reducer';
import type { Run } from './build-run';
import type { BuildProgressState } from './types';

/** After asking the worker to cancel, how long to wait before terminating it (a long synchronous step). */
const CANCEL_GRACE_MS = 3000;
/** After terminating the build worker, how long to wait for the browser to release its build lock. */
const LOCK_RELEASE_TIMEOUT_MS = 5000;
/** How often to look whether the lock is released. */
const LOCK_POLL_MS = 50;

/** Resolves once no context holds the Web Lock of this build (a terminated worker's lock goes a bit later). */
async function lockReleased(treeId: string): Promise<void> {
  const locks = (navigator as { locks?: LockManager }).locks;
  if (!locks?.query) return;
  const deadline = Date.now() + LOCK_RELEASE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { held = [] } = await locks.query();
    if (!held.some((l) => l.name === buildLockName(treeId))) return;
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
  }
}

/** What `useBuildStop` stops: the runs of `useBuildRuns`. */
export interface BuildStopOptions {
  db: AerieDb | undefined;
  /** The run in progress. */
  active: RefObject<Run | undefined>;
  /** The tree whose build the card shows. */
  current: RefObject<string | undefined>;
  setProgress: Dispatch<SetStateAction<BuildProgressState | undefined>>;
}

/** `cancel()` pauses the build in progress; a deletion heard on the build channel stops its build. */
export function useBuildStop({ db, active, current, setProgress }: BuildStopOptions) {
  /**
   * Stops a run: asks the worker first; if a long step holds it, ends the worker instead. The timer belongs to
   * this run: a run that ended by itself clears it, so it can never stop a later resume.
   */
  const stopRun = useCallback(
    async (run: Run, reason: 'cancel' | 'deleted') => {
      const { treeId } = run;
      const worker = await buildWorker();
      void worker.cancel(treeId, reason);
      clearTimeout(run.timer);
      run.timer = setTimeout(() => {
        if (active.current !== run) return;
        terminateBuildWorker();
        void (async () => {
          await lockReleased(treeId);
          if (db && !run.deleted) await markBuildStopped(db, treeId, new AbortError()).catch(() => undefined);
          run.stop(new AbortError('The build was cancelled.'));
        })();
      }, CANCEL_GRACE_MS);
    },
    [db, active],
  );

  const cancel = useCallback(async () => {
    const run = active.current;
    if (!run) return;
    const { treeId } = run;
    setProgress((s) => (s && s.treeId === treeId ? markCancelling(s) : s));
    await stopRun(run, 'cancel');
  }, [stopRun, active, setProgress]);

  // A tree deleted in this tab or another stops its build here at once (the worker hears it too); the delete
  // waits for the build's lock, so it lands only after the build has let go.
  useEffect(() => {
    const channel = openBuildChannel();
    if (!channel) return;
    channel.onmessage = (event) => {
      const stop = asStopMessage(event.data);
      if (!stop) return;
      const run = active.current;
      if (run && run.treeId === stop.treeId) {
        if (run.deleted) return;
        run.deleted = stop.from === PAGE_ID ? 'here' : 'elsewhere';
        void stopRun(run, 'deleted');
        return;
      }
      // A build that already ended (failed, paused, done): its card must not offer a tree that is gone.
      setProgress((s) => (s && s.treeId === stop.treeId ? undefined : s));
      if (current.current === stop.treeId) current.current = undefined;
    };
    return () => channel.close();
  }, [stopRun, active, current, setProgress]);

  return cancel;
}
