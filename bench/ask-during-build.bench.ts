/**
 * `npm run bench ask-during-build` (issue 34, point 7, a measurement to report): the page's main thread while a
 * 14,000-node tree (a 1M-token book's size; tests/support/synthetic-tree.ts, recorded with the offline model so
 * questions run) is open and asked in one tab, and another tab of the same browser builds a book
 * (tests/fixtures/books/persuasion.txt, 104k tokens, offline model and extractive summaries), beside the same
 * questions with no build running. Production build, headless Chromium, 1440×900, questions answered by the
 * FAKE LLM server of the tests. Per question: the time from Enter to the painted end of its answer, and the
 * longest main-thread task of the asking tab meanwhile (Long Tasks API).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { serializeTree } from '../src/core/tree-format';
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { startFakeLlmServer, type FakeLlmServer } from '../tests/support/llm-server';
import { syntheticTree } from '../tests/support/synthetic-tree';
import {
  buildAppWith,
  newBenchContext,
  notFollowUp,
  quantile,
  timeQuestion,
  type TimedQuestion,
} from './app-page';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import { ROOT, startPreviewServer } from './support';

const PAGE_PATH = '/bench/browser/conversation.html';
const OUT_DIR = join(ROOT, '.bench-cache', 'ask-during-build-dist');
const NODES = 14_000;
const DIM = 100;
const BOOK = join(ROOT, 'tests', 'fixtures', 'books', 'persuasion.txt');
/** Questions timed with no build, and during the build. */
const QUESTIONS = 6;
/** After the build starts, time for its worker to reach the heavy stages (model load, chunking) before asking. */
const BUILD_SETTLE_MS = 8_000;

async function ask(page: Page, llm: FakeLlmServer, label: string): Promise<TimedQuestion[]> {
  const out: TimedQuestion[] = [];
  for (let q = 0; q < QUESTIONS; q++) {
    await notFollowUp(page);
    out.push(
      await timeQuestion(page, llm, `Who was at the castle ball, ${label} ${q + 1}?`, `${label}${q}Mark`),
    );
  }
  return out;
}

/** Whether the building tab's build still runs (its progress card offers Cancel). */
async function stillBuilding(page: Page): Promise<boolean> {
  return page
    .getByRole('region', { name: 'Build progress' })
    .getByRole('button', { name: 'Cancel' })
    .isVisible();
}

/** Runs the bench; see the module comment. */
export async function benchAskDuringBuild(): Promise<BenchLine[]> {
  const what = `asking a ${NODES.toLocaleString('en')}-node tree while another tab builds a book`;
  if (!existsSync(CHROMIUM_PATH))
    return [notMeasured(what, `no Chromium at ${CHROMIUM_PATH} (set AERIE_CHROMIUM)`)];
  await buildAppWith(OUT_DIR, PAGE_PATH);
  const folder = mkdtempSync(join(tmpdir(), 'aerie-ask-build-'));
  const treeFile = join(folder, 'large.raptor.json');
  const tree = syntheticTree({ nodes: NODES, dim: DIM, seed: 7 });
  tree.embedding = { model: OFFLINE_MODEL_ID, dim: DIM };
  tree.title = 'Large tree';
  writeFileSync(treeFile, serializeTree(tree));
  const llm = await startFakeLlmServer();
  const { server, origin } = await startPreviewServer(OUT_DIR);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await newBenchContext(browser);
    const asking = await context.newPage();
    await asking.goto(`${origin}${PAGE_PATH}`);
    await asking.waitForFunction(() => window.aerieConversationBench !== undefined);
    await asking.evaluate((url) => window.aerieConversationBench.settings(url), llm.openaiBaseUrl);
    // The tree is imported as a user imports one; it has no labels, so the labels worker labels it first.
    let labelled: Promise<void> | undefined;
    asking.on('worker', (worker) => {
      if (worker.url().includes('labels.worker'))
        labelled = new Promise((done) => worker.on('close', () => done()));
    });
    await asking.goto(`${origin}/`);
    await asking
      .getByRole('region', { name: 'Library' })
      .getByLabel('Tree file to import')
      .setInputFiles(treeFile);
    await asking.locator('canvas[aria-label="Tree view"][data-frames]').waitFor({ timeout: 300_000 });
    await labelled;
    await timeQuestion(asking, llm, 'Who lives by the river mill?', 'Warmup');
    const quiet = await ask(asking, llm, 'Quiet');

    const building = await context.newPage();
    await building.goto(`${origin}/`);
    await building.locator('input.ingest-file-input').setInputFiles(BOOK);
    const start = building.getByRole('button', { name: 'Build tree' });
    // Enabled once the book is read.
    await building.locator('.build-actions button.primary:not([disabled])').waitFor({ timeout: 120_000 });
    await start.click();
    await building.getByRole('region', { name: 'Build progress' }).waitFor();
    await asking.waitForTimeout(BUILD_SETTLE_MS);
    await asking.bringToFront();
    const busy = await ask(asking, llm, 'Busy');
    const ranThrough = await stillBuilding(building);
    await context.close();

    const median = (xs: TimedQuestion[], key: keyof TimedQuestion) =>
      quantile(
        xs.map((x) => x[key]),
        0.5,
      );
    const worst = (xs: TimedQuestion[]) => Math.max(...xs.map((x) => x.longestTask));
    const list = (xs: TimedQuestion[]) => xs.map((x) => x.done.toFixed(0)).join(', ');
    const during = ranThrough
      ? 'the build ran through every timed question'
      : 'the build ENDED before the last timed question: the figure mixes busy and quiet questions';
    const rows: BenchRow[] = [
      {
        name: `ask during another tab's build: question time, median (${NODES.toLocaleString('en')} nodes)`,
        value: median(busy, 'done'),
        unit: 'ms',
        reference: median(quiet, 'done'),
        referenceLabel: 'the same questions, no build running',
        higherIsBetter: false,
        note: `of ${QUESTIONS}: ${list(busy)} vs ${list(quiet)}; ${during}`,
      },
      {
        name: `ask during another tab's build: longest main-thread task (${NODES.toLocaleString('en')} nodes)`,
        value: worst(busy),
        unit: 'ms',
        reference: worst(quiet),
        referenceLabel: 'no build running',
        higherIsBetter: false,
        note: `over ${QUESTIONS} questions each (0: no task over 50 ms); first token, median ${median(busy, 'firstToken').toFixed(0)} vs ${median(quiet, 'firstToken').toFixed(0)} ms`,
      },
    ];
    return rows;
  } finally {
    await browser.close();
    await server.close();
    await llm.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
