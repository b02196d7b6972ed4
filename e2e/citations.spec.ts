/**
 * Answers a person can check (issue 35): a PDF with plain pages, two columns, hyphenated line ends, ligature
 * glyphs, a paragraph across a page break, rotated pages and an image-only page (tests/fixtures/pdf/
 * layouts.pdf) is built in the production build with the FAKE LLM server, which answers citing several of the
 * passages it was sent. Each citation opens its passage on its PDF page with exactly its words highlighted
 * (the page and the words checked against the same PDF read in Node), by mouse and by keyboard (the focus
 * moves to the highlight), and Back returns to the answer at the same scroll place with the focus on the
 * citation. The text view highlights the same characters.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { UNCITED_SENTENCE } from '../tests/support/llm-server';
import { ingestFile } from '../src/ingest';
import { nodePdfDeps } from '../tests/support/pdf-precision';
import { ask, buildAndWait, configure, fakeLlmForFile, screenshotPath } from './support/app';

const PDF = 'tests/fixtures/pdf/layouts.pdf';
const CITES = [1, 2, 3, 4, 5, 6];

const llm = fakeLlmForFile().configure({ answerCites: CITES });

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** What an excerpt puts between two runs of a passage's sentences (src/core/search/passages.ts). */
const GAP = ' … ';
/** Where a passage sits, before its text as the model reads it: "(page 2 · 40%) …" (src/app/ask/passage-place.ts). */
const PLACE = /^\(([^)]*\d+%)\) /;

/** The passages of the last answer request, by number, as the model read them, without their places. */
function sentPassages(): Map<number, string> {
  const chats = llm.modelRequests.filter((r) => r.path.endsWith('/chat/completions'));
  const body = chats.at(-1)!.body as { messages: { role: string; content: string }[] };
  const user = body.messages.findLast((m) => m.role === 'user')!.content;
  const passages = [...user.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => {
    // Every passage of the PDF says where it sits before its text.
    expect(m[2], `passage ${m[1]}`).toMatch(PLACE);
    return [Number(m[1]), m[2].replace(PLACE, '')] as const;
  });
  return new Map(passages);
}

/** The words the model read of a passage (an excerpt's runs, without the gaps between them). */
const readWords = (passage: string) => passage.split(GAP).flatMap(words);

/**
 * The 1-based pages a passage of the document lies on (each run of its sentences found by its words in the text
 * Node extracts).
 */
function pagesOf(doc: { text: string; pageStarts?: number[] }, passage: string): number[] {
  const pageAt = (offset: number) => 1 + (doc.pageStarts ?? []).filter((s) => s <= offset).length;
  const pages = new Set<number>();
  for (const run of passage.split(GAP)) {
    const pattern = new RegExp(
      words(run)
        .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\s+'),
    );
    const match = pattern.exec(doc.text)!;
    const first = pageAt(match.index);
    const last = pageAt(match.index + match[0].length - 1);
    for (let p = first; p <= last; p++) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}

/** The words highlighted for the current range on the pages shown, in reading order. */
async function highlightedWords(page: Page): Promise<string[]> {
  const texts = await page.locator('.pdf-page mark.pdf-hit.is-current').allTextContents();
  return words(texts.join(' '));
}

test('every citation opens its exact words on its PDF page, by mouse and keyboard; Back returns to the answer', async ({
  page,
}) => {
  test.setTimeout(400_000);
  const doc = await ingestFile(new File([readFileSync(PDF)], 'layouts.pdf'), {}, nodePdfDeps);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await configure(page, llm);
  await page.locator('.ingest-file-input').setInputFiles(PDF);
  const documents = page.getByRole('region', { name: 'Documents' });
  await expect(documents.getByText(/Page 8 of “layouts.pdf” has no text/)).toBeVisible({ timeout: 60_000 });
  await buildAndWait(page);
  await expect(page.getByRole('region', { name: 'Library' }).getByText(/PDF kept: /)).toBeVisible();

  await ask(
    page,
    'What did Sir Walter and Mr Shepherd say about letting Kellynch Hall to the navy?',
    'Leaves only',
  );
  const answer = page.getByRole('region', { name: /^Answer/ });
  await expect(answer.getByText(UNCITED_SENTENCE)).toBeVisible({ timeout: 60_000 });
  const passages = sentPassages();
  const panel = page.locator('.document-panel');
  let key = 0;
  for (const n of CITES) {
    const passage = passages.get(n);
    if (!passage) continue;
    const button = answer.locator(`button[data-citation="${n}"]`).first();
    const keyboard = n % 2 === 0;
    if (keyboard) {
      await button.focus();
      await page.keyboard.press('Enter');
    } else await button.click();
    key++;
    await expect(panel).toHaveAttribute('data-citation-drawn', String(key));
    const expected = pagesOf(doc, passage);
    const shown = await page
      .locator('.pdf-page')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-page'))));
    expect(shown, `citation ${n}: the pages shown`).toEqual(expected);
    await expect(page.locator('.pdf-page[data-located-by="runs"]')).toHaveCount(expected.length);
    expect(await highlightedWords(page), `citation ${n}: the highlighted words`).toEqual(readWords(passage));
    // The focus is on the highlight, so a keyboard or screen-reader user is at the passage.
    await expect(page.locator('.pdf-page mark.pdf-hit.is-current').first()).toBeFocused();
    if (n === 1) {
      await page.screenshot({ path: screenshotPath('citation-pdf-page-1440') });
      // The window narrows: the page is drawn again at the panel's new width (its marks made anew), and the
      // focus follows the highlight. Then back to the width the rest of the test reads.
      const drawnAt = () =>
        page
          .locator('.pdf-page')
          .first()
          .evaluate((e) => (e as HTMLElement).style.width);
      for (const width of [1200, 1440]) {
        const before = await drawnAt();
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(drawnAt).not.toBe(before);
        await expect(page.locator('.pdf-page[data-drawn="true"]')).toHaveCount(expected.length);
        await expect(page.locator('.pdf-page mark.pdf-hit.is-current').first()).toBeFocused();
      }
      expect(await highlightedWords(page), `citation ${n}: the highlighted words, redrawn`).toEqual(
        readWords(passage),
      );
    }

    // Back: the answer where it was, the focus on the citation.
    await page.getByRole('button', { name: '← Back to the answer' }).click();
    await expect(button).toBeFocused();
  }

  // Under the answer, its sources: every passage sent, in order, cited or not, with its tree path and page;
  // the sentence citing nothing is marked.
  const sources = page
    .getByRole('list', { name: 'Sources of the answer, in the order sent' })
    .locator('li.passage');
  await expect(sources).toHaveCount(passages.size);
  for (let n = 1; n <= passages.size; n++) {
    await expect(sources.nth(n - 1)).toHaveAttribute('data-cited', String(CITES.includes(n)));
  }
  await expect(sources.first().locator('.passage-path')).toContainText(/this leaf · layouts\.pdf, pages? \d/);
  // (A passage's opening words may hold a full stop, making a sentence before its citation: marked too.)
  await expect(answer.locator('.answer-uncited').filter({ hasText: UNCITED_SENTENCE })).toHaveCount(1);
  await expect(answer.locator('.answer-uncited').last()).toContainText(UNCITED_SENTENCE);
  await expect(answer.locator('.answer-uncited button')).toHaveCount(0);
  await page
    .getByRole('complementary', { name: 'Ask panel' })
    .screenshot({ path: screenshotPath('answer-sources-1440') });

  // The text view highlights the same characters.
  await answer.locator('button[data-citation="1"]').first().click();
  key++;
  await expect(panel).toHaveAttribute('data-citation-drawn', String(key));
  await page
    .getByRole('group', { name: 'Show the document as' })
    .getByRole('button', { name: 'Text' })
    .click();
  const cited = page.locator('mark.doc-cited.is-current');
  await expect(cited.first()).toBeFocused();
  expect(words((await cited.allTextContents()).join(' '))).toEqual(readWords(passages.get(1)!));
  await page.screenshot({ path: screenshotPath('citation-text-1440') });
  await page.setViewportSize({ width: 390, height: 844 });
  await cited.first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('citation-text-390') });
  await page
    .getByRole('group', { name: 'Show the document as' })
    .getByRole('button', { name: 'Pages' })
    .click();
  await expect(page.locator('.pdf-page[data-drawn]').first()).toBeVisible();
  await page.locator('.pdf-page mark.pdf-hit.is-current').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('citation-pdf-page-390') });
  await page.setViewportSize({ width: 1440, height: 900 });

  // A summary's citation: its text above the document, the passages it covers highlighted on their page. The
  // answer now cites every passage sent, so the collapsed tree's summaries are among them.
  llm.configure({ answerCites: Array.from({ length: 40 }, (_, i) => i + 1) });
  await ask(
    page,
    'What did Sir Walter and Mr Shepherd say about letting Kellynch Hall to the navy?',
    'Collapsed tree',
  );
  await expect(answer.getByText(UNCITED_SENTENCE)).toBeVisible({ timeout: 60_000 });
  const summaryItem = page
    .getByRole('list', { name: 'Sources of the answer, in the order sent' })
    .locator('li.passage[data-cited="true"]')
    .filter({ hasText: /summary/ })
    .first();
  const rank = Number(
    await summaryItem
      .locator('.passage-rank')
      .innerText()
      .then((t) => t.replace(/\D/g, '')),
  );
  await answer.locator(`button[data-citation="${rank}"]`).first().click();
  key++;
  await expect(panel).toHaveAttribute('data-citation-drawn', String(key));
  await expect(page.locator('.citation-summary')).toContainText(
    words(sentPassages().get(rank)!).slice(0, 4).join(' '),
  );
  await expect(page.locator('.citation-heading')).toContainText(
    'summary; highlighted: the passages of the leaves under it',
  );
  await expect(page.locator('.pdf-page mark.pdf-hit.is-current').first()).toBeFocused();
  await expect(page.locator('.pdf-page[data-located-by="runs"]').first()).toBeVisible();
});
