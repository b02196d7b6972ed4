/**
 * Records a build, runs it in the build worker and follows its progress; cancels and resumes. When the model hub
 * cannot be reached the worker falls back to the built-in offline model and this hook says so.
 */
import { proxy } from 'comlink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { buildWorker, terminateBuildWorker } from '../../client/workers';
import { deviceFallbackNotice } from '../build/devices-text';
import { AbortError } from '../../core/abort';
import type { IngestedDocument } from '../../ingest';
import type { BuildOutcome } from '../../pipeline/build-service';
import { asStopMessage, openBuildChannel, PAGE_ID } from '../../pipeline/build-stop';
import { buildLockName } from '../../pipeline/locks';
import type { BuildRequest, PipelineProgress } from '../../protocol/build';
import {
  createTree,
  duplicateTreeSettings,
  getTree,
  keepOriginals,
  markBuildStopped,
  MAX_KEPT_ORIGINAL_BYTES,
  type AerieDb,
  type FileInfo,
  type NewOriginal,
  type OriginalInfo,
} from '../../storage';
import { noPagesReason } from '../document/citation-text';
import { initialProgress, markCancelling, reduceProgress } from '../build/progress-reducer';
import type { AppSettings } from '../settings/app-settings';
import { randomId } from './ids';
import { errorCode, errorMessage, isCancel } from './messages';
import { buildRequestOf } from './request';
import type { BuildProgressState } from './types';
import { originalOf, type ReadyDocument } from './useDocuments';
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
  /** Set when the tree is being deleted: here (`'here'`) or in another tab (`'elsewhere'`). */
  deleted?: 'here' | 'elsewhere';
  /** True once the build is in storage (a resume: from the start); only a recorded build can be resumed. */
  recorded: boolean;
}

/** True when `error` says the tree `treeId` no longer exists (it was deleted). */
function isTreeGone(error: unknown, treeId: string): boolean {
  const e = error as { code?: unknown; details?: { treeId?: unknown } } | null;
  return e?.code === 'NOT_FOUND' && e.details?.treeId === treeId;
}

/**
 * What the progress card and the notice say when a build stops: a pause, a failure of a recorded build (resume
 * once fixed), or a build that could not even be recorded (nothing to resume: build again). A full storage
 * says what to do about it.
 */
export function stopMessage(
  error: unknown,
  how: { cancelled: boolean; recorded: boolean; storageFull: boolean },
): string {
  if (how.cancelled) return 'Build paused. Everything finished so far is kept: resume to continue.';
  if (how.storageFull) {
    return how.recorded
      ? 'The browser’s storage for this site is full, so the build stopped. Everything finished so far is ' +
          'kept. Free space by deleting trees you no longer need, or let the browser keep this site’s data on ' +
          'this device (it then grants more room), then resume.'
      : 'This build could not be saved: the browser’s storage for this site is full, so nothing was built ' +
          'or paid for and your documents are still waiting. Free space by deleting trees you no longer need, ' +
          'or let the browser keep this site’s data on this device (it then grants more room), then build again.';
  }
  return how.recorded
    ? `${errorMessage(error)} Everything finished so far is kept: resume when the problem is fixed.`
    : `${errorMessage(error)} The build was not saved, so there is nothing to resume: build again once this ` +
        'is fixed.';
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

/** What the build hook tells the app. */
export interface BuildCallbacks {
  /** Receives the id of each finished tree. */
  onBuilt(treeId: string): void;
  /** The recorded build now holds these pending documents (their keys): take them out of the list. */
  onTaken(keys: readonly string[]): void;
}

/**
 * Build state and actions. Every build is recorded in storage (documents, request, status) before anything
 * slow starts; the build worker then loads the model and runs the recorded build, so a reload at any moment
 * leaves it in the library, resumable.
 */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function useBuild(
  db: AerieDb | undefined,
  notify: (n: NoticeInput) => void,
  callbacks: BuildCallbacks,
) {
  const { onBuilt, onTaken } = callbacks;
  const [progress, setProgress] = useState<BuildProgressState>();
  const current = useRef<string | undefined>(undefined);
  /** The run in progress (cleared when it ends, however it ends). */
  const active = useRef<Run | undefined>(undefined);
  const rebuildRef = useRef<(treeId: string, model: string) => void>(() => undefined);
  const startRef = useRef<(request: BuildRequest, files: FileInfo[], taken: readonly string[]) => unknown>(
    () => undefined,
  );
  /** For a build that could not be recorded: the same build again (by tree id). */
  const againRef = useRef(new Map<string, (() => void) | undefined>());

  const onEvent = useCallback(
    (p: PipelineProgress) => {
      const treeId = current.current;
      // The stage is in storage now: the library (this tab's and others') shows where the build is.
      if (p.recorded) return announceLibraryChange();
      const event = p.event;
      if (event.stage === 'summarizer-fallback' && treeId) {
        notify({
          kind: 'warning',
          key: 'summarizer-fallback',
          title: 'Summaries by the extractive summarizer',
          body:
            `${event.reason} This tree’s summaries are extractive; the library row says so. Build again once ` +
            'the model can be downloaded to have it write them.',
        });
      }
      if (event.stage === 'device-fallback' && treeId) {
        notify({
          kind: 'warning',
          key: `device-fallback-${event.model}`,
          ...deviceFallbackNotice(event.model, event.to, event.fallback.message),
        });
      }
      if (event.stage === 'model-fallback' && treeId) {
        notify({
          kind: 'warning',
          key: 'model-fallback',
          title: 'Using the built-in offline model',
          body:
            `The model hub could not be reached to download ${event.from}, so this tree is built with the ` +
            'offline GloVe model (weaker, but it works without a network). The library row says so. Check the ' +
            'connection and build again to use the SBERT model.',
          actions: [
            { label: `Rebuild with ${event.from}`, onClick: () => rebuildRef.current(treeId, event.from) },
          ],
        });
      }
      setProgress((state) => (state && state.treeId === treeId ? reduceProgress(state, p) : state));
    },
    [notify],
  );

  const run = useCallback(
    async (
      treeId: string,
      title: string,
      start: (recorded: () => void) => Promise<BuildOutcome>,
      options: { summarizer?: BuildProgressState['summarizer']; recorded: boolean; again?: () => void },
    ) => {
      current.current = treeId;
      let stop: (reason: unknown) => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => (stop = reject));
      const run: Run = { treeId, stop, recorded: options.recorded };
      active.current = run;
      setProgress({ ...initialProgress(treeId, title, Date.now()), summarizer: options.summarizer });
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
        if (!run.recorded) againRef.current.set(treeId, options.again);
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

  /**
   * Records a build (its documents' texts, request and status) in one transaction — taking the pending
   * documents `taken` out of the list — then runs it in the build worker.
   */
  const startRequest = useCallback(
    async (
      request: BuildRequest,
      files: FileInfo[],
      taken: readonly string[] = [],
      originals: readonly (NewOriginal | undefined)[] = [],
      shareOriginals: readonly (OriginalInfo | undefined)[] = [],
    ) => {
      await run(
        request.buildId,
        request.title,
        async (recorded) => {
          if (!db) throw new Error('Storage is not open yet; try again in a moment.');
          await createTree(db, request, { files, consumePending: taken, shareOriginals });
          recorded();
          if (taken.length > 0) onTaken(taken);
          await keepOriginalsOrSay(db, request.buildId, originals, notify);
          announceLibraryChange();
          const worker = await buildWorker({ generator: request.summarizer.kind === 'builtin' });
          // The texts are in storage now: the worker reads them there rather than by a second copy.
          const recordedRequest = { ...request, documents: [] };
          return worker.build(recordedRequest, files, proxy(onEvent), { recorded: true });
        },
        {
          summarizer: request.summarizer.kind,
          recorded: false,
          // Nothing was recorded (the pending documents are still waiting): the same build, once there is room.
          again: () => void startRef.current(request, files, taken),
        },
      );
      return request.buildId;
    },
    [db, run, onEvent, onTaken, notify],
  );
  startRef.current = startRequest;

  /** Builds the ready documents with the settings as they are now. */
  const start = useCallback(
    async (documents: readonly ReadyDocument[], settings: AppSettings, title: string) => {
      const docs = documents.map((d) => d.document);
      const request = buildRequestOf(randomId('t'), title, docs, settings);
      const files = docs.map((d) => ({ type: mimeOf(d.type), size: d.size }));
      return startRequest(
        request,
        files,
        documents.map((d) => d.key),
        documents.map(originalOf),
      );
    },
    [startRequest],
  );

  /** A new build of a tree's documents and settings with another embedding model (after a fallback). */
  const rebuildWithModel = useCallback(
    async (treeId: string, model: string) => {
      if (!db) return;
      try {
        const draft = await duplicateTreeSettings(db, treeId);
        if (!draft.summarizer || draft.documents.length === 0)
          throw new Error('This tree has no stored documents to build again.');
        const request: BuildRequest = {
          buildId: randomId('t'),
          title: draft.title,
          documents: draft.documents,
          params: draft.params,
          embedding: { kind: 'browser', model },
          summarizer: draft.summarizer,
        };
        const files = request.documents.map((d) => ({ type: 'text/plain', size: d.text.length }));
        await startRequest(request, files);
      } catch (error) {
        notify({ kind: 'error', title: 'The tree could not be built again', body: errorMessage(error) });
      }
    },
    [db, notify, startRequest],
  );
  rebuildRef.current = (treeId, model) => void rebuildWithModel(treeId, model);

  const resume = useCallback(
    async (treeId: string, title: string) => {
      await run(
        treeId,
        title,
        async () => {
          const stored = db ? await getTree(db, treeId) : undefined;
          const generator = stored?.request?.summarizer.kind === 'builtin';
          return (await buildWorker({ generator })).resume(treeId, proxy(onEvent));
        },
        { recorded: true },
      );
    },
    [db, run, onEvent],
  );

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
    [db],
  );

  const cancel = useCallback(async () => {
    const run = active.current;
    if (!run) return;
    const { treeId } = run;
    setProgress((s) => (s && s.treeId === treeId ? markCancelling(s) : s));
    await stopRun(run, 'cancel');
  }, [stopRun]);

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
  }, [stopRun]);

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

  return { progress, start, startRequest, resume, cancel, clear, buildAgain };
}

/**
 * Keeps the PDFs of a recorded build with it, and says which could not be kept and why (the build goes on:
 * their citations open in the text view).
 */
async function keepOriginalsOrSay(
  db: AerieDb,
  treeId: string,
  originals: readonly (NewOriginal | undefined)[],
  notify: (n: NoticeInput) => void,
): Promise<void> {
  if (!originals.some(Boolean)) return;
  let infos: Awaited<ReturnType<typeof keepOriginals>>;
  try {
    infos = await keepOriginals(db, treeId, originals);
  } catch (error) {
    if (isTreeGone(error, treeId)) throw error;
    infos = originals.map((o) =>
      o ? { kept: false, reason: 'unavailable', bytes: o.size ?? 0 } : undefined,
    );
  }
  infos.forEach((info, i) => {
    if (!info || info.kept) return;
    const name = originals[i]?.name ?? 'A PDF';
    notify({
      kind: 'warning',
      key: `original-${treeId}-${i}`,
      title: `“${name}” is not kept with the tree`,
      body: noPagesReason(name, info, MAX_KEPT_ORIGINAL_BYTES) ?? '',
    });
  });
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
