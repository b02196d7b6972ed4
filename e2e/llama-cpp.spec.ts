/**
 * llama.cpp in WebAssembly (@wllama/wllama), the built-in model's runtime for GGUF files, in Chromium through the
 * app's real generate worker (dev/generate.html on the dev server: COOP/COEP, the CSP guard on). The committed
 * random-weight Qwen2 as GGUF (scripts/models/make_qwen2_gguf.py) must write, greedily, what transformers'
 * Qwen2ForCausalLM writes with the same weights: all 24 tokens with f32 weights, the first ones with Q8_0 (whose
 * kernels also round activations to 8 bits). Streaming, cancelling between tokens and an unreachable hub too.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { HarnessReply } from '../dev/generate';
import type { ChatMessage } from '../src/core/chat';
import { TEST_GGUF_GENERATOR_ID } from '../src/models/generate/generator-presets';
import { expect, test } from './support/fixtures';

interface GgufFixture {
  messages: ChatMessage[];
  promptTokens: number;
  newTokens: number;
  files: Record<string, { file: string; greedyText: string; agreeTokens: number; agreeText: string }>;
}

const FIXTURE = JSON.parse(
  readFileSync(
    new URL('../tests/fixtures/models/aerie-tiny-qwen2.gguf.expected.json', import.meta.url),
    'utf8',
  ),
) as GgufFixture;
const HARNESS = '/dev/generate.html';

interface Harness {
  generate(choice: { model: string }, messages: ChatMessage[], maxNewTokens: number): Promise<HarnessReply>;
  cancelAfter(
    choice: { model: string },
    messages: ChatMessage[],
    afterTokens: number,
  ): Promise<{ error: string; tokens: number }>;
  loadError(choice: { model: string }): Promise<{ code: string; message: string }>;
}

async function open(page: Page): Promise<void> {
  await page.goto(HARNESS);
  await page.waitForFunction(() => 'aerieGenerate' in globalThis);
}

test('llama.cpp writes the reference greedy reply of the f32 and Q8_0 GGUF files, streamed, on 2 threads', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await open(page);
  for (const [kind, expected] of Object.entries(FIXTURE.files)) {
    const model = `local:aerie-tiny-qwen2/${expected.file}`;
    const result = await page.evaluate(
      ([m, messages, n]) =>
        (globalThis as unknown as { aerieGenerate: Harness }).aerieGenerate.generate(
          { model: m },
          messages,
          n,
        ),
      [model, FIXTURE.messages, FIXTURE.newTokens] as const,
    );
    expect(result.info).toMatchObject({
      model,
      runtime: 'llama.cpp',
      device: 'wasm',
      dtype: kind,
      threads: 2,
    });
    expect(result.crossOriginIsolated).toBe(true);
    expect(result.reply).toMatchObject({
      promptTokens: FIXTURE.promptTokens,
      completionTokens: FIXTURE.newTokens,
      finishReason: 'length',
    });
    // Streamed: the pieces join to the text, and the token count rose one by one.
    expect(result.pieces.join('')).toBe(result.reply.text);
    expect(result.tokens).toEqual(result.tokens.map((_, i) => i + 1));
    expect(result.reply.timing.prefillMs).toBeGreaterThan(0);
    expect(result.reply.timing.decodeMs).toBeGreaterThan(0);
    if (expected.agreeTokens === FIXTURE.newTokens) expect(result.reply.text).toBe(expected.greedyText);
    else expect(result.reply.text.startsWith(expected.agreeText)).toBe(true);
  }
});

test('llama.cpp: a cancelled generation stops between tokens; a GGUF hub file without the hub is HUB_UNREACHABLE', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await open(page);
  const cancelled = await page.evaluate(
    ([m, messages]) =>
      (globalThis as unknown as { aerieGenerate: Harness }).aerieGenerate.cancelAfter(
        { model: m },
        messages,
        3,
      ),
    [TEST_GGUF_GENERATOR_ID, FIXTURE.messages] as const,
  );
  expect(cancelled.error).toBe('AbortError');
  expect(cancelled.tokens).toBeGreaterThanOrEqual(3);
  expect(cancelled.tokens).toBeLessThan(50);

  const hub = await page.evaluate(
    (m) => (globalThis as unknown as { aerieGenerate: Harness }).aerieGenerate.loadError({ model: m }),
    'Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf',
  );
  expect(hub.code).toBe('HUB_UNREACHABLE');
  expect(hub.message).toContain('could not be reached');
});
