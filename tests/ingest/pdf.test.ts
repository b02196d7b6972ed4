import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, type BuildDocument } from '../../src/core/build';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { ingestFile, type IngestDeps, type IngestedDocument, type IngestProgress } from '../../src/ingest';
import { loadPdfjs } from '../../src/ingest/pdfjs-runtime';
import { fakeEmbedding } from '../support/fake-embedder';

const require = createRequire(import.meta.url);
const CMAP_DIR = join(dirname(require.resolve('pdfjs-dist/package.json')), 'cmaps');

/** Node's stand-in for the bundled CMaps of the browser worker: the same files, read from disk. */
const deps: IngestDeps = {
  loadPdf: () => loadPdfjs(async (filename) => new Uint8Array(readFileSync(join(CMAP_DIR, filename)))),
};

const fixture = (name: string, as = name): File =>
  new File([readFileSync(new URL(`../fixtures/ingest/${name}`, import.meta.url))], as);

/** The text of each page of three-pages.pdf, as the generator wrote it (page 1 has two paragraphs). */
const PAGES = [
  'The first page begins here.\nIt wraps onto a second line.\n\nA new paragraph on page one costs 5 café crèmes.',
  'Page two is about owls.\nOwls hunt at night.',
  'Page three ends the document.',
];

/** The pages of a document, cut at its page starts (each page but the last ends with the "\n\n" separator). */
function pagesOf(doc: IngestedDocument): string[] {
  const starts = [0, ...(doc.pageStarts ?? []), doc.text.length + 2];
  return starts.slice(0, -1).map((start, i) => doc.text.slice(start, starts[i + 1] - 2));
}

describe('PDF files', () => {
  it('extract the text of each page, recording where pages 2, 3, … start', async () => {
    const file = fixture('three-pages.pdf');
    const doc = await ingestFile(file, {}, deps);
    expect(doc).toMatchObject({ name: 'three-pages.pdf', type: 'pdf', size: file.size, warnings: [] });
    expect(doc.text).toBe(PAGES.join('\n\n'));
    expect(doc.pageStarts).toEqual([PAGES[0].length + 2, PAGES[0].length + PAGES[1].length + 4]);
    expect(pagesOf(doc)).toEqual(PAGES);
  });

  it('give leaves their page numbers when built into a tree', async () => {
    const doc = await ingestFile(fixture('three-pages.pdf'), {}, deps);
    const input: BuildDocument = doc;
    const embed = async (texts: string[]) => texts.map((t) => fakeEmbedding(t));
    const tree = await buildTree(
      input,
      { embed, summarize: createExtractiveSummarizer(embed) },
      { chunkTokens: 12 },
    );
    const leaves = tree.nodes.filter((n) => n.layer === 0);
    expect(new Set(leaves.map((n) => n.source?.page))).toEqual(new Set([1, 2, 3]));
    // A leaf may run on over a page break; it starts on its page, and pages are separated by a blank line.
    for (const leaf of leaves) expect(PAGES[leaf.source!.page! - 1]).toContain(leaf.text.split('\n\n')[0]);
  });

  it('report pages as they are extracted', async () => {
    const events: IngestProgress[] = [];
    await ingestFile(fixture('three-pages.pdf'), { onProgress: (p) => events.push(p) }, deps);
    expect(events.filter((e) => e.stage === 'pages')).toEqual(
      [1, 2, 3].map((done) => ({ stage: 'pages', done, total: 3 })),
    );
  });

  it('open an encrypted PDF only with its password', async () => {
    await expect(ingestFile(fixture('encrypted.pdf'), {}, deps)).rejects.toMatchObject({
      code: 'ENCRYPTED_PDF',
      details: { reason: 'password-required' },
    });
    await expect(ingestFile(fixture('encrypted.pdf'), { password: 'owl' }, deps)).rejects.toMatchObject({
      code: 'ENCRYPTED_PDF',
      details: { reason: 'incorrect-password' },
      message: 'The password for “encrypted.pdf” is incorrect.',
    });
    const doc = await ingestFile(fixture('encrypted.pdf'), { password: 'aerie' }, deps);
    expect(pagesOf(doc)).toEqual(PAGES);
  });

  it('refuse a scanned PDF (images, no text layer) as NO_TEXT_LAYER', async () => {
    const error = ingestFile(fixture('scanned.pdf'), {}, deps);
    await expect(error).rejects.toMatchObject({
      code: 'NO_TEXT_LAYER',
      details: { pages: 2, characters: 0 },
    });
    await expect(error).rejects.toThrow(/no text layer.*OCR/);
  });

  it('keep the typed pages of a partly scanned PDF and name the pages without text', async () => {
    const doc = await ingestFile(fixture('partly-scanned.pdf'), {}, deps);
    expect(pagesOf(doc)).toEqual([
      'A typed first page, with enough words to count as text.',
      '',
      'A typed third page, also with enough words to count.',
    ]);
    expect(doc.warnings).toEqual([
      'Page 2 of “partly-scanned.pdf” has no text (blank, or scanned images: run OCR to include scanned pages).',
    ]);
  });

  it('read CJK text set in a predefined CMap encoding, which needs the CMap files', async () => {
    const doc = await ingestFile(fixture('cjk-cmap.pdf'), {}, deps);
    expect(doc.text).toBe('日本語の文書です。これは試験用のテキストです。');
    // Without CMaps PDF.js finds no text at all.
    await expect(ingestFile(fixture('cjk-cmap.pdf'))).rejects.toMatchObject({ code: 'NO_TEXT_LAYER' });
  });

  it('refuse a damaged PDF as CORRUPT', async () => {
    await expect(ingestFile(fixture('corrupt.pdf'), {}, deps)).rejects.toMatchObject({
      code: 'CORRUPT',
      details: { reason: 'Invalid PDF structure.' },
    });
  });

  it('refuse a .pdf that is something else as CORRUPT without starting PDF.js', async () => {
    const neverLoaded: IngestDeps = { loadPdf: () => Promise.reject(new Error('PDF.js must not load')) };
    await expect(ingestFile(fixture('binary.txt', 'scan.pdf'), {}, neverLoaded)).rejects.toMatchObject({
      code: 'CORRUPT',
      message:
        '“scan.pdf” is not a valid PDF: it looks like a PNG image. The file may be damaged or misnamed.',
    });
  });

  it('read a PDF named .txt as a PDF, with a warning', async () => {
    const doc = await ingestFile(fixture('three-pages.pdf', 'notes.txt'), {}, deps);
    expect([doc.type, pagesOf(doc)]).toEqual(['pdf', PAGES]);
    expect(doc.warnings).toEqual(['“notes.txt” is a PDF, whatever its name says; it was read as one.']);
  });

  it('stop at maxChars with TOO_LARGE, naming the page', async () => {
    await expect(ingestFile(fixture('three-pages.pdf'), { maxChars: 120 }, deps)).rejects.toMatchObject({
      code: 'TOO_LARGE',
      details: { page: 2, pages: 3, maxChars: 120 },
    });
  });

  it('stop with an AbortError when the signal fires between pages', async () => {
    const controller = new AbortController();
    const run = ingestFile(
      fixture('three-pages.pdf'),
      { signal: controller.signal, onProgress: (p) => p.stage === 'pages' && controller.abort() },
      deps,
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });
});
