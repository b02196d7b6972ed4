/**
 * Kept originals belong to their content (issue 41, point 4), with a real PDF (tests/fixtures/pdf/layouts.pdf,
 * read by PDF.js in Node as the page's ingestion worker reads it) and FAKE IndexedDB: a file is keyed by its document and
 * the SHA-256 of its bytes, so no tree's file stands in for another's; an imported tree file's PDF is kept only
 * when its text is the text the tree was built from, and a mismatched one is left out with a sentence while the
 * tree still imports; the sizes a file's layout claims are refused before any work; files kept before version 7
 * still open.
 */
import type { IDBPDatabase } from 'idb';
import { IDBFactory } from 'fake-indexeddb';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestFile, type IngestedDocument } from '../../src/ingest';
import { MAX_PDF_PAGES, MAX_TEXT_CHARS } from '../../src/protocol/ingest-limits';
import { extractPdfText } from '../../src/ingest';
import { createImportService } from '../../src/storage/import-service';
import {
  completeTree,
  createTree,
  deleteTree,
  exportTree,
  getOriginal,
  getTree,
  importTree,
  keepOriginals,
  openAerieDb,
  type AerieDb,
} from '../../src/storage';
import { layoutFixture, nodePdfDeps } from '../support/pdf-precision';
import { makeRequest, makeTree, openFixture } from '../support/storage-fixture';

const { pdf: PDF } = layoutFixture();
/** The same document saved again: other bytes (a trailing comment), the same text. */
const RESAVED = new Uint8Array([...PDF, ...new TextEncoder().encode('\n% saved again\n')]);
/** Another PDF, whose text is not the document's. */
const OTHER_PDF = new Uint8Array(
  readFileSync(new URL('../fixtures/ingest/three-pages.pdf', import.meta.url)),
);
/** The app's PDF reading (PDF.js in Node, as in the page's ingestion worker): what checks a carried PDF. */
const readPdf = async (bytes: Uint8Array, name: string) => {
  const read = await extractPdfText(bytes, await nodePdfDeps.loadPdf!(), { name, maxChars: MAX_TEXT_CHARS });
  return { text: read.text, pageStarts: read.pageStarts, layout: read.layout };
};
let doc: IngestedDocument;

beforeAll(async () => {
  doc = await ingestFile(new File([PDF as Uint8Array<ArrayBuffer>], 'layouts.pdf'), {}, nodePdfDeps);
});

const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' });

/** A finished tree of the PDF's text (its leaves cut from it), keeping `bytes` as its original. */
async function pdfTree(db: AerieDb, id: string, bytes?: Uint8Array) {
  await createTree(db, makeRequest(id, doc.text), { files: [{ type: 'application/pdf', size: PDF.length }] });
  await completeTree(db, id, makeTree({ text: doc.text }));
  if (bytes) await keepOriginals(db, id, [{ file: blob(bytes), layout: doc.layout!, name: 'layouts.pdf' }]);
  return (await getTree(db, id))!;
}

/** The bytes of the file tree `id` keeps for its document, as the page reads them. */
async function keptBytes(db: AerieDb, id: string): Promise<Uint8Array | undefined> {
  const entry = (await getTree(db, id))!.documents[0];
  if (!entry.original?.kept) return undefined;
  const record = await getOriginal(db, entry.documentId!, entry.original.sha256);
  return record && new Uint8Array(await record.file.arrayBuffer());
}

/** An export of `id` with its original replaced by `bytes` (what a hostile or mistaken file carries). */
async function exportCarrying(db: AerieDb, id: string, bytes: Uint8Array): Promise<string> {
  const json = JSON.parse(await exportTree(db, id, { originals: true }));
  json.originals[0].file = Buffer.from(bytes).toString('base64');
  return JSON.stringify(json);
}

describe('kept originals are keyed by their content', () => {
  it('a tree names its file by hash; a rebuild keeps the same one; another file of the text is its own', async () => {
    const { db } = await openFixture({ empty: true });
    const a = await pdfTree(db, 'a', PDF);
    const info = a.documents[0].original;
    expect(info).toMatchObject({
      kept: true,
      bytes: PDF.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // A rebuild of the tree keeps the file the tree kept (createTree's shareOriginals).
    await createTree(db, makeRequest('rebuilt', doc.text), { shareOriginals: [info] });
    expect((await getTree(db, 'rebuilt'))?.documents[0].original).toEqual(info);
    // Another build of the same text names no file by its text alone, and keeps its own bytes.
    await createTree(db, makeRequest('b', doc.text), {});
    expect((await getTree(db, 'b'))?.documents[0].original).toBeUndefined();
    await keepOriginals(db, 'b', [{ file: blob(RESAVED), layout: doc.layout!, name: 'again.pdf' }]);
    expect(await keptBytes(db, 'b')).toEqual(RESAVED);
    expect(await keptBytes(db, 'a')).toEqual(PDF);
    expect(await db.count('originalFiles')).toBe(2);
    // Each file goes with the last tree that names it; the text stays while a tree uses it.
    await deleteTree(db, 'a');
    expect(await keptBytes(db, 'rebuilt')).toEqual(PDF);
    await deleteTree(db, 'rebuilt');
    expect(await db.count('originalFiles')).toBe(1);
    expect(await keptBytes(db, 'b')).toEqual(RESAVED);
    await deleteTree(db, 'b');
    expect(await db.count('originalFiles')).toBe(0);
    expect(await db.count('documents')).toBe(0);
  });

  it('imports a genuine export with its PDF, the layout read from the file here (the import service)', async () => {
    const source = (await openFixture({ empty: true })).db;
    await pdfTree(source, 'a', PDF);
    const { db } = await openFixture({ empty: true });
    const service = createImportService({ openDb: async () => db });
    const file = new Blob([await exportTree(source, 'a', { originals: true })]);
    const { id, notes } = await service.importFile(file, readPdf);
    expect(notes).toEqual([]);
    expect(await keptBytes(db, id)).toEqual(PDF);
    const entry = (await getTree(db, id))!.documents[0];
    const record = await getOriginal(db, entry.documentId!, (entry.original as { sha256: string }).sha256);
    expect(record?.layout.pages.map((p) => p.check)).toEqual(doc.layout!.pages.map((p) => p.check));
  });
});

describe('an imported tree file cannot plant another PDF for a document', () => {
  it('refuses a PDF of another text with a sentence; the tree imports with its text, and a real build keeps its own file', async () => {
    const source = (await openFixture({ empty: true })).db;
    await pdfTree(source, 'a', PDF);
    const planted = await exportCarrying(source, 'a', OTHER_PDF);
    const { db } = await openFixture({ empty: true });
    const notes: string[] = [];
    const id = await importTree(db, planted, { readPdf, onRefused: (n) => notes.push(n) });
    expect(notes).toEqual([
      expect.stringMatching(
        /^The PDF carried as “layouts\.pdf” is not this document: its text differs from the text the tree was built from \(from character [\d,]+ on\), so it was not kept: the tree was imported with the document's text, and its citations open in the text view\.$/,
      ),
    ]);
    const entry = (await getTree(db, id))!.documents[0];
    expect(entry.documentId).toBeDefined();
    expect(entry.original).toEqual({ kept: false, reason: 'mismatch', bytes: OTHER_PDF.length });
    expect(await db.count('originalFiles')).toBe(0);
    // Afterwards a build of the very document, and a genuine import, keep and show the real file.
    await pdfTree(db, 'built', PDF);
    expect(await keptBytes(db, 'built')).toEqual(PDF);
    const genuine = await importTree(db, await exportTree(source, 'a', { originals: true }), { readPdf });
    expect(await keptBytes(db, genuine)).toEqual(PDF);
  });

  it('refuses a file that is no PDF at all, and a text that is not the tree’s (then keeping neither)', async () => {
    const source = (await openFixture({ empty: true })).db;
    await pdfTree(source, 'a', PDF);
    const { db } = await openFixture({ empty: true });
    const notes: string[] = [];
    const onRefused = (n: string) => notes.push(n);
    const notPdf = await exportCarrying(source, 'a', new TextEncoder().encode('just some text, not a PDF'));
    const first = await importTree(db, notPdf, { readPdf, onRefused });
    expect(notes[0]).toMatch(/^The PDF carried as “layouts\.pdf” is not a PDF Aerie can read \(/);
    expect((await getTree(db, first))!.documents[0].original).toMatchObject({
      kept: false,
      reason: 'mismatch',
    });

    const json = JSON.parse(await exportTree(source, 'a', { originals: true }));
    // Another text of the same length (the layout still lies within it): a word changed throughout.
    json.originals[0].text = json.originals[0].text.replace(/Elliot/g, 'Elliox');
    const second = await importTree(db, JSON.stringify(json), { readPdf, onRefused });
    expect(notes[1]).toMatch(
      /^The text carried with “layouts\.pdf” is not the text this tree was built from \((passage \d+ of the tree is not in it|it has [\d,]+ characters where the tree's document had [\d,]+)\), so neither it nor the PDF was kept/,
    );
    expect((await getTree(db, second))!.documents[0].documentId).toBeUndefined();
    expect(await db.count('originalFiles')).toBe(0);
  });

  it('keeps no carried PDF where none can be checked (no PDF reader), and says so', async () => {
    const source = (await openFixture({ empty: true })).db;
    await pdfTree(source, 'a', PDF);
    const { db } = await openFixture({ empty: true });
    const notes: string[] = [];
    const id = await importTree(db, await exportTree(source, 'a', { originals: true }), {
      onRefused: (n) => notes.push(n),
    });
    expect(notes[0]).toMatch(/could not be checked here/);
    expect((await getTree(db, id))!.documents[0].original).toMatchObject({ kept: false, reason: 'mismatch' });
  });

  it('refuses a layout claiming 200,000 pages before the tree is even parsed, with a sentence', async () => {
    const source = (await openFixture({ empty: true })).db;
    await pdfTree(source, 'a', PDF);
    const json = JSON.parse(await exportTree(source, 'a', { originals: true }));
    const page = { start: 0, end: 1, items: 1, check: 0, runs: '' };
    json.originals[0].layout.pages = Array.from({ length: 200_000 }, () => page);
    // The tree itself is broken too: a limit checked after parsing would report that instead.
    json.nodes[0].children = [10 ** 9];
    const { db } = await openFixture({ empty: true });
    await expect(importTree(db, JSON.stringify(json), { readPdf })).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message:
        "This tree file is beyond Aerie's limits: originals[0].layout.pages: the PDF's layout claims 200,000 " +
        `pages; Aerie reads PDFs of up to ${MAX_PDF_PAGES.toLocaleString('en')} pages`,
    });
    const items = JSON.parse(await exportTree(source, 'a', { originals: true }));
    items.originals[0].layout.pages[0].items = 10 ** 7;
    await expect(importTree(db, JSON.stringify(items), { readPdf })).rejects.toMatchObject({
      code: 'TOO_LARGE',
      message: expect.stringContaining(
        'originals[0].layout.pages[0].items: 10,000,000 text items on one page',
      ),
    });
    expect(await db.count('trees')).toBe(0);
  });
});

describe('schema version 7 keeps the files kept before it', () => {
  it('a version 6 database opens as version 7: its trees still open, export and delete their PDFs', async () => {
    const factory = new IDBFactory();
    const name = 'v6-to-v7';
    const v6 = (await openAerieDb({ factory, name, version: 6 })) as unknown as IDBPDatabase;
    // A tree and its kept PDF as version 6 wrote them: the file under the document's id, no hash anywhere.
    const fixture = (await openFixture({ empty: true })).db;
    const built = await pdfTree(fixture, 'old');
    const documentId = built.documents[0].documentId!;
    const v6Tree = {
      ...built,
      documents: [{ ...built.documents[0], original: { kept: true, bytes: PDF.length, layoutBytes: 10 } }],
    };
    await v6.put('trees', v6Tree);
    await v6.put('documents', (await fixture.get('documents', documentId))!);
    for (const node of await fixture.getAll('nodes')) await v6.put('nodes', node);
    await v6.put('originals', {
      documentId,
      name: 'layouts.pdf',
      type: 'application/pdf',
      size: PDF.length,
      file: blob(PDF),
      layout: doc.layout,
      addedAt: 1,
    });
    v6.close();

    const db = await openAerieDb({ factory, name });
    expect(db.version).toBe(7);
    expect(await keptBytes(db, 'old')).toEqual(PDF);
    const exported = JSON.parse(await exportTree(db, 'old', { originals: true }));
    expect(exported.originals).toHaveLength(1);
    // A new build of the same text keeps its own file by hash, never the one kept before.
    await createTree(db, makeRequest('new', doc.text), {});
    expect((await getTree(db, 'new'))?.documents[0].original).toBeUndefined();
    await deleteTree(db, 'old');
    expect(await db.count('originals')).toBe(0);
    db.close();
  });
});
