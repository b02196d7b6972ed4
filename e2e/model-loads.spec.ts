/**
 * Loading models in the app's real embed worker (dev/models.html; Chromium, ONNX Runtime Web on WASM): a load
 * that fails never breaks the loads after it in the same tab, and a model file that does not exist is a 404
 * with a sentence, never the app's index.html.
 */
import type { Page } from '@playwright/test';
import type { Outcome } from '../dev/models';
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import { TEST_RERANKER_ID } from '../src/models/embed/reranker-presets';
import { expect, test } from './support/fixtures';

const TINY = 'local:aerie-tiny-random';
const TEXTS = ['Cinderella lost her glass slipper.', 'The king held a ball for his son.'];

interface Harness {
  load(choice: object): Promise<Outcome<{ dtype: string; device: string; dim: number }>>;
  embed(texts: string[], choice: object): Promise<Outcome<{ vectors: number[][] }>>;
  rerank(question: string, passages: string[], choice: object): Promise<Outcome<{ scores: number[] }>>;
}

function harness<K extends keyof Harness>(page: Page, method: K, ...args: Parameters<Harness[K]>) {
  return page.evaluate(
    ([m, a]) => {
      const h = (globalThis as unknown as { aerieModels: Record<string, (...x: unknown[]) => unknown> })
        .aerieModels;
      return h[m](...(a as unknown[]));
    },
    [method, args] as const,
  ) as ReturnType<Harness[K]>;
}

test('a model whose file is corrupt fails to load, and every later load in the tab still works', async ({
  page,
  context,
}) => {
  // The tiny model's fp32 weights arrive as garbage: ONNX Runtime cannot parse them.
  await context.route('**/models/aerie-tiny-random/onnx/model.onnx', (route) =>
    route.fulfill({ status: 200, contentType: 'application/octet-stream', body: 'not a model' }),
  );
  await page.goto('/dev/models.html');
  await page.waitForFunction(() => 'aerieModels' in globalThis);
  const failed = await harness(page, 'load', { model: TINY, dtype: 'fp32', device: 'wasm' });
  expect(failed).toMatchObject({ ok: false, code: 'LOAD_FAILED' });
  // The same tab loads other models, and the reranker beside them, as if nothing had happened.
  const glove = await harness(page, 'embed', TEXTS, { model: OFFLINE_MODEL_ID, dtype: 'q8', device: 'wasm' });
  expect(glove.ok, JSON.stringify(glove)).toBe(true);
  const reranked = await harness(page, 'rerank', 'Who lost a slipper?', TEXTS, {
    model: TEST_RERANKER_ID,
    dtype: 'q8',
    device: 'wasm',
  });
  expect(reranked.ok, JSON.stringify(reranked)).toBe(true);
  const tiny = await harness(page, 'embed', TEXTS, { model: TINY, dtype: 'q8', device: 'wasm' });
  expect(tiny.ok, JSON.stringify(tiny)).toBe(true);
});

test('a model file that does not exist is a 404 with a sentence, and the load says the file is missing', async ({
  page,
}) => {
  await page.goto('/dev/models.html');
  await page.waitForFunction(() => 'aerieModels' in globalThis);
  const response = await page.request.get('/models/aerie-glove-100d/onnx/model.onnx');
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  expect(await response.text()).toMatch(/^No such model file: \/models\/aerie-glove-100d\/onnx\/model\.onnx/);
  // GloVe ships only its 8-bit weights: asking for fp32 says so; q8 then loads.
  const fp32 = await harness(page, 'load', { model: OFFLINE_MODEL_ID, dtype: 'fp32', device: 'wasm' });
  expect(fp32).toMatchObject({ ok: false, code: 'MODEL_NOT_FOUND' });
  expect(fp32.ok ? '' : fp32.message).toContain('onnx/model.onnx');
  const q8 = await harness(page, 'load', { model: OFFLINE_MODEL_ID, dtype: 'q8', device: 'wasm' });
  expect(q8).toMatchObject({ ok: true, value: { dtype: 'q8' } });
});
