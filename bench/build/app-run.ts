/**
 * A build as a person makes it in the production app (index.html, not the bench page): a fresh browser
 * context (a first visit: empty storage, and the service worker installing the offline copy unless blocked),
 * the document added through the file input, "Build tree" clicked, and the clock stopped when the tree view has
 * drawn its first frame. The app's settings are the defaults, so the build first tries the default hub model,
 * finds the hub unreachable (the bench's Chromium resolves no outside host), and falls back to the offline
 * model, as a new user without network does. Each stage starts when the progress view shows it as the current
 * step (a MutationObserver in the page stamps it), so the stage table is what the person sees.
 */
import { errors, type Browser, type Page } from '@playwright/test';
import type { BuildRunResult, StageMark } from '../browser/build-page';

/** A stage as the progress view named it ("Loading model", "Clustering layer 1", …) and when it started. */
export interface AppStageMark {
  stage: string;
  /** Milliseconds since "Build tree" was clicked. */
  startMs: number;
}

/** What one build in the app measured. */
export interface AppRunResult {
  /** From the click on "Build tree" to the first frame of the tree view. */
  totalMs: number;
  /** From the click to the progress view's last stage ending (the tree is then stored and opened). */
  builtMs: number;
  stages: AppStageMark[];
  /** Whether a service worker was installing the offline copy beside the build (a first visit). */
  serviceWorker: boolean;
  /** Whether the offline copy was complete when the tree was drawn (the page was controlled). */
  offlineCopyDone: boolean;
  /** `Date.now()` when "Build tree" was clicked. */
  clickedAtMs: number;
  cores: number;
  crossOriginIsolated: boolean;
}

/** The stage after the progress view's last: the tree stored, opened and drawn. */
export const STORE_AND_DRAW = 'store and first draw';

/** How long a build in the app may take before the bench gives up (the KJV takes two to four minutes here). */
const APP_TIMEOUT_MS = 20 * 60 * 1000;

/**
 * How long the progress view may show the same text before the bench calls the build stalled and says where
 * (the KJV's longest step, layer 1's global layout, moves its percentage every few seconds even at load 15).
 */
export const APP_STALL_MS = 5 * 60 * 1000;

/** How often the bench looks at the page while it waits for the tree. */
const WATCH_MS = 10 * 1000;

/** What the page's progress view last showed, and when it last changed (`Date.now()`). */
export interface ProgressWatch {
  /** The current step's text (label and counts), or '' when no step is current. */
  text: string;
  changedAt: number;
}

declare global {
  interface Window {
    __aerieStages?: { stage: string; at: number }[];
    __aerieProgress?: ProgressWatch;
  }
}

/**
 * Why the build counts as stalled at `now`, or undefined while it is not: the progress view unchanged for
 * `stallMs` since the click (or since its last change). The message says what it showed and for how long.
 */
export function stallOf(
  watch: ProgressWatch,
  clickedAt: number,
  now: number,
  stallMs = APP_STALL_MS,
): string | undefined {
  const since = Math.max(watch.changedAt, clickedAt);
  if (now - since < stallMs) return undefined;
  const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  const shown = watch.text ? `"${watch.text}"` : 'no current step';
  return `the progress view showed ${shown} unchanged for ${s(now - since)} (${s(now - clickedAt)} after "Build tree" was clicked)`;
}

/**
 * Builds `text` (as a file named `name`) in the app at `origin`, in a new context of `browser`.
 * @param serviceWorkers 'allow' for a first visit with the offline copy installing, 'block' without it.
 */
export async function runInApp(
  browser: Browser,
  origin: string,
  name: string,
  text: string,
  serviceWorkers: 'allow' | 'block',
): Promise<AppRunResult> {
  const context = await browser.newContext({ serviceWorkers, viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(APP_TIMEOUT_MS);
  await context.addInitScript(() => {
    const marks: { stage: string; at: number }[] = [];
    window.__aerieStages = marks;
    let last = '';
    const progress = { text: '', changedAt: Date.now() };
    window.__aerieProgress = progress;
    const observer = new MutationObserver(() => {
      const step = document.querySelector('.progress-stage[aria-current="step"]');
      const text = step?.textContent?.trim() ?? '';
      if (text !== progress.text) Object.assign(progress, { text, changedAt: Date.now() });
      const label = step?.querySelector('.progress-stage-label')?.textContent ?? '';
      if (label !== last) {
        // No current step after one: the build has ended and the tree is being stored and opened.
        marks.push({ stage: label || 'store and first draw', at: Date.now() });
        last = label;
      }
    });
    addEventListener('DOMContentLoaded', () =>
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      }),
    );
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  try {
    await page.goto(origin + '/');
    await page.locator('.ingest-file-input').setInputFiles({
      name,
      mimeType: 'text/plain',
      buffer: Buffer.from(text, 'utf8'),
    });
    await page
      .getByRole('list', { name: 'Added documents' })
      .getByText('Ready')
      .waitFor({ timeout: APP_TIMEOUT_MS });
    const build = page.getByRole('button', { name: 'Build tree' });
    await build.waitFor();
    const clicked = Date.now();
    await build.click();
    await waitForTree(page, clicked);
    const drawn = Date.now();
    const marks = (await page.evaluate(() => window.__aerieStages ?? [])).filter((m) => m.at >= clicked);
    const facts = await page.evaluate(() => ({
      offlineCopyDone: navigator.serviceWorker?.controller != null,
      cores: navigator.hardwareConcurrency,
      crossOriginIsolated: self.crossOriginIsolated,
    }));
    const ended = marks.find((m) => m.stage === STORE_AND_DRAW)?.at ?? drawn;
    return {
      totalMs: drawn - clicked,
      builtMs: ended - clicked,
      stages: marks.map((m) => ({ stage: m.stage, startMs: m.at - clicked })),
      serviceWorker: serviceWorkers === 'allow',
      clickedAtMs: clicked,
      ...facts,
    };
  } catch (error) {
    const detail = problems.length ? ` (${problems.join('; ')})` : '';
    throw new Error(`App build bench failed: ${(error as Error).message}${detail}`, { cause: error });
  } finally {
    await context.close();
  }
}

/**
 * Waits for the tree view's first frame, looking at the progress view every WATCH_MS: a build whose progress
 * stops changing for APP_STALL_MS fails then, saying where it stood, instead of after APP_TIMEOUT_MS.
 */
async function waitForTree(page: Page, clickedAt: number): Promise<void> {
  const tree = page.locator('canvas[aria-label="Tree view"][data-frames]');
  for (;;) {
    try {
      await tree.waitFor({ state: 'attached', timeout: WATCH_MS });
      return;
    } catch (error) {
      if (!(error instanceof errors.TimeoutError)) throw error;
    }
    const watch = await page.evaluate(() => window.__aerieProgress ?? { text: '', changedAt: 0 });
    const stalled = stallOf(watch, clickedAt, Date.now());
    if (stalled) {
      const button = page.getByRole('button', { name: 'Build tree' });
      const clickLost = (await button.count()) > 0 && (await button.isEnabled());
      throw new Error(
        `the build stalled: ${stalled}${clickLost ? '; "Build tree" is still enabled (the click started no build)' : ''}`,
      );
    }
    if (Date.now() - clickedAt > APP_TIMEOUT_MS)
      throw new Error(`no tree drawn ${APP_TIMEOUT_MS / 60000} minutes after the click`);
  }
}

/** The progress view's stage label as the bench page's stage key ("Clustering layer 2" → "cluster 2"). */
export function stageKeyOf(label: string): string {
  const layer = /(\d+)\)?$/.exec(label)?.[1];
  if (label === 'Loading model') return 'model-load';
  if (label === 'Chunking') return 'chunk';
  if (label === 'Embedding leaves') return 'embed-leaves';
  if (label.startsWith('Clustering layer')) return `cluster ${layer}`;
  if (label.startsWith('Summarizing layer')) return `summarize ${layer}`;
  if (label.startsWith('Embedding summaries')) return `embed-summaries ${layer}`;
  return label;
}

/**
 * An app run as a bench-page run (`BuildRunResult`), so the notes, the busy cores and the pairs read both: the
 * stages by their keys, the tree's storing and first draw as the part after `doneMs` (the bench page's
 * "store"). Nodes and layers are not read from the page (NaN).
 */
export function asBuildRun(result: AppRunResult): BuildRunResult {
  const stages: StageMark[] = result.stages
    .filter((s) => s.stage !== STORE_AND_DRAW)
    .map((s) => ({ stage: stageKeyOf(s.stage), startMs: s.startMs, done: 0, total: 0 }));
  return {
    totalMs: result.totalMs,
    startedAtMs: result.clickedAtMs,
    stages,
    doneMs: result.builtMs,
    nodes: NaN,
    layers: NaN,
    hardwareConcurrency: result.cores,
    crossOriginIsolated: result.crossOriginIsolated,
  };
}
