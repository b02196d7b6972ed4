/**
 * The runs of builds as the progress card follows them: one run at a time (a start or a resume), its progress,
 * how it ended (done, paused, failed, not even recorded, its tree deleted) and what the page says about it.
 */
import { useCallback, useRef, useState } from 'react';
import type { BuildOutcome } from '../../pipeline/build-service';
import { initialProgress } from '../build/progress-reducer';
import { isTreeGone, stopMessage, type Run } from './build-run';
import { errorCode, isCancel } from './messages';
import type { BuildProgressState } from './types';
import { announceLibraryChange } from './useLibrary';
import type { NoticeInput } from './useNotices';

/** One run of `useBuildRuns`. */
export interface BuildRunOptions {
  treeId: string;
  /** The tree's title, for the card and the notices. */
  title: string;
  /** Starts the run; calls `recorded` once the build is in storage, resolves when it is built. */
  start: (recorded: () => void) => Promise<BuildOutcome>;
  summarizer?: BuildProgressState['summarizer'];
  /** Whether the build is already in storage (a resume). */
  recorded: boolean;
  /** For a build that could not be recorded: the same build again. */
  again?: () => void;
}

/** The build runs' state; `onBuilt` receives the id of each finished tree. */
export function useBuildRuns(notify: (n: NoticeInput) => void, onBuilt: (treeId: string) => void) {
  const [progress, setProgress] = useState<BuildProgressState>();
  /** The tree whose build the card shows. */
  const current = useRef<string | undefined>(undefined);
  /** The run in progress (cleared when it ends, however it ends). */
  const active = useRef<Run | undefined>(undefined);
  /** For a build that could not be recorded: the same build again (by tree id). */
  const againRef = useRef(new Map<string, (() => void) | undefined>());

  const run = useCallback(
    async ({ treeId, title, start, summarizer, recorded, again }: BuildRunOptions) => {
      current.current = treeId;
      let stop: (reason: unknown) => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => (stop = reject));
      const run: Run = { treeId, stop, recorded };
      active.current = run;
      setProgress({ ...initialProgress(treeId, title, Date.now()), summarizer });
      try {
        const outcome = await Promise.race([start(() => (run.recorded = true)), stopped]);
        setProgress((s) => (s && s.treeId === treeId ? { ...s, status: 'done', reuse: outcome.cache } : s));
        onBuilt(treeId);
      } catch (error) {
        if (run.deleted || isTreeGone(error, treeId)) {
          // Nothing is left to show or resume: the card goes with the tree.
          setProgress((s) => (s && s.treeId === treeId ? undefined : s));
          if (current.current === treeId) current.current = undefined;
          if (run.deleted !== 'here') {
            notify({
              kind: 'info',
              key: `build-${treeId}`,
              title: `“${title}” was deleted`,
              body:
                run.deleted === 'elsewhere'
                  ? 'It was deleted in another Aerie tab, so its build stopped. Nothing more is requested for it.'
                  : 'There is nothing left to build or resume.',
            });
          }
          return;
        }
        const cancelled = isCancel(error);
        const storageFull = errorCode(error) === 'QUOTA_EXCEEDED';
        const message = stopMessage(error, { cancelled, recorded: run.recorded, storageFull });
        if (!cancelled) {
          notify({
            kind: 'error',
            key: `build-${treeId}`,
            title: run.recorded
              ? `The build of “${title}” stopped`
              : `The build of “${title}” could not be saved`,
            body: message,
          });
        }
        if (!run.recorded) againRef.current.set(treeId, again);
        setProgress((s) =>
          s && s.treeId === treeId
            ? {
                ...s,
                status: cancelled ? 'cancelled' : 'failed',
                message,
                ...(run.recorded ? {} : { unrecorded: true }),
                ...(storageFull ? { storageFull: true } : {}),
              }
            : s,
        );
      } finally {
        clearTimeout(run.timer);
        if (active.current === run) active.current = undefined;
        announceLibraryChange();
      }
    },
    [onBuilt, notify],
  );

  const clear = useCallback(() => {
    current.current = undefined;
    setProgress(undefined);
  }, []);

  /** Starts again a build that could not be recorded (e.g. once there is room in storage). */
  const buildAgain = useCallback((treeId: string) => {
    const again = againRef.current.get(treeId);
    againRef.current.delete(treeId);
    again?.();
  }, []);

  return { progress, setProgress, current, active, run, clear, buildAgain };
}
