/**
 * The library: every stored tree, which builds are alive (in this tab or another, via Web Locks), and the
 * storage quota. Other tabs' changes arrive over a BroadcastChannel.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  estimateStorage,
  isStoragePersisted,
  listTrees,
  type AerieDb,
  type TreeSummary,
} from '../../storage';
import { BUILD_LOCK_PREFIX } from '../../pipeline/locks';
import { markDeletedInLedger, reconcileLedger, type KeyValueStore, type LedgerEntry } from '../../storage';
import { errorMessage } from './messages';
import type { NoticeInput } from './useNotices';

const CHANNEL = 'aerie-library';
/**
 * While the library shows a live build, how often to look whether its lock is still held: a build whose tab
 * closed or reloaded keeps its lock until the browser has ended that tab's workers, a moment later.
 */
const LIVE_POLL_MS = 1000;

/** The page's localStorage, where the library's ledger lives (undefined where the browser refuses it). */
export function pageStore(): KeyValueStore | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Tells the library's ledger that the tree `id` is deleted on purpose (so it is not reported as evicted). */
export function forgetInLedger(id: string): void {
  const store = pageStore();
  if (store) markDeletedInLedger(store, id);
}

/** The notice for trees the browser evicted, by name. Pure, tested in Node. */
export function evictionNotice(gone: readonly LedgerEntry[]): NoticeInput {
  const names = gone.map((t) => `“${t.title}”`).join(', ');
  return {
    kind: 'error',
    key: 'evicted',
    title:
      gone.length === 1
        ? `The browser removed the tree ${names}`
        : `The browser removed ${gone.length} trees: ${names}`,
    body:
      'It cleared Aerie’s stored data to free space on this device (the browser does this to sites whose ' +
      'storage is not kept). Import an exported copy (“Import tree”) or build again. To keep what you build ' +
      'from now on, choose “Keep data on this device” in the library or in Settings → Storage and offline.',
  };
}

/** Tells other tabs that the library changed. */
export function announceLibraryChange(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

async function liveBuilds(): Promise<string[]> {
  const locks = navigator.locks;
  if (!locks?.query) return [];
  const snapshot = await locks.query();
  return (snapshot.held ?? [])
    .map((l) => l.name ?? '')
    .filter((name) => name.startsWith(BUILD_LOCK_PREFIX))
    .map((name) => name.slice(BUILD_LOCK_PREFIX.length));
}

/** Library rows, live build ids and storage usage, with a refresh function. */
export function useLibrary(db: AerieDb | undefined, notify: (n: NoticeInput) => void) {
  const [trees, setTrees] = useState<TreeSummary[]>([]);
  const [running, setRunning] = useState<string[]>([]);
  const [storage, setStorage] = useState<{ usage: number; quota: number; persisted: boolean }>();

  const refresh = useCallback(async () => {
    if (!db) return;
    try {
      const [list, live, usage, persisted] = await Promise.all([
        listTrees(db),
        liveBuilds(),
        estimateStorage(),
        isStoragePersisted(),
      ]);
      const store = pageStore();
      const gone = store ? reconcileLedger(store, list) : [];
      if (gone.length > 0) notify(evictionNotice(gone));
      setTrees(list);
      setRunning(live);
      if (usage) setStorage({ usage: usage.usage, quota: usage.quota, persisted: persisted ?? false });
    } catch (error) {
      notify({
        kind: 'error',
        title: 'The library could not be read',
        body: errorMessage(error),
        key: 'library',
      });
    }
  }, [db, notify]);

  useEffect(() => {
    void refresh();
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => void refresh();
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      channel.close();
      window.removeEventListener('focus', onFocus);
    };
  }, [refresh]);

  // A live build that ends without telling this tab (its tab closed, or this page reloaded while the old
  // page's workers were still being ended) must turn into "Interrupted": watch its lock until it goes.
  useEffect(() => {
    if (running.length === 0) return;
    const shown = [...running].sort().join(' ');
    const timer = setInterval(() => {
      liveBuilds().then(
        (live) => {
          if ([...live].sort().join(' ') !== shown) void refresh();
        },
        () => undefined,
      );
    }, LIVE_POLL_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  return { trees, running, storage, refresh };
}
