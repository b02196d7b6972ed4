/**
 * The main journey (issues #3–#5): drop the sample onto the page → build with progress in the workers (GloVe model, FAKE LLM
 * server for summaries and answers) → reload → still there → ask in each mode → the tree view highlights exactly
 * what retrieval returned → open the inspector → export and import → same retrieval. Every request stays on
 * this machine. Screenshots of the later states are saved by `shoot` (the first minute's: first-minute.spec.ts).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import {
  ask,
  configure,
  dropFile,
  expectOnlyLocalRequests,
  fakeLlmForFile,
  highlighted,
  listedPassages,
  recordRequests,
  shoot,
  treeItems,
} from './support/app';

const llm = fakeLlmForFile();

const QUESTION = 'What did Cinderella lose at the palace?';

test('sample → build → reload → ask each mode → inspect → export/import', async ({ page, context }) => {
  const urls = recordRequests(context);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Aerie' })).toBeVisible();

  await configure(page, llm);
  // Drag and drop the sample onto the middle of the page.
  await dropFile(
    page,
    'cinderella.txt',
    readFileSync('public/samples/cinderella.txt', 'utf8'),
    '.center-column',
  );
  await expect(page.getByRole('region', { name: 'Documents' }).getByText('cinderella.txt')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Documents' }).getByText(/Ready/)).toBeVisible();

  llm.configure({ hold: true }); // replies wait until the test has seen the build summarising
  await page.getByRole('button', { name: 'Build tree' }).click();
  const progress = page.getByRole('region', { name: 'Build progress' });
  await expect(progress.getByRole('progressbar').first()).toBeVisible();
  await expect(progress.getByRole('progressbar', { name: /Summarizing layer 1/ })).toBeVisible({
    timeout: 120_000,
  });
  llm.configure({ hold: false });
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
    timeout: 180_000,
  });

  // The summaries came from the LLM with the paper's prompt.
  const summaries = llm.modelRequests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(summaries.length).toBeGreaterThan(0);
  const body = summaries[0].body as { messages: { role: string; content: string }[] };
  expect(body.messages[0].content).toBe('You are a Summarizing Text Portal');

  const nodeCount = await (await treeItems(page)).count();
  expect(nodeCount).toBeGreaterThan(33);

  // Reload: the tree is still there.
  await page.reload();
  const library = page.getByRole('region', { name: 'Library' });
  await expect(library.getByText('cinderella', { exact: false }).first()).toBeVisible();
  await library.getByRole('button', { name: /^Open cinderella/ }).click();
  await expect(await treeItems(page)).toHaveCount(nodeCount);

  // Rename in the library: Escape cancels, an empty title is refused, Enter saves; focus comes back to Rename.
  const row = library
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name: /^Open cinderella/ }) });
  const title = (await row.getByRole('heading', { level: 3 }).textContent()) ?? '';
  await row.getByRole('button', { name: `Rename ${title}` }).click();
  const field = row.getByRole('textbox', { name: `New title for ${title}` });
  await expect(field).toBeFocused();
  await field.press('Escape');
  await expect(row.getByRole('button', { name: `Rename ${title}` })).toBeFocused();
  await row.getByRole('button', { name: `Rename ${title}` }).click();
  await field.fill(' ');
  await field.press('Enter');
  await expect(row.getByText('A title cannot be empty.')).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill(`${title}, renamed`);
  await field.press('Enter');
  await expect(row.getByRole('heading', { name: `${title}, renamed` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Rename ${title}, renamed` })).toBeFocused();

  // Ask in each mode: the tree view highlights exactly what retrieval returned.
  for (const [mode, label] of [
    ['collapsed', 'Collapsed tree'],
    ['traversal', 'Tree traversal'],
    ['leaves', 'Leaves only'],
  ] as const) {
    await ask(page, QUESTION, label);
    await expect
      .poll(() => listedPassages(page, mode).then((l) => l.length), { timeout: 60_000 })
      .toBeGreaterThan(0);
    const listed = await listedPassages(page, mode);
    expect((await highlighted(page, mode)).sort((a, b) => a - b)).toEqual([...listed].sort((a, b) => a - b));
    if (mode === 'collapsed') await shoot(page, 'ask-collapsed-answer');
  }

  // The streamed answer cites passage [1]; the citation opens the node inspector.
  await ask(page, QUESTION, 'Collapsed tree');
  const citation = page
    .getByRole('region', { name: /^Answer/ })
    .getByRole('button', { name: /^Citation 1: open node \d+/ });
  await expect(citation).toBeVisible({ timeout: 60_000 });
  const cited = Number((await citation.getAttribute('aria-label'))!.match(/node (\d+)/)![1]);
  await citation.click();
  const inspector = page.getByRole('dialog', { name: /Node/ });
  await expect(inspector).toBeVisible();
  await expect(inspector).toContainText(`${cited}`);
  await shoot(page, 'inspector');

  // Export, then import: the same retrieval.
  const before = await listedPassages(page, 'collapsed');
  const download = page.waitForEvent('download');
  await library.getByRole('button', { name: /^Export cinderella/ }).click();
  const file = await (await download).path();
  const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: string; nodes: unknown[] };
  expect(exported.format).toBe('raptor-tree');
  expect(exported.nodes.length).toBe(nodeCount);
  expect(readFileSync(file, 'utf8')).not.toContain('sk-e2e-secret');
  await library.getByLabel('Tree file to import').setInputFiles(file);
  await expect(page.getByText(/^Imported/)).toBeVisible();
  await ask(page, QUESTION, 'Collapsed tree');
  await expect.poll(() => listedPassages(page, 'collapsed')).toEqual(before);

  // The dark theme, chosen in the header, applies to the whole page and is remembered.
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shoot(page, 'dark-theme');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  expectOnlyLocalRequests(urls);
});
