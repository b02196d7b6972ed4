/**
 * Bad input (issue #5): every bad file gets a clear message in the Documents list, nothing else breaks, and a
 * document too short to cluster still makes a usable tree (leaves and a root summary). (An unreachable model hub:
 * book-tree.spec.ts.)
 */
import { mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './support/fixtures';
import { bombStream, docxParts, makeZip } from '../tests/support/zip';
import {
  configure,
  expectOnlyLocalRequests,
  recordRequests,
  shoot,
  treeCanvas,
  treeItems,
} from './support/app';

const FIXTURES = 'tests/fixtures/ingest';

test('every bad file gets a clear message; the page keeps working', async ({ page, context }) => {
  const urls = recordRequests(context);
  const dir = mkdtempSync(join(tmpdir(), 'aerie-bad-'));
  try {
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'blank.txt'), '   \n\n\t  \n');
    // Issue 24: a Word "zip bomb", 1 GB of text in a 1 MB file.
    const [types, rels, document] = docxParts('');
    const bomb = bombStream(1000, {
      prefix: '<w:document><w:body><w:p><w:r><w:t>',
      suffix: '</w:t></w:r></w:p>',
    });
    writeFileSync(
      join(dir, 'bomb.docx'),
      makeZip([
        types,
        rels,
        { name: document.name, data: bomb.data, deflated: true, declaredSize: bomb.size },
      ]),
    );
    // Issue 24: 120,000 zero-width and direction marks, nothing a reader (or a model) can see.
    writeFileSync(join(dir, 'invisible.txt'), '\u200b\u200c\u200d\u200e\u200f\u2060'.repeat(20_000));
    // A 200 MB file, sparse on disk: it must be refused from its size, never read.
    const huge = join(dir, 'huge.txt');
    const fd = openSync(huge, 'w');
    ftruncateSync(fd, 200 * 1024 * 1024);
    closeSync(fd);

    await page.goto('/');
    await configure(page); // the offline model: no request may leave this machine
    const documents = page.getByRole('region', { name: 'Documents' });
    const input = documents.getByLabel('Add documents');
    const cases: [string, RegExp][] = [
      [join(dir, 'empty.txt'), /empty \(0 bytes\)/],
      [join(dir, 'blank.txt'), /no text, only blank space/],
      [join(dir, 'invisible.txt'), /contains no visible text: its 120,000 characters are all invisible/],
      [`${FIXTURES}/binary.txt`, /not a text file/],
      [huge, /more than the 100 MB/],
      [`${FIXTURES}/encrypted.pdf`, /password-protected/],
      [`${FIXTURES}/scanned.pdf`, /no text layer/],
      [`${FIXTURES}/corrupt.pdf`, /could not be read as a PDF|not a valid PDF/],
      [`${FIXTURES}/corrupt.docx`, /could not be read as a Word document|not a valid Word/],
      [join(dir, 'bomb.docx'), /would expand to 1 GB when unpacked, more than the 200 MB .* “zip bomb”/],
    ];
    for (const [file, message] of cases) {
      await input.setInputFiles(file);
      await expect(documents.getByRole('alert').filter({ hasText: message })).toBeVisible();
    }
    // A file that is not UTF-8 is read, with a warning saying how.
    await input.setInputFiles(`${FIXTURES}/windows-1252.txt`);
    await expect(documents.getByText(/Windows-1252/).first()).toBeVisible();
    await shoot(page, 'bad-files');

    // Nothing else broke: remove the bad ones and the good one still builds.
    for (const name of [
      'empty.txt',
      'blank.txt',
      'invisible.txt',
      'binary.txt',
      'huge.txt',
      'encrypted.pdf',
      'scanned.pdf',
      'corrupt.pdf',
      'corrupt.docx',
      'bomb.docx',
    ]) {
      await documents.getByRole('button', { name: `Remove ${name}` }).click();
    }
    await page.getByRole('button', { name: 'Build tree' }).click();
    await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
      timeout: 120_000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expectOnlyLocalRequests(urls);
});

test('a document too short to cluster still makes a usable tree: leaves and a root summary', async ({
  page,
}) => {
  await page.goto('/');
  await configure(page); // offline model, extractive summaries
  await page.getByRole('button', { name: 'Paste text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Paste text' });
  await dialog
    .getByLabel('Text')
    .fill(
      'The prince searched the whole kingdom for the girl. He found her in the kitchen among the ashes. ' +
        'The golden slipper fitted her foot perfectly, and they were married.',
    );
  await dialog.getByLabel('Name').fill('short.txt');
  await dialog.getByRole('button', { name: 'Add' }).click();
  // Small chunks so the paste makes several leaves.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByLabel('Chunk tokens').fill('15');
  await settings.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect(treeCanvas(page)).toBeAttached({ timeout: 120_000 });
  const nodes = await treeItems(page);
  const leaves = await nodes.and(page.locator('[data-layer="0"]')).count();
  expect(leaves).toBeGreaterThanOrEqual(2);
  await expect(nodes.and(page.locator('[data-layer="1"]'))).toHaveCount(1);
  await expect(nodes).toHaveCount(leaves + 1);
});

// When the model hub cannot be reached, the build falls back to the offline model and says so: checked by
// book-tree.spec.ts, whose whole-novel build starts from the same default settings.
