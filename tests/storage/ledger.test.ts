/** The library's ledger outside IndexedDB (src/storage/ledger.ts): what the browser evicted, told by name. */
import { describe, expect, it } from 'vitest';
import { LEDGER_KEY, markDeletedInLedger, reconcileLedger } from '../../src/storage/ledger';

/** A FAKE localStorage (a Map). */
function fakeStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    map,
  };
}

const A = { id: 'a', title: 'Pride and Prejudice' };
const B = { id: 'b', title: 'Emma' };
const C = { id: 'c', title: 'Persuasion' };

describe('the library ledger', () => {
  it('reports nothing the first time, then names every tree that vanished without being deleted', () => {
    const store = fakeStorage();
    expect(reconcileLedger(store, [A, B, C])).toEqual([]);
    // The browser evicted the origin's IndexedDB: the library reads empty.
    expect(reconcileLedger(store, [])).toEqual([A, B, C]);
    // Told once: the ledger now matches the library.
    expect(reconcileLedger(store, [])).toEqual([]);
  });

  it('a tree deleted through Aerie (in any tab) is never taken for an eviction, even if a read saw it after the mark', () => {
    const store = fakeStorage();
    reconcileLedger(store, [A, B]);
    markDeletedInLedger(store, 'a');
    // Another tab read the library between the mark and the delete's commit: A is still there.
    expect(reconcileLedger(store, [A, B])).toEqual([]);
    expect(reconcileLedger(store, [B])).toEqual([]);
  });

  it('keeps titles as renamed, adds new trees, and survives a broken or missing value', () => {
    const store = fakeStorage();
    reconcileLedger(store, [A]);
    reconcileLedger(store, [{ id: 'a', title: 'P&P' }, C]);
    expect(reconcileLedger(store, [])).toEqual([{ id: 'a', title: 'P&P' }, C]);
    store.setItem(LEDGER_KEY, '{not json');
    expect(reconcileLedger(store, [A])).toEqual([]);
    expect(JSON.parse(store.getItem(LEDGER_KEY)!).trees).toEqual([A]);
  });

  it('never throws when localStorage refuses to write', () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(reconcileLedger(full, [A])).toEqual([]);
    expect(() => markDeletedInLedger(full, 'a')).not.toThrow();
  });
});
