/**
 * What the library's buttons do: rename, delete, export, import, duplicate settings, add documents to a tree,
 * ask for persistent storage, test an endpoint. Every failure becomes a notice; nothing else breaks.
 */
import { useCallback, useEffect, useRef } from 'react';
import { importInWorker } from '../../client/import';
import { testConnection as testLlm } from '../../llm';
import { whileBuildStopped } from '../../pipeline/build-stop';
import type { BuildRequest } from '../../protocol/build';
import {
  checkImportSize,
  deleteTree,
  moveTreeHistory,
  duplicateTreeSettings,
  exportTree,
  getTree,
  isStoragePersisted,
  renameTree,
  requestPersistence,
  type AerieDb,
  type NewOriginal,
  type BuildDraft,
  type OriginalInfo,
} from '../../storage';
import { download, safeFileBase } from '../download';
import { toLlmEndpoint, isConfigured, type EndpointSettings } from '../settings/app-settings';
import { randomId } from './ids';
import { errorMessage } from './messages';
import { toBuildDocuments } from './request';
import { originalOf, type ReadyDocument } from './useDocuments';
import { markDeletedInLedger } from '../../storage';
import { announceDeletion } from './deletions';
import { announceLibraryChange, pageStore } from './useLibrary';
import type { NoticeInput } from './useNotices';

/** What the actions tell the app. */
export interface LibraryCallbacks {
  onOpen(treeId: string): void;
  onDeleted(treeId: string): void;
  /** A tree's settings and stored documents, to start a new build with. */
  onDraft(draft: BuildDraft): Promise<void> | void;
}

/** Set once this page asked for persistent storage at a build start: asked once per page, quietly. */
let askedAtBuild = false;

/** Tells the library's ledger that the tree `id` is deleted on purpose (useLibrary.ts reports evictions). */
function forgetInLedger(id: string): void {
  const store = pageStore();
  if (store) markDeletedInLedger(store, id);
}

/** A safe file name from a tree title. */
export function exportFileName(title: string): string {
  return `${safeFileBase(title, 'tree')}.raptor.json`;
}

/** The actions, bound to the database. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function useLibraryActions(
  db: AerieDb | undefined,
  notify: (n: NoticeInput) => void,
  refresh: () => Promise<void>,
  callbacks: LibraryCallbacks,
) {
  const report = useCallback(
    (title: string, error: unknown) => notify({ kind: 'error', title, body: errorMessage(error) }),
    [notify],
  );
  const changed = useCallback(async () => {
    announceLibraryChange();
    await refresh();
  }, [refresh]);

  const rename = useCallback(
    (id: string, title: string) => {
      if (!db) return;
      renameTree(db, id, title).then(changed, (e: unknown) => report('The tree could not be renamed', e));
    },
    [db, changed, report],
  );

  /**
   * Deletes a tree. Its build, if one runs in this tab or another, stops first (no request after the delete),
   * and the delete holds the build's lock, so nothing of the tree is written after it.
   */
  const remove = useCallback(
    (id: string) => {
      if (!db) return;
      forgetInLedger(id);
      whileBuildStopped(id, () => deleteTree(db, id)).then(
        async () => {
          // Every other tab working on it stops and closes it (deletions.ts); this one does so here.
          announceDeletion({ kind: 'tree', treeId: id });
          callbacks.onDeleted(id);
          await changed();
        },
        (e: unknown) => report('The tree could not be deleted', e),
      );
    },
    [db, changed, report, callbacks],
  );

  const exportOne = useCallback(
    (id: string, options: { originals?: boolean } = {}) => {
      if (!db) return;
      Promise.all([getTree(db, id), exportTree(db, id, options)]).then(
        ([record, json]) => download(exportFileName(record?.title ?? 'tree'), json),
        (e: unknown) => report('The tree could not be exported', e),
      );
    },
    [db, report],
  );

  /** Files chosen before the library's database opened: imported as soon as it is open, never dropped. */
  const waitingImports = useRef<File[]>([]);
  const importFile = useCallback(
    (file: File) => {
      if (!db) {
        waitingImports.current.push(file);
        return;
      }
      (async () => {
        checkImportSize(file.size);
        // Read, parsed and checked in a worker: a large file must not freeze the page. The tree keeps its own
        // title, not the file name.
        const { id, notes } = await importInWorker(file);
        await changed();
        callbacks.onOpen(id);
        notify({ kind: 'success', title: `Imported “${file.name}”` });
        // A carried PDF that is not its document's is left out, and said (the tree itself imported).
        for (const [i, body] of notes.entries()) {
          notify({
            kind: 'warning',
            key: `import-${id}-${i}`,
            title: `Part of “${file.name}” was not kept`,
            body,
          });
        }
      })().catch((e: unknown) => report(`“${file.name}” could not be imported`, e));
    },
    [db, changed, callbacks, notify, report],
  );
  useEffect(() => {
    if (!db || waitingImports.current.length === 0) return;
    for (const file of waitingImports.current.splice(0)) importFile(file);
  }, [db, importFile]);

  const duplicate = useCallback(
    (id: string) => {
      if (!db) return;
      duplicateTreeSettings(db, id).then(
        async (draft) => {
          await callbacks.onDraft(draft);
          const missing = draft.missingDocuments.map((d) => d.name).join(', ');
          notify({
            kind: 'info',
            title: `Settings of “${draft.title}” copied into a new build`,
            body: missing ? `Add these documents again (their text is not stored): ${missing}.` : undefined,
          });
        },
        (e: unknown) => report('The settings could not be copied', e),
      );
    },
    [db, callbacks, notify, report],
  );

  /**
   * Builds the open tree again with its own settings and documents plus `added`, then replaces it: the
   * cached embeddings and summaries make only new or changed clusters cost LLM calls.
   */
  const rebuildWith = useCallback(
    async (
      treeId: string,
      added: readonly ReadyDocument[],
      startRequest: (
        request: BuildRequest,
        files: { type: string; size: number }[],
        taken: readonly string[],
        originals: readonly (NewOriginal | undefined)[],
        shareOriginals: readonly (OriginalInfo | undefined)[],
      ) => Promise<string>,
    ) => {
      if (!db) return;
      try {
        const draft = await duplicateTreeSettings(db, treeId);
        if (!draft.embedding || !draft.summarizer)
          throw new Error('An imported tree cannot be rebuilt; start a new build.');
        const newDocs = toBuildDocuments(added.map((a) => a.document)).map((d, i) => ({
          ...d,
          id: `d${draft.documents.length + i + 1}`,
        }));
        const request: BuildRequest = {
          buildId: randomId('t'),
          title: draft.title,
          documents: [...draft.documents, ...newDocs],
          params: draft.params,
          embedding: draft.embedding,
          summarizer: draft.summarizer,
        };
        const files = request.documents.map((d) => ({ type: 'text/plain', size: d.text.length }));
        const newId = await startRequest(
          request,
          files,
          added.map((a) => a.key),
          [...draft.documents.map(() => undefined), ...added.map(originalOf)],
          // The files the tree's own documents keep: the rebuild keeps the same ones (by their hash).
          draft.originals,
        );
        const record = await getTree(db, newId);
        if (record?.status === 'ready') {
          // The conversations (and evaluations) go with the documents to the tree that replaces this one.
          await moveTreeHistory(db, treeId, newId);
          forgetInLedger(treeId);
          await deleteTree(db, treeId);
          announceDeletion({ kind: 'tree', treeId, replacedBy: newId });
          await changed();
        }
      } catch (e) {
        report('The documents could not be added', e);
      }
    },
    [db, changed, report],
  );

  /** Asks the browser to keep Aerie's data, says what it answered, and re-reads the library's storage line. */
  const persist = useCallback(
    () =>
      requestPersistence()
        .then(
          (granted) =>
            notify(
              granted
                ? { kind: 'success', title: 'Your trees will be kept on this device' }
                : {
                    kind: 'warning',
                    title: 'The browser did not grant persistent storage',
                    body: 'It may still keep your data; bookmarking the page or installing it often helps.',
                  },
            ),
          (e: unknown) => report('Persistent storage could not be requested', e),
        )
        .then(refresh),
    [notify, report, refresh],
  );

  /**
   * Asks the browser to keep Aerie's data, once per page, when a build starts (a tree is about to cost minutes
   * or money). Says so only when granted: the library offers the button otherwise.
   */
  const keepAtBuild = useCallback(() => {
    if (askedAtBuild) return;
    askedAtBuild = true;
    isStoragePersisted()
      .then(async (kept) => {
        if (kept !== false) return;
        if (await requestPersistence()) {
          notify({ kind: 'success', title: 'Your trees will be kept on this device' });
          await refresh();
        }
      })
      .catch(() => undefined);
  }, [notify, refresh]);

  const testConnection = useCallback(async (endpoint: EndpointSettings) => {
    if (!isConfigured(endpoint))
      return { ok: false as const, message: 'Enter the endpoint URL and the model first.' };
    try {
      const result = await testLlm(toLlmEndpoint(endpoint));
      return { ok: true as const, model: result.model, latencyMs: result.latencyMs };
    } catch (e) {
      return { ok: false as const, message: errorMessage(e) };
    }
  }, []);

  return {
    rename,
    remove,
    exportTree: exportOne,
    importFile,
    duplicate,
    rebuildWith,
    persist,
    keepAtBuild,
    testConnection,
    report,
  };
}
