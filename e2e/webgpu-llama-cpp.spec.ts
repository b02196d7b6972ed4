/**
 * llama.cpp (@wllama/wllama) asked for WebGPU, through the app's real generate worker on the dev harness page
 * (dev/generate.html), in a Chromium that offers an adapter. Here that adapter is SwiftShader, which lacks
 * `shader-f16`, and llama.cpp's WebGPU backend (ggml-webgpu) needs it: it registers no device and runs every
 * layer on the CPU without an error. The generator must say so and still write the reference greedy reply of the
 * f32 GGUF file (all its tokens, as on WASM: e2e/llama-cpp.spec.ts), on WASM:
 * - the app's own check of the adapter catches the missing feature before llama.cpp is asked (no notice of
 *   WebGPU where it did not run);
 * - with the adapter claiming `shader-f16` in the app's worker only (an injected fault: llama.cpp's own worker
 *   sees the real adapter), llama.cpp is asked for WebGPU, puts no layer there, and the generator reads that from
 *   llama.cpp's load log instead of claiming WebGPU.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { HarnessReply } from '../dev/generate';
import type { ChatMessage } from '../src/core/chat';
import { expect, test } from './support/fixtures';
import { injectGpuFault } from './support/webgpu-faults';

interface GgufFixture {
  messages: ChatMessage[];
  promptTokens: number;
  newTokens: number;
  files: Record<string, { file: string; greedyText: string; agreeTokens: number }>;
}

const FIXTURE = JSON.parse(
  readFileSync(
    new URL('../tests/fixtures/models/aerie-tiny-qwen2.gguf.expected.json', import.meta.url),
    'utf8',
  ),
) as GgufFixture;
const F32 = FIXTURE.files.f32;
const MODEL = `local:aerie-tiny-qwen2/${F32.file}`;
const WASM = { device: 'wasm', threads: 2, isolated: true };

async function generateOnWebGpu(page: Page): Promise<HarnessReply> {
  await page.goto('/dev/generate.html');
  await page.waitForFunction(() => 'aerieGenerate' in globalThis);
  return page.evaluate(
    ([model, messages, n]) =>
      (
        globalThis as unknown as {
          aerieGenerate: {
            generate(c: object, m: ChatMessage[], n: number): Promise<HarnessReply>;
          };
        }
      ).aerieGenerate.generate({ model, device: 'webgpu' }, messages, n),
    [MODEL, FIXTURE.messages, FIXTURE.newTokens] as const,
  );
}

/** The reply is the reference's, every token of it, written on WASM. */
function expectReferenceOnWasm(result: HarnessReply): void {
  expect(F32.agreeTokens).toBe(FIXTURE.newTokens);
  expect(result.reply).toMatchObject({
    text: F32.greedyText,
    promptTokens: FIXTURE.promptTokens,
    completionTokens: FIXTURE.newTokens,
  });
  expect(result.reply.ranOn).toEqual([{ placement: WASM, count: FIXTURE.newTokens }]);
  expect(result.info).toMatchObject({ runtime: 'llama.cpp', device: 'wasm', dtype: 'f32', placement: WASM });
}

test('llama.cpp asked for WebGPU on an adapter without shader-f16 writes the reference reply on WASM, and says why', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const result = await generateOnWebGpu(page);
  expectReferenceOnWasm(result);
  expect(result.info.fallback).toEqual({
    kind: 'request-device',
    message:
      "llama.cpp's WebGPU backend needs the shader-f16 feature, which WebGPU (google swiftshader) lacks",
  });
});

test("llama.cpp's WebGPU backend finding no device is read from its load log: WASM, and why (injected: the app's adapter claims shader-f16)", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await injectGpuFault(page, { kind: 'claims-shader-f16' });
  const result = await generateOnWebGpu(page);
  expectReferenceOnWasm(result);
  expect(result.info.fallback).toEqual({
    kind: 'failed',
    message:
      "llama.cpp put none of the model's layers on WebGPU (google swiftshader): its WebGPU backend found no " +
      'device it can use',
  });
});
