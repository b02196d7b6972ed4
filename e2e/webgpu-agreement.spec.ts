/**
 * WebGPU against WASM on the same inputs, through the app's own workers (dev harness pages, project
 * 'webgpu-harness'; the adapter here is SwiftShader, so the models are put on WebGPU explicitly):
 * - embeddings: every vector's cosine with WASM's ≥ 0.999, for the committed tiny BERT (fp32) and the offline
 *   GloVe model (its own 8-bit file), with each result saying where it ran;
 * - the reranker: scores within float rounding and the same ranking.
 * - the test decoder's greedy tokens (fp32, and q4 as `auto` picks it without `shader-f16`): identical, on a
 *   prompt whose top-1 margins are all ≥ 1e-2 (on most prompts this random-weight model has near-ties, 4e-4 on
 *   the summary fixture's, and the devices then part honestly; issue 33).
 * The figures measured go to the test's annotations and output.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { HarnessReply } from '../dev/generate';
import type { Outcome } from '../dev/models';
import type { ChatMessage } from '../src/core/chat';
import { NO_SHADER_F16, runtimeLabel, TEST_GENERATOR_ID } from '../src/models/generate/generator-presets';
import type { GeneratorChoice } from '../src/models/generate';
import type { GreedyFixture, GreedyStep } from '../tests/support/greedy-path';
import { maxDifference } from '../tests/support/q8-check';
import { injectGpuFault } from './support/webgpu-faults';
import type { DeviceUse } from '../src/models/device';
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import { TEST_RERANKER_ID } from '../src/models/embed/reranker-presets';
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

const GREEDY = JSON.parse(
  readFileSync(new URL('../tests/fixtures/models/aerie-tiny-qwen2.greedy.json', import.meta.url), 'utf8'),
) as GreedyFixture;

interface GenerateHarness {
  generate(choice: GeneratorChoice, messages: ChatMessage[], maxNewTokens: number): Promise<HarnessReply>;
  greedyPath(
    folder: string,
    device: Device,
    dtype: 'fp32' | 'q4',
    promptIds: number[],
    steps: number,
  ): Promise<{ steps: GreedyStep[]; firstLogits: number[] }>;
}

function generateHarness(page: Page): Promise<GenerateHarness> {
  return page.goto('/dev/generate.html').then(async () => {
    await page.waitForFunction(() => 'aerieGenerate' in globalThis);
    const call =
      <K extends keyof GenerateHarness>(name: K) =>
      (...args: Parameters<GenerateHarness[K]>) =>
        page.evaluate(
          ([n, a]) =>
            (
              (globalThis as unknown as { aerieGenerate: Record<string, (...x: unknown[]) => unknown> })
                .aerieGenerate[n] as (...x: unknown[]) => unknown
            )(...a),
          [name, args] as const,
        ) as ReturnType<GenerateHarness[K]>;
    return { generate: call('generate'), greedyPath: call('greedyPath') };
  });
}

/**
 * The test decoder's greedy tokens, WebGPU against WASM, on the fixture's prompt (scripts/models/
 * find-greedy-prompt.ts), whose every step leads by ≥ 1e-2: the precondition is re-derived here on WASM, then
 * the app's generate worker writes on both devices. fp32 on WebGPU chosen explicitly (the adapter is the
 * software fallback); q4 as `auto` chooses it on a GPU without `shader-f16` (the adapter said to be hardware, as
 * in webgpu-journey.spec.ts), which the reply's label must say.
 */
test(`the test decoder: WebGPU writes WASM's greedy tokens (fp32; q4 as auto picks it without shader-f16) where every step leads by ≥ ${GREEDY.requiredMargin}`, async ({
  page,
}) => {
  test.setTimeout(420_000);
  // The adapter said to be hardware, so that `auto` puts the model on WebGPU (fp32 is put there explicitly).
  await injectGpuFault(page, { kind: 'hardware-adapter' });
  const harness = await generateHarness(page);
  for (const dtype of ['fp32', 'q4'] as const) {
    const expected = GREEDY.paths[dtype].greedyIds;
    const steps = expected.length;
    // The precondition, re-derived in this browser on WASM: every step's lead is clear.
    const wasmPath = await harness.greedyPath('aerie-tiny-qwen2', 'wasm', dtype, GREEDY.promptIds, steps);
    expect(
      wasmPath.steps.map((s) => s.token),
      dtype,
    ).toEqual(expected);
    const wasmMargin = Math.min(...wasmPath.steps.map((s) => s.margin));
    expect(wasmMargin, dtype).toBeGreaterThanOrEqual(GREEDY.requiredMargin);
    // The first step only on WebGPU: each further step is a new shape, which SwiftShader compiles anew.
    const gpuPath = await harness.greedyPath('aerie-tiny-qwen2', 'webgpu', dtype, GREEDY.promptIds, 1);
    const firstDelta = maxDifference(gpuPath.firstLogits, wasmPath.firstLogits);

    // The app's generate worker on both devices.
    const wasm = await harness.generate(
      { model: TEST_GENERATOR_ID, device: 'wasm', dtype },
      GREEDY.messages,
      steps,
    );
    const gpuChoice: GeneratorChoice =
      dtype === 'fp32' ? { model: TEST_GENERATOR_ID, device: 'webgpu', dtype } : { model: TEST_GENERATOR_ID };
    const gpu = await harness.generate(gpuChoice, GREEDY.messages, steps);
    expect(wasm.info, dtype).toMatchObject({ device: 'wasm', dtype });
    expect(gpu.info, dtype).toMatchObject({ device: 'webgpu', dtype });
    expect(gpu.reply.ranOn, dtype).toEqual([
      { placement: { device: 'webgpu', adapter: 'google swiftshader' }, count: steps },
    ]);
    const figure =
      `aerie-tiny-qwen2 ${dtype}: ${steps} greedy tokens, WASM's smallest margin ${wasmMargin.toExponential(2)}; ` +
      `first logits max |Δ| ${firstDelta.toExponential(2)} (WebGPU vs WASM); ` +
      `WebGPU's tokens ${sameTokens(gpu.ids, wasm.ids)}`;
    test.info().annotations.push({ type: 'agreement', description: figure });
    console.log(`agreement: ${figure}`);
    expect(wasm.ids, dtype).toEqual(expected);
    expect(gpu.ids, dtype).toEqual(wasm.ids);
    expect(gpu.reply.text, dtype).toBe(wasm.reply.text);
    if (dtype === 'q4') {
      // What the person reading an answer is told (the answer's "written by" line).
      expect(gpu.info.dtypeWhy).toBe(NO_SHADER_F16);
      expect(runtimeLabel(gpu.info, gpu.reply.ranOn)).toBe(
        `ONNX Runtime, WebGPU (google swiftshader), q4 (${NO_SHADER_F16})`,
      );
    } else expect(gpu.info.dtypeWhy).toBeUndefined();
  }
});

/**
 * A model's own files decide its precision: on a GPU with `shader-f16` (claimed by the adapter, injected: SwiftShader
 * lacks it) `auto` asks for q4f16 first, which the test decoder does not ship; the generator loads its q4 file
 * instead, still on WebGPU, writes the q4 greedy tokens (those WASM writes, as the test above checks) and says why.
 */
test("auto on a GPU with shader-f16 and a model without q4f16 weights: its q4 file on WebGPU, WASM's q4 tokens, and why", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await injectGpuFault(page, { kind: 'claims-shader-f16' });
  const harness = await generateHarness(page);
  const expected = GREEDY.paths.q4.greedyIds;
  const gpu = await harness.generate(
    { model: TEST_GENERATOR_ID, device: 'webgpu' },
    GREEDY.messages,
    expected.length,
  );
  const why = 'the model has no q4f16 weights';
  expect(gpu.info).toMatchObject({ device: 'webgpu', dtype: 'q4', dtypeWhy: why });
  expect(gpu.reply.ranOn).toEqual([
    { placement: { device: 'webgpu', adapter: 'google swiftshader' }, count: expected.length },
  ]);
  expect(gpu.ids).toEqual(expected);
  expect(runtimeLabel(gpu.info, gpu.reply.ranOn)).toBe(
    `ONNX Runtime, WebGPU (google swiftshader), q4 (${why})`,
  );
});

/** "identical", or where the first difference is. */
function sameTokens(a: number[], b: number[]): string {
  const at = a.findIndex((id, i) => id !== b[i]);
  return at < 0 && a.length === b.length ? 'identical' : `differ from token ${at + 1}`;
}
