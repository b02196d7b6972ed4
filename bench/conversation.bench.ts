/**
 * `npm run bench conversation` (issue 34): long conversations in the production app, in headless Chromium at
 * 1440×900. For conversations of 10, 200 and 1,000 turns (a generated 300-node tree and turns of a real
 * turn's size, stored through the app's own storage by bench/browser/conversation-page.ts, built with the app)
 * it opens the conversation in the app and measures:
 * - keystroke to paint: from each key's input event to the first frame painted after it (a message posted from
 *   the next animation frame arrives after that frame is painted), typing 40 characters into the question
 *   box, 80 ms apart; beside the same measured in a bare text box on the same origin in the same browser, and at
 *   1,000 turns beside the goal (≤ 16 ms at the 95th percentile);
 * - question to first token: from Enter in the question box to the first painted frame showing the answer's
 *   first streamed characters (the FAKE LLM server of the tests answers at once), with the longest main-thread
 *   task until the answer ended; beside the same question asked in a new conversation of the same page.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { startFakeLlmServer, type FakeLlmServer } from '../tests/support/llm-server';
import {
  buildAppWith,
  newBenchContext,
  notFollowUp,
  quantile,
  QUESTION_BOX,
  timeQuestion,
  type TimedQuestion,
} from './app-page';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import { ROOT, startPreviewServer } from './support';

const PAGE_PATH = '/bench/browser/conversation.html';
const OUT_DIR = join(ROOT, '.bench-cache', 'conversation-dist');
const SIZES = [10, 200, 1_000];
/** What is typed: 43 keystrokes. */
const TYPED = 'and what did the miller say to his daughter';
const KEY_DELAY_MS = 80;
/** Questions timed per size in the long conversation and in a new one. */
const QUESTIONS = 5;
/** The goal at 1,000 turns: a keystroke painted within a 60 Hz frame at the 95th percentile. */
const GOAL_KEYSTROKE_MS = 16;

declare global {
  interface Window {
    __keys?: number[];
  }
}

/** Keystroke-to-paint times of typing TYPED into `selector`, ms. */
async function keystrokes(page: Page, selector: string): Promise<number[]> {
  await page.evaluate((target) => {
    const box = document.querySelector(target)!;
    const keys: number[] = (window.__keys = []);
    box.addEventListener('input', (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => keys.push(performance.now() - start);
        channel.port2.postMessage(null);
      });
    });
  }, selector);
  const box = page.locator(selector);
  await box.click();
  await box.pressSequentially(TYPED, { delay: KEY_DELAY_MS });
  await page.waitForFunction((n) => (window.__keys?.length ?? 0) >= n, TYPED.length);
  const keys = await page.evaluate(() => window.__keys!);
  await box.fill('');
  return keys;
}

interface SizeResult {
  turns: number;
  bare: number[];
  app: number[];
  fresh: TimedQuestion[];
  long: TimedQuestion[];
}

async function measureSize(
  page: Page,
  origin: string,
  llm: FakeLlmServer,
  turns: number,
): Promise<SizeResult> {
  await page.goto(`${origin}${PAGE_PATH}`);
  await page.waitForFunction(() => window.aerieConversationBench !== undefined);
  const seeded = await page.evaluate(([n, url]) => window.aerieConversationBench.seed(n, url), [
    turns,
    llm.openaiBaseUrl,
  ] as const);
  const bare = await keystrokes(page, '#bare');
  await page.goto(`${origin}/`);
  await page
    .getByRole('region', { name: 'Library' })
    .getByRole('button', { name: `Open ${seeded.treeTitle}` })
    .click();
  await page.locator('canvas[aria-label="Tree view"][data-frames]').waitFor({ timeout: 120_000 });
  // A new conversation: one question to load the question model, then the reference questions.
  await timeQuestion(page, llm, 'Who lives by the river mill?', 'Warmup');
  const fresh = [];
  for (let q = 0; q < QUESTIONS; q++) {
    await notFollowUp(page);
    fresh.push(await timeQuestion(page, llm, `What happened at the mill, part ${q + 1}?`, `Fresh${q}x`));
  }
  const select = page.getByRole('region', { name: 'Ask' }).getByLabel('Conversation', { exact: true });
  await select.selectOption({ label: `${seeded.title} (${turns.toLocaleString('en')} questions)` });
  await page
    .getByRole('list', { name: 'Earlier questions in this conversation' })
    .getByRole('listitem')
    .first()
    .waitFor();
  const app = await keystrokes(page, QUESTION_BOX);
  const long = [];
  for (let q = 0; q < QUESTIONS; q++) {
    await notFollowUp(page);
    long.push(await timeQuestion(page, llm, `What happened at the castle, part ${q + 1}?`, `Long${q}xx`));
  }
  return { turns, bare, app, fresh, long };
}

function rows(result: SizeResult): BenchRow[] {
  const tag = `${result.turns.toLocaleString('en')} turns`;
  const median = (xs: readonly number[]) => quantile(xs, 0.5);
  const first = result.long.map((r) => r.firstToken);
  const fresh = result.fresh.map((r) => r.firstToken);
  const out: BenchRow[] = [
    {
      name: `conversation keystroke → paint, p95 (${tag})`,
      value: quantile(result.app, 0.95),
      unit: 'ms',
      reference: quantile(result.bare, 0.95),
      referenceLabel: 'a bare text box, same run',
      higherIsBetter: false,
      note: `median ${median(result.app).toFixed(1)} ms vs ${median(result.bare).toFixed(1)} ms, ${result.app.length} keys`,
    },
    {
      name: `conversation question → first token, median (${tag})`,
      value: median(first),
      unit: 'ms',
      reference: median(fresh),
      referenceLabel: 'the same in a new conversation, same page',
      higherIsBetter: false,
      note:
        `of ${QUESTIONS}: ${first.map((x) => x.toFixed(0)).join(', ')}; longest task ` +
        `${Math.max(...result.long.map((r) => r.longestTask)).toFixed(0)} ms vs ` +
        `${Math.max(...result.fresh.map((r) => r.longestTask)).toFixed(0)} ms (0: none over 50 ms)`,
    },
  ];
  if (result.turns === Math.max(...SIZES)) {
    out.push({
      name: `conversation keystroke → paint, p95 (${tag}) against the goal`,
      value: quantile(result.app, 0.95),
      unit: 'ms',
      reference: GOAL_KEYSTROKE_MS,
      referenceLabel: 'goal',
      higherIsBetter: false,
      target: 1,
    });
  }
  return out;
}

/** Runs the conversation bench; see the module comment. */
export async function benchConversation(): Promise<BenchLine[]> {
  if (!existsSync(CHROMIUM_PATH)) {
    return [
      notMeasured(
        'conversation keystroke and question times at 10, 200 and 1,000 turns',
        `no Chromium at ${CHROMIUM_PATH} (set AERIE_CHROMIUM)`,
      ),
    ];
  }
  await buildAppWith(OUT_DIR, PAGE_PATH);
  const llm = await startFakeLlmServer();
  const { server, origin } = await startPreviewServer(OUT_DIR);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const lines: BenchLine[] = [];
  try {
    for (const turns of SIZES) {
      // A fresh profile per size: its own IndexedDB.
      const context = await newBenchContext(browser);
      try {
        lines.push(...rows(await measureSize(await context.newPage(), origin, llm, turns)));
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await llm.close();
  }
  return lines;
}
