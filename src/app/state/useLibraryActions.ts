/**
 * What the library's buttons do: rename, delete, export, import, duplicate settings, add documents to a tree,
 * ask for persistent storage, test an endpoint. Every failure becomes a notice; nothing else breaks. Export and
 * import live in useTreeTransfer.ts, adding documents in useRebuildWith.ts, persistence in
 * useStoragePersistence.ts; this hook binds them to the database and the app's callbacks.
 */
import { useCallback } from 'react';
import { forgetEmbeddedTexts } from '../../client/workers';
import { testConnection as testLlm } from '../../llm';
import { whileBuildStopped } from '../../pipeline/build-stop';
import { deleteTree, duplicateTreeSettings, renameTree, type AerieDb, type BuildDraft } from '../../storage';
import { toLlmEndpoint, isConfigured, type EndpointSettings } from '../settings/app-settings';
import { announceDeletion } from './deletions';
import { errorMessage } from './messages';
import { announceLibraryChange, forgetInLedger } from './useLibrary';
import type { NoticeInput } from './useNotices';
import { useRebuildWith } from './useRebuildWith';
import { useStoragePersistence } from './useStoragePersistence';
import { useTreeTransfer } from './useTreeTransfer';

/** What the actions tell the app. */
export interface LibraryCallbacks {
  onOpen(treeId: string): void;
  onDeleted(treeId: string): void;
  /** A tree's settings and stored documents, to start a new build with. */
  onDraft(draft: BuildDraft): Promise<void> | void;
}

/** What the library's actions act on and report to. */
export interface LibraryActionsOptions {
  /** The database (undefined until it opens: the actions do nothing, and imports wait for it). */
  db: AerieDb | undefined;
  notify(n: NoticeInput): void;
  /** Reads the library again (useLibrary's `refresh`). */
  refresh(): Promise<void>;
  callbacks: LibraryCallbacks;
}

/** The actions, bound to the database. */
export function useLibraryActions({ db, notify, refresh, callbacks }: LibraryActionsOptions) {
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
          forgetEmbeddedTexts();
          callbacks.onDeleted(id);
          await changed();
        },
        (e: unknown) => report('The tree could not be deleted', e),
      );
    },
    [db, changed, report, callbacks],
  );

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

  const transfer = useTreeTransfer({ db, notify, report, changed, onOpen: callbacks.onOpen });
  const rebuildWith = useRebuildWith({ db, report, changed });
  const { persist, keepAtBuild } = useStoragePersistence({ notify, report, refresh });

  return {
    rename,
    remove,
    ...transfer,
    duplicate,
    rebuildWith,
    persist,
    keepAtBuild,
    testConnection,
    report,
  };
}

/** Tests an LLM endpoint from the settings: its model and latency, or a sentence saying what is wrong. */
async function testConnection(endpoint: EndpointSettings) {
  if (!isConfigured(endpoint))
    return { ok: false as const, message: 'Enter the endpoint URL and the model first.' };
  try {
    const result = await testLlm(toLlmEndpoint(endpoint));
    return { ok: true as const, model: result.model, latencyMs: result.latencyMs };
  } catch (e) {
    return { ok: false as const, message: errorMessage(e) };
  }
}
