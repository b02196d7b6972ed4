/**
 * What the benches that drive the production app in Chromium share (`conversation`, `ask-during-build`): a
 * production build of the app with a bench page beside it (same origin: the page seeds the app's IndexedDB),
 * and asking a question as a user does, timed from the Enter key to painted frames.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { build as viteBuild } from 'vite';
import type { FakeLlmServer } from '../tests/support/llm-server';
import { ROOT } from './support';

/** The Ask panel's question box. */
export const QUESTION_BOX = 'textarea.ask-question';

declare global {
  interface Window {
    __asked?: { at?: number; firstToken?: number; done?: number; longest: number };
  }
}

/** The `q` quantile of `values` (the nearest rank); NaN when there are none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * A fresh browser context (its own IndexedDB) at 1440×900 in which functions passed to `page.evaluate` may name
 * inner functions: tsx compiles them with esbuild's keepNames, which calls a `__name` helper the page lacks.
 */
export async function newBenchContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  return context;
}

/** Builds the app (production) with the bench page at `pagePath` beside it, into `outDir`. */
export async function buildAppWith(outDir: string, pagePath: string): Promise<void> {
  await viteBuild({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: { input: { app: join(ROOT, 'index.html'), bench: join(ROOT, pagePath) } },
    },
  });
}

/** A timed question: to the first painted frame of its answer's first characters, to its end, the longest task. */
export interface TimedQuestion {
  /** Enter to the first painted frame showing the answer's first streamed characters, ms. */
  firstToken: number;
  /** Enter to the first painted frame after the answer ended (it is stored by then), ms. */
  done: number;
  /** The longest main-thread task between Enter and the end (0: none over 50 ms), ms. */
  longestTask: number;
}

/**
 * Asks `question` (Enter in the question box); the FAKE LLM server answers with a reply starting with `mark`
 * (unique to this question). Times are from the key's event to frames painted after it (a message posted from
 * the next animation frame arrives after that frame is painted).
 */
export async function timeQuestion(
  page: Page,
  llm: FakeLlmServer,
  question: string,
  mark: string,
): Promise<TimedQuestion> {
  llm.enqueue({ kind: 'reply', text: `${mark} and the rest of the answer, which cites [1] and [2].` });
  await page.evaluate(
    ({ box, token }) => {
      const asked: NonNullable<Window['__asked']> = (window.__asked = { longest: 0 });
      const afterPaint = (then: (t: number) => void) =>
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => then(performance.now() - asked.at!);
          channel.port2.postMessage(null);
        });
      document.querySelector(box)!.addEventListener(
        'keydown',
        (event) => {
          if ((event as KeyboardEvent).key === 'Enter') asked.at = event.timeStamp;
        },
        { capture: true, once: true },
      );
      const tasks = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (
            asked.at !== undefined &&
            entry.startTime + entry.duration >= asked.at &&
            asked.done === undefined
          )
            asked.longest = Math.max(asked.longest, entry.duration);
        }
      });
      tasks.observe({ type: 'longtask' });
      let seen = false;
      const observer = new MutationObserver(() => {
        if (asked.at === undefined) return;
        const answer = document.querySelector('.answer-text');
        if (!answer?.textContent?.includes(token)) return;
        if (!seen) {
          seen = true;
          afterPaint((t) => (asked.firstToken = t));
        }
        if (!answer.hasAttribute('data-streaming')) {
          observer.disconnect();
          afterPaint((t) => {
            asked.done = t;
            tasks.takeRecords().forEach((entry) => (asked.longest = Math.max(asked.longest, entry.duration)));
            tasks.disconnect();
          });
        }
      });
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    },
    { box: QUESTION_BOX, token: mark },
  );
  const box = page.locator(QUESTION_BOX);
  await box.fill(question);
  await box.press('Enter');
  await page.waitForFunction(() => window.__asked?.done !== undefined, undefined, { timeout: 180_000 });
  return page.evaluate(() => ({
    firstToken: window.__asked!.firstToken!,
    done: window.__asked!.done!,
    longestTask: window.__asked!.longest,
  }));
}

/** Unticks "Follow-up" (a timed question is a new topic: no rewrite waits for a confirmation). */
export async function notFollowUp(page: Page): Promise<void> {
  const box = page.getByRole('checkbox', { name: /Follow-up to the questions before/ });
  if (await box.isVisible()) await box.uncheck();
}
