/**
 * The model cache's writes (src/storage/cache.ts) on a FAKE IndexedDB (fake-indexeddb): new entries are written
 * without reading their keys first, and an entry another tab wrote meanwhile keeps the users of both.
 */
import { IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { lookupCache, saveCache, type AerieDb, type CacheEntry } from '../../src/storage';
import { openFixture, recordTree } from '../support/storage-fixture';

function entry(key: string, treeIds: string[], value = new Float32Array([1, 2, 3])): CacheEntry {
  return { key, kind: 'embedding', value, treeIds, createdAt: 0 };
}

/** Reads of the cache store from now on (a spy on fake-indexeddb's `get`; `restore()` ends it). */
function countCacheReads(): { readonly reads: number; restore(): void } {
  const proto = IDBObjectStore.prototype as unknown as { get: (...args: unknown[]) => unknown };
  const original = proto.get;
  let reads = 0;
  proto.get = function (this: IDBObjectStore, ...args: unknown[]) {
    if (this.name === 'cache') reads++;
    return original.apply(this, args);
  };
  spies.push(() => (proto.get = original));
  return {
    get reads() {
      return reads;
    },
    restore: () => (proto.get = original),
  };
}
const spies: (() => void)[] = [];
afterEach(() => spies.splice(0).forEach((restore) => restore()));

async function stored(db: AerieDb, key: string): Promise<CacheEntry | undefined> {
  return db.get('cache', key);
}

describe('saveCache (fake IndexedDB)', () => {
  it('writes new entries without reading the cache first', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    const spy = countCacheReads();
    await saveCache(db, [entry('a', ['tree']), entry('b', ['tree']), entry('c', ['tree'])]);
    spy.restore();
    expect(spy.reads).toBe(0);
    expect((await stored(db, 'b'))?.treeIds).toEqual(['tree']);
    expect(Array.from((await stored(db, 'c'))?.value as Float32Array)).toEqual([1, 2, 3]);
  });

  it('merges the users of an entry written meanwhile (another tab), reading only that one', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'mine');
    await recordTree(db, 'theirs');
    // Both trees missed 'shared' in their lookups; the other tab's write lands first.
    expect(await lookupCache(db, ['shared'], 'mine')).toEqual([undefined]);
    await saveCache(db, [entry('shared', ['theirs'])]);
    const spy = countCacheReads();
    await saveCache(db, [entry('new', ['mine']), entry('shared', ['mine'], new Float32Array([4, 5, 6]))]);
    spy.restore();
    expect(spy.reads).toBe(1);
    expect((await stored(db, 'shared'))?.treeIds).toEqual(['theirs', 'mine']);
    expect(Array.from((await stored(db, 'shared'))?.value as Float32Array)).toEqual([4, 5, 6]);
    expect((await stored(db, 'new'))?.treeIds).toEqual(['mine']);
  });

  it('a key twice in one write is stored once with its users merged', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'one');
    await recordTree(db, 'two');
    await saveCache(db, [entry('k', ['one']), entry('k', ['two'])]);
    expect((await stored(db, 'k'))?.treeIds).toEqual(['one', 'two']);
    expect(await db.count('cache')).toBe(1);
  });

  it('writes nothing for a tree deleted meanwhile (NOT_FOUND)', async () => {
    const { db } = await openFixture({ empty: true });
    await expect(saveCache(db, [entry('a', ['gone'])])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await db.count('cache')).toBe(0);
  });
});
