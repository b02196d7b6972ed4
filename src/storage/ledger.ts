/**
 * A list of the library's trees (id and title) kept outside IndexedDB, so that a tree the browser evicted is
 * reported by name instead of silently gone. Under storage pressure a browser evicts an origin's best-effort
 * storage whole: Chromium deletes its IndexedDB, Cache Storage and service worker at once, and keeps its
 * localStorage (which is not quota-managed there). So the page mirrors the library into localStorage after
 * every read; a tree the list names that IndexedDB no longer has, and that nobody deleted through Aerie, was
 * evicted. Deleting through Aerie writes a tombstone first, so a delete (in any tab) is never taken for an
 * eviction. Where the browser clears localStorage too (a person clearing the site's data, Safari's 7-day cap
 * on script-written storage), there is nothing left to compare with and nothing can be said (docs/storage.md).
 *
 * The store is injected (`localStorage` in the page): this module runs in Node tests as it does in the page.
 */

/** The part of `Storage` used here. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** A tree as the ledger remembers it. */
export interface LedgerEntry {
  id: string;
  title: string;
}

interface Ledger {
  trees: LedgerEntry[];
  /** Ids of trees deleted through Aerie, newest last (at most MAX_TOMBSTONES). */
  deleted: string[];
}

/** The localStorage key of the ledger. */
export const LEDGER_KEY = 'aerie-library-ledger';
/** Tombstones kept: enough for any burst of deletes between two reads of the library. */
const MAX_TOMBSTONES = 200;

function read(store: KeyValueStore): Ledger {
  try {
    const parsed = JSON.parse(store.getItem(LEDGER_KEY) ?? 'null') as Partial<Ledger> | null;
    const trees = Array.isArray(parsed?.trees)
      ? parsed.trees.filter((t) => typeof t?.id === 'string' && typeof t?.title === 'string')
      : [];
    const deleted = Array.isArray(parsed?.deleted) ? parsed.deleted.filter((d) => typeof d === 'string') : [];
    return { trees, deleted };
  } catch {
    return { trees: [], deleted: [] };
  }
}

function write(store: KeyValueStore, ledger: Ledger): void {
  try {
    store.setItem(LEDGER_KEY, JSON.stringify(ledger));
  } catch {
    // A full or disabled localStorage: the ledger is a safety net, never a reason to fail.
  }
}

/**
 * Compares the ledger with the library as IndexedDB has it now (`current`), remembers `current`, and returns
 * the trees the ledger named that are gone without being deleted through Aerie: evicted by the browser.
 */
export function reconcileLedger(store: KeyValueStore, current: readonly LedgerEntry[]): LedgerEntry[] {
  const ledger = read(store);
  const present = new Set(current.map((t) => t.id));
  const deleted = new Set(ledger.deleted);
  const gone = ledger.trees.filter((t) => !present.has(t.id) && !deleted.has(t.id));
  write(store, { trees: current.map(({ id, title }) => ({ id, title })), deleted: ledger.deleted });
  return gone;
}

/** Records that the tree `id` is being deleted through Aerie (call before deleting it). */
export function markDeletedInLedger(store: KeyValueStore, id: string): void {
  const ledger = read(store);
  write(store, {
    trees: ledger.trees.filter((t) => t.id !== id),
    deleted: [...ledger.deleted.filter((d) => d !== id), id].slice(-MAX_TOMBSTONES),
  });
}
