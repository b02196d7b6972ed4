/**
 * Settings do what they show (issue 9): an endpoint filled in and saved writes the summaries — the line under
 * "Build tree", the FAKE LLM server's log, the library row and the statistics all say so — and closing the
 * dialog with unsaved edits (Escape, Close, a click outside) asks first or keeps them; nothing typed is lost.
 */
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import { addSample, fakeLlmForFile, libraryRow, LLM_KEY, LLM_MODEL } from './support/app';
import { expect, test } from './support/fixtures';
import { holdAerieDb, releaseAerieDb } from './support/hold-db';

const llm = fakeLlmForFile();

test('a summarization endpoint filled in and saved writes the summaries, and every place says so', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await page.goto('/');
  const hint = page.locator('.build-hint');
  await expect(hint).toContainText('Summaries: built-in extractive summarizer');

  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Embedding model').selectOption(OFFLINE_MODEL_ID);
  const summaries = dialog.getByRole('group', { name: 'Summarization', exact: true });
  const useLlm = summaries.getByLabel('Summarize with an LLM');
  await expect(useLlm).not.toBeChecked();
  // The user fills in the endpoint and never touches the box: it follows.
  await summaries.getByLabel('Endpoint URL').fill(llm.openaiBaseUrl);
  await summaries.getByLabel('API key').fill(LLM_KEY);
  await summaries.getByLabel('Model').fill(LLM_MODEL);
  await expect(useLlm).toBeChecked();
  await expect(summaries.getByText(/Ticked because an endpoint is filled in/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(hint).toContainText(`Summaries by the LLM ${LLM_MODEL}.`);
  await expect(hint).toContainText('Embeddings: Offline GloVe (built in).');

  llm.reset();
  await addSample(page);
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
    timeout: 300_000,
  });
  const chats = llm.modelRequests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(chats.length).toBeGreaterThan(0);
  await expect(libraryRow(page, 'cinderella').getByText(`Summaries: ${LLM_MODEL}`)).toBeVisible();
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Statistics' })).toContainText(`Summaries: ${LLM_MODEL}`);

  // Unticking the box is a choice that sticks, and the line says what will run.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await summaries.getByLabel('Summarize with an LLM').uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(hint).toContainText('extractive summarizer (LLM summaries are turned off in Settings)');
  await page.reload();
  await expect(hint).toContainText('extractive summarizer (LLM summaries are turned off in Settings)');
});

test('closing Settings with unsaved edits asks first — Escape, Close, a click outside — and never loses them', async ({
  page,
}) => {
  await page.goto('/');
  const open = () => page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const chunk = dialog.getByLabel('Chunk tokens');
  const prompt = dialog.getByRole('alertdialog', { name: 'Unsaved changes' });

  // Nothing changed: Escape just closes.
  await open();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Escape with an edit: asked; "Keep editing" keeps the dialog and the value.
  await open();
  await chunk.fill('77');
  await page.keyboard.press('Escape');
  await expect(prompt).toBeVisible();
  await expect(dialog).toBeVisible();
  await prompt.getByRole('button', { name: 'Keep editing' }).click();
  await expect(prompt).toBeHidden();
  await expect(chunk).toHaveValue('77');

  // Close with an edit: asked; "Discard changes" goes back to what was saved.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await prompt.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
  await open();
  await expect(chunk).toHaveValue('100');

  // A click outside with an edit: asked; "Save changes" saves.
  await chunk.fill('55');
  const box = (await dialog.boundingBox())!;
  await page.mouse.click(box.x / 2, box.y + box.height / 2);
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await open();
  await expect(chunk).toHaveValue('55');

  // If the browser closes the dialog by itself, the edits are kept for the next opening.
  await chunk.fill('66');
  await dialog.evaluate((d: HTMLDialogElement) => d.close());
  await expect(dialog).toBeHidden();
  await open();
  await expect(chunk).toHaveValue('66');
  await expect(dialog.getByText('Your unsaved changes from before are still here.')).toBeVisible();
  await dialog.getByRole('button', { name: 'discard them' }).click();
  await expect(dialog).toBeHidden();
  await open();
  await expect(chunk).toHaveValue('55');
});

test('Settings opened before the database has: the dialog waits for the stored settings, and a save sticks', async ({
  page,
}) => {
  // A slow first open (a busy machine) once let a save made before it be overwritten by the defaults read after.
  await holdAerieDb(page);
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Settings', exact: true });
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const summaries = dialog.getByRole('group', { name: 'Summarization', exact: true });
  const hint = page.locator('.build-hint');
  await expect(page.getByRole('combobox', { name: 'Theme' })).toBeDisabled();
  await button.click();
  await expect(button).toHaveAttribute('aria-busy', 'true');
  await expect(dialog).toBeHidden();
  await releaseAerieDb(page);
  await expect(dialog).toBeVisible();
  await expect(button).toHaveAttribute('aria-busy', 'false');
  await summaries.getByLabel('Endpoint URL').fill(llm.openaiBaseUrl);
  await summaries.getByLabel('API key').fill(LLM_KEY);
  await summaries.getByLabel('Model').fill(LLM_MODEL);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(hint).toContainText(`Summaries by the LLM ${LLM_MODEL}.`);

  // Reopened before the database again: the dialog shows what was stored, never the defaults.
  await page.reload();
  await button.click();
  await expect(dialog).toBeHidden();
  await releaseAerieDb(page);
  await expect(summaries.getByLabel('Endpoint URL')).toHaveValue(llm.openaiBaseUrl);
  await expect(summaries.getByLabel('Model')).toHaveValue(LLM_MODEL);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(hint).toContainText(`Summaries by the LLM ${LLM_MODEL}.`);
});
