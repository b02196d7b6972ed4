import type { IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import {
  completeTree,
  createTree,
  DB_VERSION,
  deleteTree,
  documentIdOf,
  getDocument,
  getTree,
  loadTree,
  openAerieDb,
  StorageError,
} from '../../src/storage';
import { FIXTURE_TEXT, makeRequest, makeTree, openFixture } from '../support/storage-fixture';

describe('schema (fake IndexedDB)', () => {
  it('creates every store and index at the current version', async () => {
    const { db } = await openFixture({ empty: true });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual([
      'cache',
      'checkpoints',
      'conversations',
      'documents',
      'evalRuns',
      'evalSets',
      'nodes',
      'originalFiles',
      'originals',
      'pending',
      'settings',
      'trees',
      'turns',
    ]);
    const history = db.transaction(['conversations', 'evalSets', 'evalRuns']);
    for (const name of ['conversations', 'evalSets', 'evalRuns'] as const) {
      expect([...history.objectStore(name).indexNames]).toEqual(['byTree']);
      expect(history.objectStore(name).keyPath).toBe('id');
    }
    const tx = db.transaction(['trees', 'cache', 'nodes']);
    expect([...tx.objectStore('trees').indexNames].sort()).toEqual(['byDocument', 'byUpdatedAt']);
    expect([...tx.objectStore('cache').indexNames]).toEqual(['byTree']);
    expect(tx.objectStore('nodes').keyPath).toEqual(['treeId', 'id']);
    expect(db.transaction('originalFiles').objectStore('originalFiles').keyPath).toEqual([
      'documentId',
      'sha256',
    ]);
    db.close();
  });

  it('refuses versions that do not exist', async () => {
    const { factory } = await openFixture({ empty: true });
    for (const version of [0, DB_VERSION + 1, 1.5]) {
      await expect(openAerieDb({ factory, name: 'other', version })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
  });

  it('reports a browser without IndexedDB as UNAVAILABLE', async () => {
    const saved = globalThis.indexedDB;
    try {
      delete (globalThis as { indexedDB?: IDBFactory }).indexedDB;
      const error = await openAerieDb().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ code: 'UNAVAILABLE' });
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});

describe('migration from version 1 (fake IndexedDB)', () => {
  it('keeps the data, indexes trees by document and backfills origin and size on disk', async () => {
    const { factory } = await openFixture({ empty: true });
    const name = 'written-by-v1';
    // Version 1 as it was: created through the v1 upgrade path, written in the v1 record shape.
    const v1 = (await openAerieDb({ factory, name, version: 1 })) as unknown as IDBPDatabase;
    expect(v1.version).toBe(1);
    expect([...v1.transaction('trees').store.indexNames]).toEqual(['byUpdatedAt']);
    const tree = makeTree();
    const docId = await documentIdOf(FIXTURE_TEXT);
    await v1.put('documents', {
      id: docId,
      sha256: docId,
      name: 'notes.html',
      type: 'text/html',
      size: 4096,
      text: FIXTURE_TEXT,
      addedAt: 1,
    });
    const v1Record = (id: string, withRequest: boolean) => ({
      id,
      title: `v1 ${id}`,
      createdAt: tree.createdAt,
      updatedAt: 2,
      status: 'ready',
      documentIds: [docId],
      documents: [{ id: 'doc-0', name: 'notes.html', chars: FIXTURE_TEXT.length, documentId: docId }],
      params: tree.params,
      embedding: { model: tree.embedding.model, dim: tree.embedding.dim },
      summarizer: tree.summarizer,
      ...(withRequest
        ? {
            request: {
              title: id,
              documents: [{ documentId: docId }],
              params: {},
              embedding: { kind: 'browser', model: 'fake/embedder' },
              summarizer: { kind: 'extractive' },
            },
          }
        : {}),
      stats: { layers: 2, nodesPerLayer: [12, 3, 1], nodeCount: 16 },
    });
    for (const id of ['old-a', 'old-b']) {
      await v1.put('trees', v1Record(id, id === 'old-a'));
      for (const node of tree.nodes)
        await v1.put('nodes', { treeId: id, ...node, embedding: node.embedding.slice() });
    }
    v1.close();

    const db = await openAerieDb({ factory, name });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.transaction('trees').objectStore('trees').indexNames].sort()).toEqual([
      'byDocument',
      'byUpdatedAt',
    ]);

    // The backfilled size equals what the current code records for the same tree and document.
    const reference = await openFixture({ empty: true });
    await createTree(reference.db, makeRequest('old-a'));
    const expected = await completeTree(reference.db, 'old-a', tree);
    const a = await getTree(db, 'old-a');
    const b = await getTree(db, 'old-b');
    expect(a?.stats.bytes).toBe(expected.stats.bytes);
    expect(a?.stats.bytes).toBeGreaterThan(tree.nodes.length * tree.embedding.dim * 4);
    expect(a?.origin).toBe('built');
    expect(b?.origin).toBe('imported');
    expect(a?.title).toBe('v1 old-a');

    // The nodes survived bit-exactly.
    const loaded = await loadTree(db, 'old-a');
    expect(loaded.nodes.map((n) => Array.from(n.embedding))).toEqual(
      tree.nodes.map((n) => Array.from(n.embedding)),
    );

    // The new index is used: a document shared by two trees is kept until its last tree goes.
    await deleteTree(db, 'old-a');
    expect(await getDocument(db, docId)).toBeDefined();
    await deleteTree(db, 'old-b');
    expect(await getDocument(db, docId)).toBeUndefined();
    db.close();
    reference.db.close();
  });

  it('a failing step aborts the upgrade with MIGRATION_FAILED and leaves the version 1 data as it was', async () => {
    const { factory } = await openFixture({ empty: true });
    const name = 'damaged-v1';
    const v1 = (await openAerieDb({ factory, name, version: 1 })) as unknown as IDBPDatabase;
    const tree = makeTree();
    const record = {
      id: 'bad',
      title: 'bad',
      updatedAt: 1,
      documentIds: [],
      stats: { layers: 0, nodesPerLayer: [1], nodeCount: 1 },
    };
    await v1.put('trees', record);
    // A node record without its text: the size backfill cannot read it.
    const { text: _text, ...damaged } = { treeId: 'bad', ...tree.nodes[0] };
    await v1.put('nodes', damaged);
    v1.close();

    const error = await openAerieDb({ factory, name }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({
      code: 'MIGRATION_FAILED',
      details: { from: 1, to: DB_VERSION, failedAt: 2 },
    });
    expect((error as Error).message).toContain('version 2');

    const still = (await openAerieDb({ factory, name, version: 1 })) as unknown as IDBPDatabase;
    expect(still.version).toBe(1);
    expect([...still.transaction('trees').store.indexNames]).toEqual(['byUpdatedAt']);
    expect(await still.get('trees', 'bad')).toEqual(record);
    still.close();
  });

  it('opening at version 1 and then the current version from scratch gives the same schema as a fresh database', async () => {
    const { factory } = await openFixture({ empty: true });
    const name = 'upgraded-from-v1';
    (await openAerieDb({ factory, name, version: 1 })).close();
    const upgraded = await openAerieDb({ factory, name });
    const fresh = (await openFixture({ empty: true })).db;
    const describeDb = (db: typeof fresh) => {
      const names = [...db.objectStoreNames];
      const tx = db.transaction(names as never[]);
      return names.map((n) => [n, [...tx.objectStore(n as never).indexNames].sort()]);
    };
    expect(describeDb(upgraded)).toEqual(describeDb(fresh));
    upgraded.close();
    fresh.close();
  });
});
