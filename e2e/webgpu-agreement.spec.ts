/**
 * WebGPU against WASM on the same inputs, through the app's own workers (dev harness pages, project
 * 'webgpu-harness'; the adapter here is SwiftShader, so the models are put on WebGPU explicitly):
 * - embeddings: every vector's cosine with WASM's ≥ 0.999, for the committed tiny BERT (fp32) and the offline
 *   GloVe model (its own 8-bit file), with each result saying where it ran;
 * - the reranker: scores within float rounding and the same ranking.
 * The figures measured go to the test's annotations and output. Not here: the tiny random-weight decoder's fp32
 * greedy tokens, which differ between the devices after a few tokens on this adapter (measured, issue 33).
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { Outcome } from '../dev/models';
import type { DeviceUse } from '../src/models/placement';
import { OFFLINE_MODEL_ID } from '../src/models/embedding-presets';
import { TEST_RERANKER_ID } from '../src/models/reranker-presets';
import { expect, test } from './support/fixtures';

type Device = 'webgpu' | 'wasm';
type Embedded = Outcome<{ vectors: number[][]; ranOn: DeviceUse[] }>;
type Reranked = Outcome<{ scores: number[] }>;

const SAMPLE = readFileSync(new URL('../tests/fixtures/cinderella.txt', import.meta.url), 'utf8');
/** Forty passages of the sample (whole lines of some length), the same on both devices. */
const PASSAGES = SAMPLE.split(/\n+/)
  .map((line) => line.trim())
  .filter((line) => line.length > 40)
  .slice(0, 40);

interface ModelsHarness {
  embed(texts: string[], choice: object): Promise<Embedded>;
  rerank(question: string, passages: string[], choice: object): Promise<Reranked>;
}

async function openModels(page: Page): Promise<void> {
  await page.goto('/dev/models.html');
  await page.waitForFunction(() => 'aerieModels' in globalThis);
}

function embed(page: Page, model: string, dtype: string, device: Device): Promise<Embedded> {
  return page.evaluate(
    ([texts, choice]) =>
      (globalThis as unknown as { aerieModels: ModelsHarness }).aerieModels.embed(texts, choice),
    [PASSAGES, { model, dtype, device }] as const,
  );
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((v, i) => {
    dot += v * b[i];
    na += v * v;
    nb += b[i] * b[i];
  });
  return dot / Math.sqrt(na * nb);
}

for (const [model, dtype] of [
  ['local:aerie-tiny-random', 'fp32'],
  [OFFLINE_MODEL_ID, 'auto'],
] as const) {
  test(`embeddings of ${model} (${dtype}): WebGPU agrees with WASM, cosine ≥ 0.999 per vector`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await openModels(page);
    const wasm = await embed(page, model, dtype, 'wasm');
    const gpu = await embed(page, model, dtype, 'webgpu');
    expect(wasm.ok && gpu.ok, JSON.stringify([wasm, gpu]).slice(0, 500)).toBe(true);
    if (!wasm.ok || !gpu.ok) return;
    expect(gpu.value.ranOn.map((u) => [u.placement.device, u.count, u.fallback])).toEqual([
      ['webgpu', PASSAGES.length, undefined],
    ]);
    expect(wasm.value.ranOn.map((u) => u.placement.device)).toEqual(['wasm']);
    const cosines = gpu.value.vectors.map((v, i) => cosine(v, wasm.value.vectors[i]));
    expect(cosines).toHaveLength(PASSAGES.length);
    const worst = Math.min(...cosines);
    const maxDelta = Math.max(
      ...gpu.value.vectors.flatMap((v, i) => v.map((x, j) => Math.abs(x - wasm.value.vectors[i][j]))),
    );
    const figure = `${model} ${dtype}: min cosine ${worst}, max |Δ| ${maxDelta.toExponential(2)} over ${PASSAGES.length} vectors`;
    test.info().annotations.push({ type: 'agreement', description: figure });
    console.log(`agreement: ${figure}`);
    expect(worst).toBeGreaterThanOrEqual(0.999);
  });
}

test('the reranker: WebGPU scores within float rounding of WASM, the same ranking', async ({ page }) => {
  test.setTimeout(300_000);
  await openModels(page);
  const rerank = (device: Device) =>
    page.evaluate(
      ([passages, choice]) =>
        (globalThis as unknown as { aerieModels: ModelsHarness }).aerieModels.rerank(
          'Who lost a glass slipper at the ball?',
          passages,
          choice,
        ),
      [PASSAGES, { model: TEST_RERANKER_ID, dtype: 'fp32', device }] as const,
    );
  const wasm = await rerank('wasm');
  const gpu = await rerank('webgpu');
  expect(wasm.ok && gpu.ok, JSON.stringify([wasm, gpu]).slice(0, 500)).toBe(true);
  if (!wasm.ok || !gpu.ok) return;
  const order = (scores: number[]) =>
    scores
      .map((s, i) => [s, i])
      .sort((a, b) => b[0] - a[0])
      .map((p) => p[1]);
  const maxDelta = Math.max(...gpu.value.scores.map((s, i) => Math.abs(s - wasm.value.scores[i])));
  const figure = `reranker fp32: max |Δ| ${maxDelta.toExponential(2)} over ${PASSAGES.length} passages`;
  test.info().annotations.push({ type: 'agreement', description: figure });
  console.log(`agreement: ${figure}`);
  expect(maxDelta).toBeLessThan(1e-6);
  expect(order(gpu.value.scores)).toEqual(order(wasm.value.scores));
});
