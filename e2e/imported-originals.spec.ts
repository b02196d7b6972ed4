/**
 * An imported tree file cannot plant a PDF (issue 41, point 4), in the production build: a carried PDF is read
 * with PDF.js (in an ingestion worker, as a dropped PDF) and kept only when its text is the text the tree was
 * built from. Tree
 * files made here from tests/fixtures/pdf/layouts.pdf (read in Node as the app reads it; leaves cut by the
 * app's chunker): one carrying another PDF (tests/fixtures/ingest/three-pages.pdf) imports without it (with the
 * document's text) and says why, in a notice and the library row; the genuine one keeps its PDF and shows its pages; a
 * file whose layout claims 200,000 pages is refused at once with a sentence (before: "UnknownError" after 11 s).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { seededRandom } from '../src/core/random';
import { chunkText, countTokens } from '../src/core/text';
import { serializeTree } from '../src/core/tree-format';
import type { RaptorTree, TreeNode } from '../src/core/types';
import { ingestFile } from '../src/ingest';
import { originalJson, withOriginals } from '../src/storage';
import type { DocumentRecord, OriginalRecord } from '../src/storage';
import { nodePdfDeps } from '../tests/support/pdf-precision';
import { treeOf } from '../tests/support/tree-of';
import { libraryRow } from './support/app';
import { expect, test } from './support/fixtures';

const PDF = 'tests/fixtures/pdf/layouts.pdf';
const OTHER_PDF = 'tests/fixtures/ingest/three-pages.pdf';
const DIM = 8;

/** A tree of the PDF's text (its leaves as the app cuts them, one summary over them) carrying `file` as its PDF. */
async function treeFileCarrying(title: string, file: Uint8Array, pages?: number): Promise<string> {
  const bytes = new Uint8Array(readFileSync(PDF));
  const doc = await ingestFile(new File([bytes], 'layouts.pdf'), {}, nodePdfDeps);
  const random = seededRandom(41);
  const vector = () => Float32Array.from({ length: DIM }, () => random() - 0.5);
  const leaves: TreeNode[] = chunkText(doc.text).map((chunk, id) => ({
    id,
    layer: 0,
    text: chunk.text,
    tokens: countTokens(chunk.text),
    children: [],
    embedding: vector(),
    source: { doc: 'd1', start: chunk.start, end: chunk.end },
  }));
  const summary = 'Sir Walter Elliot of Kellynch Hall, his daughters, and the letting of the house.';
  const tree: RaptorTree = {
    ...treeOf([...leaves], { title, model: 'local:aerie-glove-100d' }),
    documents: [{ id: 'd1', name: 'layouts.pdf', chars: doc.text.length }],
    nodes: [
      ...leaves,
      {
        id: leaves.length,
        layer: 1,
        text: summary,
        tokens: countTokens(summary),
        children: leaves.map((l) => l.id),
        embedding: vector(),
      },
    ],
  };
  tree.embedding = { model: 'local:aerie-glove-100d', dim: DIM };
  const layout = pages
    ? {
        version: 1 as const,
        pages: Array.from({ length: pages }, () => ({
          start: 0,
          end: 1,
          items: 1,
          check: 0,
          runs: new Int32Array(0),
        })),
      }
    : doc.layout!;
  const entry = await originalJson(
    'd1',
    { text: doc.text, pageStarts: doc.pageStarts } as DocumentRecord,
    {
      name: 'layouts.pdf',
      type: 'application/pdf',
      file: new Blob([file as Uint8Array<ArrayBuffer>]),
      layout,
    } as OriginalRecord,
  );
  return withOriginals(serializeTree(tree), [entry]);
}

async function importFile(page: Page, path: string): Promise<void> {
  await page.getByRole('region', { name: 'Library' }).getByLabel('Tree file to import').setInputFiles(path);
}

test('a tree file carrying another PDF imports without it and says why; the genuine one keeps its pages', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const planted = testInfo.outputPath('planted.raptor.json');
  const genuine = testInfo.outputPath('genuine.raptor.json');
  const huge = testInfo.outputPath('huge-layout.raptor.json');
  writeFileSync(planted, await treeFileCarrying('Planted', new Uint8Array(readFileSync(OTHER_PDF))));
  writeFileSync(genuine, await treeFileCarrying('Genuine', new Uint8Array(readFileSync(PDF))));
  writeFileSync(huge, await treeFileCarrying('Huge', new Uint8Array(readFileSync(PDF)), 200_000));
  await page.goto('/');

  await importFile(page, planted);
  await expect(page.locator('.open-title')).toHaveText('Planted', { timeout: 60_000 });
  const warning = page.getByRole('status').filter({ hasText: 'Part of “planted.raptor.json” was not kept' });
  await expect(warning).toContainText(
    'The PDF carried as “layouts.pdf” is not this document: its text differs from the text the tree was built from',
  );
  await expect(libraryRow(page, 'Planted')).toContainText('1 PDF not kept (text view only)');
  // Its Document tab shows the text, and no page of the planted file.
  await page.getByRole('tab', { name: 'Document' }).click();
  await expect(page.getByText('His good looks and his rank had one fair claim')).toBeVisible();
  await expect(page.locator('.pdf-page')).toHaveCount(0);

  await importFile(page, genuine);
  await expect(page.locator('.open-title')).toHaveText('Genuine', { timeout: 60_000 });
  await expect(libraryRow(page, 'Genuine')).toContainText(/PDF kept: /);
  await page.getByRole('tab', { name: 'Document' }).click();
  await expect(page.locator('.pdf-page[data-drawn]').first()).toBeVisible({ timeout: 60_000 });
  // The planted tree still has no file: the genuine import did not lend it its own.
  await expect(libraryRow(page, 'Planted')).toContainText('1 PDF not kept (text view only)');

  await importFile(page, huge);
  await expect(
    page.getByRole('alert').filter({ hasText: '“huge-layout.raptor.json” could not be imported' }),
  ).toContainText(
    "originals[0].layout.pages: the PDF's layout claims 200,000 pages; Aerie reads PDFs of up to 20,000 pages",
  );
  await expect(libraryRow(page, 'Huge')).toHaveCount(0);
});
