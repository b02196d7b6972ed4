import { forceCloseDatabase } from 'fake-indexeddb';
import { unwrap, wrap, type IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import {
  BLOCKED_MESSAGE,
  DB_VERSION,
  estimateStorage,
  getDocument,
  getSetting,
  getTree,
  isStoragePersisted,
  openAerieDb,
  RELOAD_MESSAGE,
  requestPersistence,
  saveDocument,
  setSetting,
  updateTree,
  type BlockedInfo,
  type VersionChangeInfo,
} from '../../src/storage';
import { failNthPut, openFixture } from '../support/storage-fixture';

/** A connection from a tab that ignores version changes (an old build of the app, or a stuck tab). */
function openStubbornTab(factory: IDBFactory, name: string, version: number) {
  const request = factory.open(name, version);
  let blocked = false;
  request.addEventListener('blocked', () => (blocked = true));
  return { connection: wrap(request) as unknown as Promise<IDBPDatabase>, wasBlocked: () => blocked };
}

describe('two tabs (fake IndexedDB)', () => {
  it('an upgrade blocked by another tab reports it, then fails with BLOCKED after the timeout instead of hanging', async () => {
    const { factory } = await openFixture({ empty: true });
    const name = 'blocked';
    (await openAerieDb({ factory, name, version: 1 })).close();
    const oldTab = await openStubbornTab(factory, name, 1).connection;
    const events: BlockedInfo[] = [];
    const error = await openAerieDb({
      factory,
      name,
      blockedTimeoutMs: 30,
      onBlocked: (e) => events.push(e),
    }).catch((e: unknown) => e);
    expect(events).toEqual([{ currentVersion: 1, requestedVersion: DB_VERSION, message: BLOCKED_MESSAGE }]);
    expect(error).toMatchObject({
      code: 'BLOCKED',
      details: { currentVersion: 1, requestedVersion: DB_VERSION },
    });
    expect((error as Error).message).toContain('Close other Aerie tabs');
    oldTab.close();
    // The abandoned upgrade finishes once the old tab is gone and closes its own connection.
    const db = await openAerieDb({ factory, name });
    expect(db.version).toBe(DB_VERSION);
    db.close();
  });

  it('an upgrade goes on as soon as the blocking tab closes', async () => {
    const { factory } = await openFixture({ empty: true });
    const name = 'unblocked';
    (await openAerieDb({ factory, name, version: 1 })).close();
    const oldTab = await openStubbornTab(factory, name, 1).connection;
    const db = await openAerieDb({ factory, name, onBlocked: () => oldTab.close() });
    expect(db.version).toBe(DB_VERSION);
    db.close();
  });

  it('a connection that blocks another tab’s upgrade closes itself and says so', async () => {
    const { db, factory, name, treeId } = await openFixture();
    const changes: VersionChangeInfo[] = [];
    const tab = await openAerieDb({ factory, name, onVersionChange: (c) => changes.push(c) });
    const newer = openStubbornTab(factory, name, DB_VERSION + 1);
    const upgraded = await newer.connection;
    expect(newer.wasBlocked()).toBe(false);
    expect(changes).toEqual([
      { currentVersion: DB_VERSION, requestedVersion: DB_VERSION + 1, message: RELOAD_MESSAGE },
    ]);
    const error = await getTree(tab, treeId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CLOSED' });
    expect((error as Error).message).toContain('Reload');
    await expect(getTree(db, treeId)).rejects.toMatchObject({ code: 'CLOSED' });
    upgraded.close();
    await expect(openAerieDb({ factory, name })).rejects.toMatchObject({ code: 'VERSION_TOO_NEW' });
  });

  it('a new version opened in two tabs at once upgrades once; the tab on the old version is told and keeps its data', async () => {
    const { factory } = await openFixture({ empty: true });
    const name = 'update';
    const upgrades: number[] = [];
    // Counts the upgrades the browser runs, whoever opens the database.
    const counting = {
      open(n: string, v?: number) {
        const request = factory.open(n, v);
        request.addEventListener('upgradeneeded', (e) => upgrades.push(e.newVersion ?? 0));
        return request;
      },
    } as IDBFactory;
    const changes: VersionChangeInfo[] = [];
    const oldTab = await openAerieDb({
      factory: counting,
      name,
      version: DB_VERSION - 1,
      onVersionChange: (c) => changes.push(c),
    });
    await setSetting(oldTab, 'theme', 'dark');
    const [a, b] = await Promise.all([
      openAerieDb({ factory: counting, name }),
      openAerieDb({ factory: counting, name }),
    ]);
    expect(upgrades).toEqual([DB_VERSION - 1, DB_VERSION]);
    expect(changes).toEqual([
      { currentVersion: DB_VERSION - 1, requestedVersion: DB_VERSION, message: RELOAD_MESSAGE },
    ]);
    // The old tab writes nothing more into the new schema: it is told to reload.
    await expect(setSetting(oldTab, 'theme', 'light')).rejects.toMatchObject({ code: 'CLOSED' });
    expect(await getSetting(a, 'theme')).toBe('dark');
    expect(await getSetting(b, 'theme')).toBe('dark');
    a.close();
    b.close();
  });

  it('reports a connection the browser terminated', async () => {
    const { factory, name } = await openFixture({ empty: true });
    let terminated = 0;
    const db = await openAerieDb({ factory, name, onTerminated: () => terminated++ });
    forceCloseDatabase(unwrap(db) as never);
    expect(terminated).toBe(1);
    await expect(getSetting(db, 'theme')).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('interleaved updates of one tree from two connections all land', async () => {
    const { db, factory, name, treeId } = await openFixture();
    const other = await openAerieDb({ factory, name });
    const before = (await getTree(db, treeId))?.title ?? '';
    const rounds = 20;
    await Promise.all(
      Array.from({ length: rounds * 2 }, (_, i) =>
        updateTree(i % 2 ? other : db, treeId, (t) => ({ title: `${t.title}${i % 2 ? 'b' : 'a'}` })),
      ),
    );
    const title = (await getTree(other, treeId))?.title ?? '';
    expect(title.length).toBe(before.length + rounds * 2);
    expect(title.match(/a/g)?.length).toBe((before.match(/a/g)?.length ?? 0) + rounds);
    await Promise.all([
      updateTree(db, treeId, { status: 'paused' }),
      updateTree(other, treeId, { title: 'Renamed' }),
    ]);
    expect(await getTree(db, treeId)).toMatchObject({ status: 'paused', title: 'Renamed' });
    other.close();
  });
});

describe('quota (fake IndexedDB)', () => {
  it('a full quota fails one write with QUOTA_EXCEEDED and loses nothing written before', async () => {
    for (const mode of ['abort', 'throw'] as const) {
      const { db } = await openFixture({ empty: true });
      await setSetting(db, 'theme', 'dark');
      const first = await saveDocument(db, { name: 'one', text: 'first text' });
      const quota = failNthPut(1, mode);
      let error: unknown;
      try {
        error = await saveDocument(db, { name: 'two', text: 'second text' }).catch((e: unknown) => e);
      } finally {
        quota.restore();
      }
      expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect((error as Error).message).toMatch(/delet.*trees.*persistent storage/);
      expect(await getDocument(db, first.id)).toEqual(first);
      expect(await getSetting(db, 'theme')).toBe('dark');
      const second = await saveDocument(db, { name: 'two', text: 'second text' });
      expect(await getDocument(db, second.id)).toEqual(second);
    }
  });

  it('estimates usage and asks for persistence through the storage manager, when there is one', async () => {
    expect(await estimateStorage(undefined)).toBeUndefined();
    expect(await requestPersistence(undefined)).toBeUndefined();
    expect(await isStoragePersisted({})).toBeUndefined();
    const fakeManager = {
      estimate: async () => ({ usage: 1_000, quota: 50_000 }),
      persist: async () => true,
      persisted: async () => false,
    };
    expect(await estimateStorage(fakeManager)).toEqual({ usage: 1_000, quota: 50_000 });
    expect(await requestPersistence(fakeManager)).toBe(true);
    expect(await isStoragePersisted(fakeManager)).toBe(false);
    expect(await estimateStorage({ estimate: async () => ({}) })).toBeUndefined();
  });
});
