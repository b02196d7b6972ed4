/**
 * WebGPU faults, injected into Chromium's real WebGPU inside the app's real workers (e2e/support/webgpu-faults.ts),
 * with the app's embedding and generate workers on the dev harness pages: every fault moves the work to WASM with
 * the same weights, says why, and loses nothing:
 * - caught at first use, before a model runs on the GPU: `requestDevice` failing, an adapter that computes wrong
 *   numbers (the known-input check), an operator the adapter cannot compile (a WebGPU validation error);
 * - mid-work: the device lost, or WebGPU out of memory, after the first batch: that batch's texts stay embedded on
 *   WebGPU, the rest go to WASM, each text once, and every vector agrees with WASM's;
 * - mid-answer: the device lost after a few tokens of the built-in model; the reply goes on on WASM from the token
 *   where it was and is the reply WASM writes alone.
 * The adapter is SwiftShader (the browser's software fallback), so the models are put on WebGPU explicitly.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { Outcome } from '../dev/models';
import type { HarnessReply } from '../dev/generate';
import type { DeviceUse } from '../src/models/device';
import { expect, test } from './support/fixtures';
import { injectGpuFault, type GpuFaultInjection } from './support/webgpu-faults';

/** Twelve texts, embedded four at a time: three model passes, so a fault can strike between them. */
const TEXTS = Array.from(
  { length: 12 },
  (_, i) => `Sentence ${i + 1}: Cinderella's fairy godmother turned pumpkin number ${i} into a coach.`,
);
const BATCH = 4;
/**
 * Results read back before the fault: the known-input check's two runs (the dimension probe and its batch), the
 * model's dimension probe and its first batch.
 */
const AFTER_FIRST_BATCH = 4;

type Embedded = Outcome<{ vectors: number[][]; ranOn: DeviceUse[] }>;

function embed(page: Page, device: 'webgpu' | 'wasm'): Promise<Embedded> {
  return page.evaluate(
    ([texts, d, batch]) =>
      (
        globalThis as unknown as {
          aerieModels: { embed(t: string[], c: object, b: number): Promise<Embedded> };
        }
      ).aerieModels.embed(texts, { model: 'local:aerie-tiny-random', dtype: 'fp32', device: d }, batch),
    [TEXTS, device, BATCH] as const,
  );
}

function maxDifference(a: number[][], b: number[][]): number {
  return Math.max(...a.map((row, i) => Math.max(...row.map((v, j) => Math.abs(v - b[i][j])))));
}

/** The faults, in the order the workers start, and what each must be reported as. */
const CASES: { fault: GpuFaultInjection; kind: string; message: RegExp; onGpu: number }[] = [
  {
    fault: { kind: 'request-device' },
    kind: 'request-device',
    message: /^WebGPU could not create a device on google swiftshader \(Injected: the driver refused/,
    onGpu: 0,
  },
  {
    fault: { kind: 'wrong-numbers' },
    kind: 'wrong-numbers',
    message: /^WebGPU \(google swiftshader\) computed wrong numbers on a known input \(largest error/,
    onGpu: 0,
  },
  {
    fault: { kind: 'unsupported-operator', marker: 'erf' },
    kind: 'gpu-error',
    message: /an operation it cannot run here \(Injected: this adapter cannot compile a shader using erf\)/,
    onGpu: 0,
  },
  {
    fault: { kind: 'lose-device', afterReadbacks: AFTER_FIRST_BATCH },
    kind: 'device-lost',
    message: /^the GPU \(google swiftshader\) was lost \(destroyed/,
    onGpu: BATCH,
  },
  {
    fault: { kind: 'out-of-memory', afterReadbacks: AFTER_FIRST_BATCH },
    kind: 'out-of-memory',
    message: /^the GPU \(google swiftshader\) ran out of memory \(Injected: out of memory/,
    onGpu: BATCH,
  },
];

test('each WebGPU fault moves the embeddings to WASM, says why, and embeds every text once', async ({
  page,
}) => {
  test.setTimeout(900_000);
  // The first worker has no fault: it computes the WASM reference. Each case then gets a fresh worker.
  await injectGpuFault(page, [null, ...CASES.map((c) => c.fault)]);
  await page.goto('/dev/models.html');
  await page.waitForFunction(() => 'aerieModels' in globalThis);
  const reference = await embed(page, 'wasm');
  expect(reference.ok, JSON.stringify(reference)).toBe(true);
  if (!reference.ok) return;
  for (const c of CASES) {
    await page.evaluate(() =>
      (globalThis as unknown as { aerieModels: { restart(): void } }).aerieModels.restart(),
    );
    const result = await embed(page, 'webgpu');
    expect(result.ok, `${c.fault.kind}: ${JSON.stringify(result)}`).toBe(true);
    if (!result.ok) continue;
    const { ranOn, vectors } = result.value;
    const onGpu = ranOn.filter((u) => u.placement.device === 'webgpu');
    const onCpu = ranOn.filter((u) => u.placement.device === 'wasm');
    // Each text once: the batches WebGPU finished, then the rest on WASM, with the cause.
    expect(
      onGpu.reduce((n, u) => n + u.count, 0),
      c.fault.kind,
    ).toBe(c.onGpu);
    expect(onCpu).toHaveLength(1);
    expect(onCpu[0].count, c.fault.kind).toBe(TEXTS.length - c.onGpu);
    expect(onCpu[0].fallback?.kind, c.fault.kind).toBe(c.kind);
    expect(onCpu[0].fallback?.message, c.fault.kind).toMatch(c.message);
    // No garbage: every vector is WASM's (the ones WebGPU made agree with it to float rounding).
    expect(maxDifference(vectors, reference.value.vectors), c.fault.kind).toBeLessThan(1e-5);
    test.info().annotations.push({ type: c.fault.kind, description: onCpu[0].fallback!.message });
  }
});

test('the GPU lost mid-answer: the reply goes on on WASM from the token where it was, the same reply', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const expected = JSON.parse(
    readFileSync(new URL('../tests/fixtures/models/aerie-tiny-qwen2.expected.json', import.meta.url), 'utf8'),
  ) as { messages: { role: string; content: string }[] };
  // The known-input check reads back twice, the prompt once, then a token per step: lost after a few tokens.
  await injectGpuFault(page, { kind: 'lose-device', afterReadbacks: 2 + 1 + 4 });
  await page.goto('/dev/generate.html');
  await page.waitForFunction(() => 'aerieGenerate' in globalThis);
  const write = (device: string) =>
    page.evaluate(
      ([d, messages]) =>
        (
          globalThis as unknown as {
            aerieGenerate: { generate(c: object, m: object[], n: number): Promise<HarnessReply> };
          }
        ).aerieGenerate.generate({ model: 'local:aerie-tiny-qwen2', device: d, dtype: 'fp32' }, messages, 16),
      [device, expected.messages] as const,
    );
  const moved = await write('webgpu');
  const ranOn = moved.reply.ranOn!;
  expect(ranOn.map((u) => u.placement.device)).toEqual(['webgpu', 'wasm']);
  expect(ranOn[0].count).toBeGreaterThan(0);
  expect(ranOn[0].count + ranOn[1].count).toBe(16);
  expect(ranOn[1].fallback).toMatchObject({ kind: 'device-lost' });
  expect(moved.reply.completionTokens).toBe(16);
  // Streamed without a gap or a repeat, the token count going on from where it was.
  expect(moved.pieces.join('')).toBe(moved.reply.text);
  expect(moved.tokens).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  // The same reply WASM writes alone (greedy; these first tokens agree on both devices).
  const alone = await write('wasm');
  expect(moved.reply.text).toBe(alone.reply.text);
  test.info().annotations.push({ type: 'answer moved', description: JSON.stringify(ranOn) });
});
