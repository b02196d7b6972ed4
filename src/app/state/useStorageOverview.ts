/**
 * Settings' storage list: how much of the browser's storage Aerie uses and whether it is kept, each tree's
 * size, each model kept in this browser (size, last use; deletable), Aerie's offline copy, and how many threads
 * the models get here (the embedding worker says). Read when Settings opens and after each change.
 */
import { useCallback, useEffect, useState } from 'react';
import { deleteCachedModel, listCachedModels, offlineCopySize } from '../../client/model-cache';
import { embedWorker } from '../../client/workers';
import type { CachedModel } from '../../models/files';
import { estimateStorage, isStoragePersisted, type StorageUsage, type TreeSummary } from '../../storage';
import { errorMessage } from './messages';
import type { NoticeInput } from './useNotices';

/** Everything the storage list shows. */
export interface StorageOverview {
  usage?: StorageUsage;
  persisted?: boolean;
  /** Largest first. */
  trees: { id: string; title: string; bytes: number }[];
  models: CachedModel[];
  /** Aerie's offline copy, when it is in this browser; `ready` once the service worker controls the page. */
  offline?: { files: number; bytes: number; ready: boolean };
  /** What the embedding worker reports: its threads per model, whether it is cross-origin isolated, the cores. */
  threads?: { threads: number; crossOriginIsolated: boolean; cores: number };
}

/** The storage list (read while `open`), and deleting a cached model. */
export function useStorageOverview(
  open: boolean,
  trees: readonly TreeSummary[],
  notify: (notice: NoticeInput) => void,
) {
  const [overview, setOverview] = useState<Omit<StorageOverview, 'trees'>>({ models: [] });
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void Promise.all([
      estimateStorage().catch(() => undefined),
      isStoragePersisted().catch(() => undefined),
      listCachedModels().catch(() => []),
      offlineCopySize().catch(() => undefined),
      embedWorker()
        .threads()
        .catch(() => undefined),
    ]).then(([usage, persisted, models, copy, threads]) => {
      const ready = typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;
      const offline = copy && { ...copy, ready };
      if (live) setOverview({ usage, persisted, models, offline, threads });
    });
    return () => {
      live = false;
    };
  }, [open, version]);

  const deleteModel = useCallback(
    (model: CachedModel) => {
      deleteCachedModel(model).then(refresh, (error: unknown) =>
        notify({ kind: 'error', title: `${model.id} could not be deleted`, body: errorMessage(error) }),
      );
    },
    [refresh, notify],
  );

  const sized = trees
    .map((t) => ({ id: t.id, title: t.title, bytes: t.bytes }))
    .sort((a, b) => b.bytes - a.bytes || a.title.localeCompare(b.title));
  return { overview: { ...overview, trees: sized } as StorageOverview, deleteModel, refresh };
}
