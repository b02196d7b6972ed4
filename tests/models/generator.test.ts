/**
 * The built-in model's generator in Node with the committed random-weight Qwen2 (local:aerie-tiny-qwen2):
 * chat-templated prompts, streamed text, token counts and budget, timing, cancellation (between tokens and while
 * queued), and the errors a user sees. Its replies are gibberish; what is checked is everything around them.
 */
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { env } from '@huggingface/transformers';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRuntime } from '../../src/models/embedder';
import { classifyLoadError, TransformersGenerator } from '../../src/models/generator';
import type { ChatMessage } from '../../src/llm';

const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
configureRuntime({ localModelPath: MODELS });
const TINY = 'local:aerie-tiny-qwen2';
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are a Summarizing Text Portal' },
  { role: 'user', content: 'Write a summary of the following: Cinderella went to the ball.\n\n:' },
];

const loaded = new Map<string, Promise<TransformersGenerator>>();
function tiny(dtype: 'q8' | 'fp32' | 'q4' = 'q8'): Promise<TransformersGenerator> {
  if (!loaded.has(dtype))
    loaded.set(dtype, TransformersGenerator.load({ model: TINY, device: 'cpu', dtype }));
  return loaded.get(dtype)!;
}

describe('TransformersGenerator (tiny random Qwen2)', () => {
  it('describes what it loaded, with the tag a tree records', async () => {
    const generator = await tiny();
    expect(generator.info).toEqual({
      model: TINY,
      runtime: 'onnx',
      device: 'cpu',
      dtype: 'q8',
      tag: 'builtin:local:aerie-tiny-qwen2@q8',
      threads: 1,
      contextTokens: 32768,
    });
  });

  it('streams text whose pieces join to the reply, within the token budget, the same twice', async () => {
    const generator = await tiny();
    const deltas: string[] = [];
    const counts: number[] = [];
    const reply = await generator.generate(MESSAGES, {
      maxNewTokens: 24,
      onText: (d) => deltas.push(d),
      onToken: (n) => counts.push(n),
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(reply.text);
    expect(reply.text.trim().length).toBeGreaterThan(0);
    // The random model never ends its turn (scripts/models: its end tokens are silent), so it hits the limit.
    expect(reply).toMatchObject({ completionTokens: 24, finishReason: 'length' });
    expect(counts).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(reply.promptTokens).toBe(generator.countPromptTokens(MESSAGES));
    expect(reply.timing.prefillMs).toBeGreaterThan(0);
    expect(reply.timing.decodeMs).toBeGreaterThan(0);
    expect(reply.timing.totalMs).toBeGreaterThanOrEqual(reply.timing.prefillMs + reply.timing.decodeMs);
    const again = await generator.generate(MESSAGES, { maxNewTokens: 24 });
    expect(again.text).toBe(reply.text);
  });

  it('runs every dtype through the same code path (fp32, q8, q4)', async () => {
    for (const dtype of ['fp32', 'q4'] as const) {
      const reply = await (await tiny(dtype)).generate(MESSAGES, { maxNewTokens: 6 });
      expect(reply.completionTokens).toBe(6);
      expect(reply.text.length).toBeGreaterThan(0);
    }
  });

  it('stops between tokens when cancelled, and keeps working afterwards', async () => {
    const generator = await tiny();
    const controller = new AbortController();
    let tokens = 0;
    const pending = generator.generate(MESSAGES, {
      maxNewTokens: 200,
      signal: controller.signal,
      onToken: (n) => {
        tokens = n;
        if (n === 3) controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(tokens).toBeLessThanOrEqual(4);
    expect((await generator.generate(MESSAGES, { maxNewTokens: 2 })).completionTokens).toBe(2);
  });

  it('runs one generation at a time; a queued one leaves the queue when cancelled', async () => {
    const generator = await tiny();
    const order: string[] = [];
    const first = generator.generate(MESSAGES, { maxNewTokens: 40 }).then(() => order.push('first'));
    const controller = new AbortController();
    const queued = generator.generate(MESSAGES, { maxNewTokens: 40, signal: controller.signal });
    const third = generator.generate(MESSAGES, { maxNewTokens: 2 }).then(() => order.push('third'));
    controller.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    await Promise.all([first, third]);
    expect(order).toEqual(['first', 'third']);
  });

  it('refuses a prompt and reply longer than the context, and a bad token limit', async () => {
    const generator = await tiny();
    await expect(generator.generate(MESSAGES, { maxNewTokens: 32768 })).rejects.toMatchObject({
      code: 'CONTEXT_TOO_LONG',
      details: { contextTokens: 32768, maxNewTokens: 32768 },
    });
    await expect(generator.generate(MESSAGES, { maxNewTokens: 0 })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });
});

describe('TransformersGenerator load errors', () => {
  const remoteHost = env.remoteHost;
  afterEach(() => {
    env.remoteHost = remoteHost;
  });

  it('says when a model is missing, is not a text-generation model, or is an endpoint', async () => {
    await expect(
      TransformersGenerator.load({ model: 'local:no-such-model', device: 'cpu', dtype: 'q8' }),
    ).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    await expect(
      TransformersGenerator.load({ model: 'local:aerie-tiny-random', device: 'cpu', dtype: 'fp32' }),
    ).rejects.toMatchObject({ code: 'NOT_TEXT_GENERATION' });
    await expect(
      TransformersGenerator.load({ model: 'openai:gpt-4o-mini', device: 'cpu', dtype: 'q8' }),
    ).rejects.toMatchObject({ code: 'NOT_TEXT_GENERATION' });
    await expect(
      TransformersGenerator.load({ model: TINY, device: 'cpu', dtype: 'q4f16' }),
    ).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
  });

  it('says WebGPU is missing when asked for it where there is none', async () => {
    await expect(
      TransformersGenerator.load({ model: TINY, device: 'webgpu', dtype: 'q4' }),
    ).rejects.toMatchObject({
      code: 'NO_WEBGPU',
    });
  });

  it('says the hub is unreachable when nothing answers (a closed local port stands for huggingface.co)', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    env.remoteHost = `http://127.0.0.1:${closed}/`;
    const error = await TransformersGenerator.load({
      model: 'onnx-community/Qwen2.5-0.5B-Instruct',
      device: 'cpu',
      dtype: 'q8',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'GeneratorError', code: 'HUB_UNREACHABLE' });
    expect((error as Error).message).toMatch(/huggingface\.co.*extractive/);
  });

  it('classifies out-of-memory messages of WebAssembly, ONNX Runtime and WebGPU (constructed errors)', () => {
    for (const message of [
      'RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded',
      'Array buffer allocation failed',
      '[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Failed to allocate memory for requested buffer of size 16',
      'std::bad_alloc',
      'GPU device was lost: out of memory',
    ]) {
      expect(classifyLoadError(new Error(message), 'm').code, message).toBe('OUT_OF_MEMORY');
    }
    expect(classifyLoadError(new TypeError('Failed to fetch'), 'm').code).toBe('HUB_UNREACHABLE');
    expect(classifyLoadError(new Error('Unsupported model type: bert'), 'm').code).toBe(
      'NOT_TEXT_GENERATION',
    );
    expect(classifyLoadError(new Error('something odd'), 'm').code).toBe('LOAD_FAILED');
  });
});
