/**
 * Records a build, runs it in the build worker and follows its progress; cancels and resumes. When the model hub
 * cannot be reached the worker falls back to the built-in offline model and this hook says so.
 */
import { proxy } from 'comlink';
import { useCallback, useRef } from 'react';
import { buildWorker } from '../../client/workers';
import type { BuildRequest, PipelineProgress } from '../../protocol/build';
import {
  createTree,
  duplicateTreeSettings,
  getTree,
  type AerieDb,
  type FileInfo,
  type NewOriginal,
  type OriginalInfo,
} from '../../storage';
import { reduceProgress } from '../build/progress-reducer';
import type { AppSettings } from '../settings/app-settings';
import { fallbackNotice, keepOriginalsOrSay, mimeOf } from './build-notices';
import { randomId } from './ids';
import { errorMessage } from './messages';
import { buildRequestOf } from './request';
import { originalOf, type ReadyDocument } from './useDocuments';
import { useBuildRuns } from './useBuildRuns';
import { useBuildStop } from './useBuildStop';
import { announceLibraryChange } from './useLibrary';
import type { NoticeInput } from './useNotices';

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
export function useBuild(
  db: AerieDb | undefined,
  notify: (n: NoticeInput) => void,
  callbacks: BuildCallbacks,
) {
  const { onBuilt, onTaken } = callbacks;
  const runs = useBuildRuns(notify, onBuilt);
  const { progress, setProgress, current, run } = runs;
  const rebuildRef = useRef<(treeId: string, model: string) => void>(() => undefined);
  const startRef = useRef<(request: BuildRequest, files: FileInfo[], taken: readonly string[]) => unknown>(
    () => undefined,
  );

  const onEvent = useCallback(
    (p: PipelineProgress) => {
      const treeId = current.current;
      // The stage is in storage now: the library (this tab's and others') shows where the build is.
      if (p.recorded) return announceLibraryChange();
      const notice = treeId
        ? fallbackNotice(p.event, treeId, (id, model) => rebuildRef.current(id, model))
        : undefined;
      if (notice) notify(notice);
      setProgress((state) => (state && state.treeId === treeId ? reduceProgress(state, p) : state));
    },
    [notify, current, setProgress],
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
      await run({
        treeId: request.buildId,
        title: request.title,
        start: async (recorded) => {
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
        summarizer: request.summarizer.kind,
        recorded: false,
        // Nothing was recorded (the pending documents are still waiting): the same build, once there is room.
        again: () => void startRef.current(request, files, taken),
      });
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
      await run({
        treeId,
        title,
        start: async () => {
          const stored = db ? await getTree(db, treeId) : undefined;
          const generator = stored?.request?.summarizer.kind === 'builtin';
          return (await buildWorker({ generator })).resume(treeId, proxy(onEvent));
        },
        recorded: true,
      });
    },
    [db, run, onEvent],
  );

  const cancel = useBuildStop({ db, active: runs.active, current, setProgress });

  return { progress, start, startRequest, resume, cancel, clear: runs.clear, buildAgain: runs.buildAgain };
}
