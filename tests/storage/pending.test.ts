import type { IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import {
  createTree,
  DB_VERSION,
  deletePendingDocuments,
  getTree,
  listPendingDocuments,
  listTrees,
  openAerieDb,
  putPendingDocument,
  type PendingDocumentRecord,
} from '../../src/storage';
import { makeRequest, openFixture } from '../support/storage-fixture';

const read = (
  key: string,
  addedAt: number,
  text = `Text of ${key}. It has two sentences.`,
): PendingDocumentRecord => ({
  key,
  name: `${key}.txt`,
  type: 'txt',
  size: text.length,
  addedAt,
  text,
  warnings: [],
});

describe('pending documents (fake IndexedDB)', () => {
  it('keeps added documents in the order they were added, a file while it is read, then its text', async () => {
    const { db } = await openFixture({ empty: true });
    const file = new Blob(['%PDF-1.7 not really'], { type: 'application/pdf' });
    await putPendingDocument(db, read('b', 20));
    await putPendingDocument(db, {
      key: 'a',
      name: 'report.pdf',
      type: 'pdf',
      size: file.size,
      addedAt: 10,
      file,
    });
    await putPendingDocument(db, read('c', 20));

    const listed = await listPendingDocuments(db);
    expect(listed.map((d) => d.key)).toEqual(['a', 'b', 'c']);
    expect(listed[0].file).toBeInstanceOf(Blob);
    expect(await (listed[0].file as Blob).text()).toBe('%PDF-1.7 not really');

    // Once read, the record holds the text instead of the file.
    await putPendingDocument(db, {
      ...read('a', 10, 'Page one.\n\nPage two.'),
      type: 'pdf',
      pageStarts: [11],
    });
    const [a] = await listPendingDocuments(db);
    expect(a.file).toBeUndefined();
    expect(a.text).toBe('Page one.\n\nPage two.');
    expect(a.pageStarts).toEqual([11]);

    await deletePendingDocuments(db, ['b', 'no-such-key']);
    expect((await listPendingDocuments(db)).map((d) => d.key)).toEqual(['a', 'c']);
    db.close();
  });

  it('refuses a record with neither a file nor a text, or without a key', async () => {
    const { db } = await openFixture({ empty: true });
    const empty = { key: 'x', name: 'x.txt', type: 'txt', size: 0, addedAt: 1 } as PendingDocumentRecord;
    await expect(putPendingDocument(db, empty)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(putPendingDocument(db, { ...read('y', 1), key: '' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(await listPendingDocuments(db)).toEqual([]);
    db.close();
  });

  it('recording a build takes its documents out of the pending list in the same transaction', async () => {
    const { db } = await openFixture({ empty: true });
    await putPendingDocument(db, read('a', 1));
    await putPendingDocument(db, read('b', 2));
    await createTree(db, makeRequest('t1'), { consumePending: ['a'] });
    expect((await listPendingDocuments(db)).map((d) => d.key)).toEqual(['b']);
    expect((await getTree(db, 't1'))?.status).toBe('building');

    // A build that cannot be recorded takes nothing: the documents stay where they were.
    await expect(createTree(db, makeRequest('t1'), { consumePending: ['b'] })).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    expect((await listPendingDocuments(db)).map((d) => d.key)).toEqual(['b']);
    db.close();
  });
});

describe('migration from version 2 (fake IndexedDB)', () => {
  it('adds the pending store and keeps every version 2 record', async () => {
    const { factory } = await openFixture({ empty: true });
    const name = 'written-by-v2';
    const v2 = await openAerieDb({ factory, name, version: 2 });
    expect(v2.version).toBe(2);
    expect([...v2.objectStoreNames]).not.toContain('pending');
    // Records in the version 2 shape, written directly (this code's createTree also uses the new store).
    const raw = v2 as unknown as IDBPDatabase;
    const v2Record = {
      id: 'kept',
      title: 'Written by version 2',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: 5,
      status: 'paused',
      origin: 'built',
      documentIds: [],
      documents: [],
      params: {},
      embedding: { model: 'local:aerie-glove-100d', dtype: 'q8' },
      summarizer: { kind: 'extractive' },
      stats: { layers: 0, nodesPerLayer: [], nodeCount: 0, bytes: 0 },
    };
    await raw.put('trees', v2Record);
    await raw.put('settings', { theme: 'dark' }, 'appSettings');
    v2.close();

    const db = await openAerieDb({ factory, name });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames]).toContain('pending');
    expect(await getTree(db, 'kept')).toEqual(v2Record);
    expect((await listTrees(db)).map((t) => t.title)).toEqual(['Written by version 2']);
    expect(await (db as unknown as IDBPDatabase).get('settings', 'appSettings')).toEqual({ theme: 'dark' });
    // The new store works at once.
    await putPendingDocument(db, read('after-upgrade', 1));
    expect((await listPendingDocuments(db)).map((d) => d.key)).toEqual(['after-upgrade']);
    db.close();
  });
});
