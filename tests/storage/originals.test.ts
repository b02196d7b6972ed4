import type { IDBPDatabase } from 'idb';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { PdfLayout } from '../../src/protocol/pdf-layout';
import {
  createTree,
  exportTree,
  getTree,
  importTree,
  keepOriginals,
  openAerieDb,
  type AerieDb,
} from '../../src/storage';
import { fillDisk, makeRequest, openFixture } from '../support/storage-fixture';
import { completeTree } from '../../src/storage';
import { makeTree } from '../support/storage-fixture';

const layout = (): PdfLayout => ({
  version: 1,
  pages: [{ start: 0, end: 40, items: 3, check: 12345, runs: Int32Array.from([0, 0, 0, 20, 21, 1, 0, 19]) }],
});
const pdf = (bytes = 1000) => new Blob([new Uint8Array(bytes).fill(37)], { type: 'application/pdf' });

async function builtTree(db: AerieDb, id: string) {
  await createTree(db, makeRequest(id), { files: [{ type: 'application/pdf', size: 1000 }] });
  await completeTree(db, id, makeTree());
  return (await getTree(db, id))!;
}

describe('original files kept with their trees (fake IndexedDB, schema version 5)', () => {
  it('a version 4 database opens as version 5 with an empty originals store, its trees untouched', async () => {
    const factory = new IDBFactory();
    const name = 'v4-to-v5';
    // A tree record as version 4 wrote it (its documents carry no `original`), written as it was then.
    const fixture = await openFixture({ empty: true });
    await builtTree(fixture.db, 'old');
    const v4Record = await getTree(fixture.db, 'old');
    const v4 = (await openAerieDb({ factory, name, version: 4 })) as unknown as IDBPDatabase;
    await v4.put('trees', v4Record);
    v4.close();
    const v5 = (await openAerieDb({ factory, name })) as AerieDb;
    expect([...(v5 as unknown as IDBPDatabase).objectStoreNames]).toContain('originals');
    const old = await getTree(v5, 'old');
    expect(old?.documents[0].original).toBeUndefined(); // built before: no original, the text view says why
    expect(await v5.count('originals')).toBe(0);
  });

  it('a file above the limit is not kept, and the tree says why', async () => {
    const { db } = await openFixture({ empty: true });
    await builtTree(db, 'a');
    const [info] = await keepOriginals(db, 'a', [{ file: pdf(2000), layout: layout(), name: 'big.pdf' }], {
      maxBytes: 1500,
    });
    expect(info).toEqual({ kept: false, reason: 'too-large', bytes: 2000 });
    expect((await getTree(db, 'a'))?.status).toBe('ready');
    expect(await db.count('originalFiles')).toBe(0);
  });

  it('a full disk keeps the tree as it was: the file is left out and the tree still opens', async () => {
    const { db } = await openFixture({ empty: true });
    const before = await builtTree(db, 'a');
    const disk = fillDisk();
    let info;
    try {
      [info] = await keepOriginals(db, 'a', [{ file: pdf(), layout: layout(), name: 'notes.pdf' }]);
    } finally {
      disk.restore();
    }
    expect(info).toEqual({ kept: false, reason: 'storage-full', bytes: 1000 });
    const after = await getTree(db, 'a');
    expect({ ...after, documents: before.documents }).toEqual(before);
    expect(await db.count('originalFiles')).toBe(0);
    expect(await db.count('nodes')).toBe(before.stats.nodeCount);
  });

  it('refuses an import whose layout points outside its text, writing nothing', async () => {
    const { db } = await openFixture({ empty: true });
    await builtTree(db, 'a');
    await keepOriginals(db, 'a', [{ file: pdf(), layout: layout(), name: 'notes.pdf' }]);
    const full = JSON.parse(await exportTree(db, 'a', { originals: true }));
    full.originals[0].layout.pages[0].end = 10 ** 9;
    const other = (await openFixture({ empty: true })).db;
    await expect(importTree(other, JSON.stringify(full))).rejects.toMatchObject({
      code: 'INVALID_IMPORT',
      message: expect.stringContaining('originals[0].layout.pages[0]'),
    });
    expect(await other.count('trees')).toBe(0);
  });
});
