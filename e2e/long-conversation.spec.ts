/**
 * Conversations of any length stay instant (issue 34, point 2). On the dev server (the harness page and the app
 * share its origin, so the harness can seed the app's storage through the app's own functions):
 * - typing in the question box and streaming an answer never render the conversation's turns again (the
 *   harness's turns count every read of their question);
 * - a 1,000-turn conversation opens with its last 20 turns shown and the rest offered a page at a time, a new
 *   question is added to it (1,001), and it exports as Markdown with all its turns.
 * How fast is measured by `npm run bench conversation`, not here.
 */
import { readFileSync } from 'node:fs';
import { shoot } from './support/app';
import { expect, test } from './support/fixtures';

import type { SeededConversation } from '../tests/support/conversation-seed';

const HARNESS = '/dev/long-conversation.html';

declare global {
  interface Window {
    __turnReads: number;
    __streamAnswer(deltas: number): Promise<void>;
    __seedConversation(turns: number): Promise<SeededConversation>;
  }
}

test('typing and a streamed answer never render the turn list again', async ({ page }) => {
  await page.goto(HARNESS);
  const panel = page.getByRole('region', { name: 'Ask' });
  const turns = panel.getByRole('list', { name: 'Earlier questions in this conversation' });
  await expect(turns.getByRole('listitem')).toHaveCount(20);
  await expect(panel.getByText('(980 questions before these)')).toBeVisible();
  const before = await page.evaluate(() => window.__turnReads);
  expect(before).toBeGreaterThan(0);
  await panel.getByLabel('Question', { exact: true }).pressSequentially('and what did the miller say?');
  await expect(panel.getByLabel('Question', { exact: true })).toHaveValue('and what did the miller say?');
  await page.evaluate(() => window.__streamAnswer(30));
  await expect(panel.getByText('word29')).toBeVisible();
  expect(await page.evaluate(() => window.__turnReads)).toBe(before);
});

test('a 1,000-turn conversation opens a page at a time, takes a new question and exports whole', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(HARNESS);
  const seeded = await page.evaluate(() => window.__seedConversation(1000));
  await page.goto('/');
  await page
    .getByRole('region', { name: 'Library' })
    .getByRole('button', { name: `Open ${seeded.treeTitle}` })
    .click();
  const panel = page.getByRole('region', { name: 'Ask' });
  const select = panel.getByLabel('Conversation', { exact: true });
  await select.selectOption({ label: `${seeded.title} (1,000 questions)` });
  const turns = panel.getByRole('list', { name: 'Earlier questions in this conversation' });
  await expect(turns.getByRole('listitem')).toHaveCount(20);
  await expect(turns.getByRole('listitem').last()).toContainText('Question 1000:');
  await expect(panel.getByText('(980 questions before these)')).toBeVisible();
  await panel.getByRole('button', { name: 'Show earlier questions' }).click();
  await expect(turns.getByRole('listitem')).toHaveCount(40);
  await expect(turns.getByRole('listitem').first()).toContainText('Question 961:');
  await expect(panel.getByText('(960 questions before these)')).toBeVisible();
  // For people to look at: the app at 1440×900 and 390 px wide.
  await page.setViewportSize({ width: 1440, height: 900 });
  await panel.getByText('(960 questions before these)').scrollIntoViewIfNeeded();
  await shoot(page, 'long-conversation-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.getByText('(960 questions before these)').scrollIntoViewIfNeeded();
  await shoot(page, 'long-conversation-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A new question goes into it (no answering model: the passages are its answer) and is kept.
  await panel.getByLabel('Question', { exact: true }).fill('What did the miller keep by the river?');
  await panel.getByRole('checkbox', { name: /Follow-up to the questions before/ }).uncheck();
  await panel.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(select).toContainText(`${seeded.title} (1,001 questions)`, { timeout: 120_000 });

  // The export holds every turn, the new one last.
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export Markdown' }).click();
  const markdown = readFileSync(await (await download).path(), 'utf8');
  expect(markdown.match(/^## \d+\. /gm)).toHaveLength(1001);
  expect(markdown).toContain('## 1. Who lives by the river mill?');
  expect(markdown).toContain('## 1000. Question 1000: what happened near the garden next?');
  expect(markdown).toContain('## 1001. What did the miller keep by the river?');
  expect(markdown).toContain('1,001 questions');
});
