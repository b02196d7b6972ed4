/**
 * A long one-line text (issue 24): the Documents list estimates the leaf chunks its build will make, and the
 * estimate matches the build's count; while the build chunks it, the Chunking bar moves (it used to sit at 0 %
 * for a minute on a 15 MB text). The text is unbroken data — hex numbers on one line, about 1.6 characters a
 * token, where a fixed four-characters-a-token guess is off by 2.5 times.
 */
import { seededRandom } from '../src/core/random';
import { configure } from './support/app';
import { expect, test } from './support/fixtures';

/** Characters of the text: over the 2-million warning threshold, and a few seconds of chunking. */
const CHARS = 4_000_000;

function hexLine(): string {
  const random = seededRandom(2024);
  const parts: string[] = [];
  let length = 0;
  while (length < CHARS) {
    const part = Math.floor(random() * 0xffffffff).toString(16);
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(' ');
}

test('a long one-line text: chunking shows progress, and the estimate matches the chunks the build makes', async ({
  page,
}) => {
  const text = hexLine();
  await page.goto('/');
  await configure(page); // offline model, extractive summaries: nothing leaves this machine
  const documents = page.getByRole('region', { name: 'Documents' });
  await documents
    .getByLabel('Add documents')
    .setInputFiles({ name: 'data.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  const warning = documents.getByText(/is long \(.* characters, about [\d,]+ leaf chunks/);
  await expect(warning).toBeVisible({ timeout: 60_000 });
  const estimate = Number(
    /about ([\d,]+) leaf chunks/.exec((await warning.textContent())!)![1].replaceAll(',', ''),
  );

  await page.getByRole('button', { name: 'Build tree' }).click();
  const progress = page.getByRole('region', { name: 'Build progress' });
  const chunking = progress.getByRole('progressbar', { name: 'Chunking' });
  // Part-way through, the bar says how far it is.
  await expect
    .poll(
      async () => {
        const now = Number(await chunking.getAttribute('aria-valuenow'));
        const max = Number(await chunking.getAttribute('aria-valuemax'));
        return now > 0 && now < max;
      },
      { timeout: 120_000, intervals: [50] },
    )
    .toBe(true);
  expect(Number(await chunking.getAttribute('aria-valuemax'))).toBe(text.length); // counted in characters

  // The leaves being embedded are the chunks the build made.
  const embedding = progress.getByRole('progressbar', { name: 'Embedding leaves' });
  await expect(embedding).toBeVisible({ timeout: 120_000 });
  const leaves = Number(await embedding.getAttribute('aria-valuemax'));
  console.log(`estimate ${estimate} leaf chunks, build ${leaves}`);
  expect(Math.abs(estimate - leaves) / leaves).toBeLessThan(0.03);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress.getByText(/Build paused/)).toBeVisible({ timeout: 60_000 });
});
