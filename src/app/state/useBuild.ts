/**
 * Runs a build in the build worker and follows its progress; cancels, resumes, and falls back to the
 * built-in offline model (saying so) when the model hub cannot be reached.
 */
import { proxy } from 'comlink';
import { useCallback, useRef, useState } from 'react';
import { buildWorker, embedWorker, terminateBuildWorker } from '../../client/workers';
import { AbortError } from '../../core/abort';
import type { IngestedDocument } from '../../ingest';
import { UsageAccumulator } from '../../llm/usage';
import type { ModelLoadProgress } from '../../models/embedder';
import { OFFLINE_MODEL_ID } from '../../models/presets';
import { buildLockName } from '../../pipeline/locks';
import type { BuildRequest, PipelineProgress } from '../../pipeline/types';
import { markBuildStopped, type AerieDb } from '../../storage';
import { initialProgress, reduceProgress } from '../build/progress-reducer';
import type { AppSettings } from '../settings';
import { randomId } from './ids';
import { errorCode, errorMessage, isCancel } from './messages';
import { buildRequestOf, embeddingChoiceOf, summarizerChoiceOf } from './request';
import type { BuildProgressState } from './types';
import { announceLibraryChange } from './useLibrary';
import type { NoticeInput } from './useNotices';

/** After asking the worker to cancel, how long to wait before terminating it (a long synchronous step). */
const CANCEL_GRACE_MS = 3000;
/** After terminating the build worker, how long to wait for the browser to release its build lock. */
const LOCK_RELEASE_TIMEOUT_MS = 5000;
/** How often to look whether the lock is released. */
const LOCK_POLL_MS = 50;

/** One run of a build (a start or a resume); a later run of the same tree is a different run. */
interface Run {
  treeId: string;
  /** Ends the run as cancelled (the worker was terminated, so its own reply never comes). */
  stop(reason: unknown): void;
  /** The grace timer of a cancel, cleared when the run ends by itself. */
  timer?: ReturnType<typeof setTimeout>;
}

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

/** Build state and actions. `onBuilt` receives the id of each finished tree. */
export function useBuild(
  db: AerieDb | undefined,
  notify: (n: NoticeInput) => void,
  onBuilt: (treeId: string) => void,
) {
  const [progress, setProgress] = useState<BuildProgressState>();
  const current = useRef<string | undefined>(undefined);
  /** The run in progress (cleared when it ends, however it ends). */
  const active = useRef<Run | undefined>(undefined);

  const onEvent = useCallback((p: PipelineProgress) => {
    setProgress((state) => (state && state.treeId === current.current ? reduceProgress(state, p) : state));
  }, []);

  const modelEvent = useCallback(
    (p: ModelLoadProgress) =>
      onEvent({
        event: { stage: 'model-load', ...p },
        usage: new UsageAccumulator().snapshot(),
        at: Date.now(),
      }),
    [onEvent],
  );

  /** Loads the browser model first, so an unreachable hub can fall back to the offline model before building. */
  const prepareEmbedding = useCallback(
    async (settings: AppSettings, retry: () => void) => {
      const choice = embeddingChoiceOf(settings);
      if (choice.kind !== 'browser') return choice;
      try {
        await embedWorker().load(choice, proxy(modelEvent));
        return choice;
      } catch (error) {
        if (errorCode(error) !== 'HUB_UNREACHABLE' || choice.model === OFFLINE_MODEL_ID) throw error;
        notify({
          kind: 'warning',
          key: 'model-fallback',
          title: 'Using the built-in offline model',
          body:
            `The model hub could not be reached to download ${choice.model}, so this tree is built with the ` +
            'offline GloVe model (weaker, but it works without a network). Check the connection and build again ' +
            'to use the SBERT model.',
          actions: [{ label: `Rebuild with ${choice.model}`, onClick: retry }],
        });
        const offline = { ...choice, model: OFFLINE_MODEL_ID, dtype: 'q8' as const };
        await embedWorker().load(offline, proxy(modelEvent));
        return offline;
      }
    },
    [modelEvent, notify],
  );

  const run = useCallback(
    async (
      treeId: string,
      title: string,
      start: () => Promise<unknown>,
      summarizer?: 'llm' | 'extractive',
    ) => {
      current.current = treeId;
      let stop: (reason: unknown) => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => (stop = reject));
      const run: Run = { treeId, stop };
      active.current = run;
      setProgress({ ...initialProgress(treeId, title, Date.now()), summarizer });
      try {
        await Promise.race([start(), stopped]);
        setProgress((s) => (s && s.treeId === treeId ? { ...s, status: 'done' } : s));
        onBuilt(treeId);
      } catch (error) {
        const cancelled = isCancel(error);
        if (!cancelled) {
          notify({
            kind: 'error',
            key: `build-${treeId}`,
            title: `The build of “${title}” stopped`,
            body: `${errorMessage(error)} Everything finished so far is kept; resume when the problem is fixed.`,
          });
        }
        setProgress((s) =>
          s && s.treeId === treeId
            ? {
                ...s,
                status: cancelled ? 'cancelled' : 'failed',
                message: cancelled
                  ? 'Build paused. Everything finished so far is kept: resume to continue.'
                  : `${errorMessage(error)} Everything finished so far is kept: resume when the problem is fixed.`,
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

  const start = useCallback(
    async (documents: IngestedDocument[], settings: AppSettings, title: string, treeId = randomId('t')) => {
      await run(
        treeId,
        title,
        async () => {
          const embedding = await prepareEmbedding(
            settings,
            () => void startRef.current?.(documents, settings, title),
          );
          const request: BuildRequest = buildRequestOf(treeId, title, documents, settings, embedding);
          const files = documents.map((d) => ({ type: mimeOf(d.type), size: d.size }));
          const worker = await buildWorker();
          return worker.build(request, files, proxy(onEvent));
        },
        summarizerChoiceOf(settings).kind,
      );
      return treeId;
    },
    [run, prepareEmbedding, onEvent],
  );

  /** Builds from an explicit request (e.g. an open tree's documents plus new ones, with that tree's settings). */
  const startRequest = useCallback(
    async (request: BuildRequest, files: { type: string; size: number }[]) => {
      await run(
        request.buildId,
        request.title,
        async () => {
          if (request.embedding.kind === 'browser')
            await embedWorker().load(request.embedding, proxy(modelEvent));
          return (await buildWorker()).build(request, files, proxy(onEvent));
        },
        request.summarizer.kind,
      );
      return request.buildId;
    },
    [run, modelEvent, onEvent],
  );

  const startRef = useRef(start);
  startRef.current = start;

  const resume = useCallback(
    async (treeId: string, title: string) => {
      await run(treeId, title, async () => (await buildWorker()).resume(treeId, proxy(onEvent)));
    },
    [run, onEvent],
  );

  const cancel = useCallback(async () => {
    const run = active.current;
    if (!run) return;
    const { treeId } = run;
    setProgress((s) => (s && s.treeId === treeId ? { ...s, status: 'cancelling' } : s));
    const worker = await buildWorker();
    void worker.cancel(treeId);
    // A cancel reaches the worker between steps; if a long step holds it, end the worker instead. The timer
    // belongs to this run: a run that ended by itself clears it, so it can never stop a later resume.
    run.timer = setTimeout(() => {
      if (active.current !== run) return;
      terminateBuildWorker();
      void (async () => {
        await lockReleased(treeId);
        if (db) await markBuildStopped(db, treeId, new AbortError()).catch(() => undefined);
        run.stop(new AbortError('The build was cancelled.'));
      })();
    }, CANCEL_GRACE_MS);
  }, [db]);

  const clear = useCallback(() => {
    current.current = undefined;
    setProgress(undefined);
  }, []);

  return { progress, start, startRequest, resume, cancel, clear };
}

function mimeOf(type: IngestedDocument['type']): string {
  switch (type) {
    case 'pdf':
      return 'application/pdf';
    case 'docx':
      return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    case 'html':
      return 'text/html';
    case 'md':
      return 'text/markdown';
    default:
      return 'text/plain';
  }
}
