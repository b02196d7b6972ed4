/**
 * Summaries written together (issue 27) in Chromium, through the app's real generate worker (dev/generate.html:
 * ONNX Runtime Web, WASM, 2 threads, COOP/COEP, the CSP guard on), with the committed random-weight Qwen2
 * (local:aerie-tiny-qwen2). Six summary prompts of different lengths are written alone, then all at once as a
 * build asks for them: with fp32 and q4 weights each text must be the one it got alone (padding is masked, and
 * these kernels treat every row on its own); with q8 the texts are counted (its dynamic quantisation shares one
 * activation scale across a batch). A summary cancelled mid-batch leaves it without stopping the others, and a
 * question asked meanwhile is answered before the batch goes on.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { BatchedReply } from '../dev/generate';
import { summaryMessages } from '../src/core/chat';
import type { ChatMessage } from '../src/core/chat';
import type { GeneratorInfo } from '../src/models/generate';
import { TEST_GENERATOR_ID } from '../src/models/generate/generator-presets';
import { expect, test } from './support/fixtures';

const SAMPLE = readFileSync(new URL('../tests/fixtures/cinderella.txt', import.meta.url), 'utf8');
/** Prompts of different lengths, so the batch pads its rows. */
const PROMPTS: ChatMessage[][] = Array.from({ length: 6 }, (_, i) =>
  summaryMessages([SAMPLE.slice(i * 700, i * 700 + 150 + i * 90)]),
);
const NEW_TOKENS = 40;
const QUESTION: ChatMessage[] = [{ role: 'user', content: 'Who lost a glass slipper?' }];

interface Harness {
  batch(
    choice: { model: string; dtype: string },
    prompts: ChatMessage[][],
    maxNewTokens: number,
    options?: { cancel?: number; question?: ChatMessage[] },
  ): Promise<{ alone: string[]; together: BatchedReply[]; info: GeneratorInfo; answer?: string }>;
}

async function runBatch(page: Page, dtype: string, options: { cancel?: number; question?: boolean } = {}) {
  return page.evaluate(
    ([d, prompts, n, o, q]) =>
      (globalThis as unknown as { aerieGenerate: Harness }).aerieGenerate.batch(
        { model: 'local:aerie-tiny-qwen2', dtype: d },
        prompts,
        n,
        { ...(o.cancel !== undefined ? { cancel: o.cancel } : {}), ...(o.question ? { question: q } : {}) },
      ),
    [dtype, PROMPTS, NEW_TOKENS, options, QUESTION] as const,
  );
}

test('summaries written together are the texts written alone (fp32, q4); q8 is counted', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/dev/generate.html');
  await page.waitForFunction(() => 'aerieGenerate' in globalThis);
  for (const dtype of ['fp32', 'q4'] as const) {
    const { alone, together, info } = await runBatch(page, dtype);
    expect(info).toMatchObject({ model: TEST_GENERATOR_ID, device: 'wasm', dtype, threads: 2 });
    expect(info.batchSize).toBeGreaterThan(1);
    expect(together.map((r) => r.text)).toEqual(alone);
    // Written together: each reply's share of the steps is well below its wall time.
    for (const r of together) expect(r.decodeShareMs!).toBeLessThan(r.decodeMs! / 2);
  }
  const q8 = await runBatch(page, 'q8');
  const same = q8.together.filter((r, i) => r.text === q8.alone[i]).length;
  test.info().annotations.push({ type: 'q8 texts identical to alone', description: `${same} of 6` });
  expect(q8.together.every((r) => r.text.length > 0 && r.error === undefined)).toBe(true);
});

test('a cancelled summary leaves the batch, the others finish as alone, and a question is answered meanwhile', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/dev/generate.html');
  await page.waitForFunction(() => 'aerieGenerate' in globalThis);
  const { alone, together, answer } = await runBatch(page, 'fp32', { cancel: 2, question: true });
  expect(together[2]).toMatchObject({ error: 'AbortError' });
  together.forEach((r, i) => {
    if (i !== 2) expect(r.text).toBe(alone[i]);
  });
  expect(answer?.length).toBeGreaterThan(0);
  // Asked when summary 0 had written 5 tokens, answered before the batch wrote more than a few more (the
  // counts reach the page by messages, a step or two late); one at a time, it would have waited for all 40.
  expect(together[0].writtenWhenAnswered).toBeGreaterThanOrEqual(5);
  expect(together[0].writtenWhenAnswered).toBeLessThan(12);
});
