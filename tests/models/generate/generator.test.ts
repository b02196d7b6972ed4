/**
 * The built-in model's generator in Node with the committed random-weight Qwen2 (local:aerie-tiny-qwen2):
 * chat-templated prompts, streamed text, token counts and budget, timing, cancellation (between tokens and while
 * queued), and the errors a user sees. Its replies are gibberish; what is checked is everything around them.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { AutoModelForCausalLM, AutoTokenizer, env, type Tensor } from '@huggingface/transformers';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRuntime } from '../../../src/models/embed';
import {
  classifyLoadError,
  QueuedGenerator,
  type GenerationResult,
  DEFAULT_CPU_BATCH_SIZE,
  TransformersGenerator,
} from '../../../src/models/generate';
import type { ChatMessage } from '../../../src/core/chat';
import { summaryMessages } from '../../../src/core/chat';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
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
      batchSize: DEFAULT_CPU_BATCH_SIZE,
      placement: { device: 'cpu' },
    });
  });

  it('continues a reply begun elsewhere exactly as it would have gone on (a WebGPU failure mid-reply)', async () => {
    const generator = await tiny('fp32');
    const whole = await generator.generate(MESSAGES, { maxNewTokens: 30 });
    for (const cut of [1, 7, 19]) {
      // The start, as the model that failed had written and streamed it.
      const ids: number[] = [];
      const begun = await generator.generate(MESSAGES, {
        maxNewTokens: cut,
        onTokenId: (id) => ids.push(id),
      });
      expect(ids).toHaveLength(cut);
      const deltas: string[] = [];
      const counts: number[] = [];
      const rest = await generator.generate(MESSAGES, {
        maxNewTokens: 30,
        resume: { tokens: ids, text: begun.text },
        onText: (d) => deltas.push(d),
        onToken: (n) => counts.push(n),
      });
      expect(rest.text).toBe(whole.text);
      expect(rest.completionTokens).toBe(30);
      // Only what follows the start is streamed, and the token count goes on from it.
      expect(begun.text + deltas.join('')).toBe(whole.text);
      expect(counts[0]).toBe(cut + 1);
      expect(counts.at(-1)).toBe(30);
    }
    // A reply that had already reached its limit is returned as it was.
    const ids: number[] = [];
    const full = await generator.generate(MESSAGES, { maxNewTokens: 5, onTokenId: (id) => ids.push(id) });
    const done = await generator.generate(MESSAGES, {
      maxNewTokens: 5,
      resume: { tokens: ids, text: full.text },
    });
    expect(done).toMatchObject({ text: full.text, completionTokens: 5, finishReason: 'length' });
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

/** The fixture make_qwen2_random.py wrote: the prompt and torch's greedy continuation (fp32). */
const expected = JSON.parse(
  readFileSync(new URL('../../fixtures/models/aerie-tiny-qwen2.expected.json', import.meta.url), 'utf8'),
) as { messages: ChatMessage[]; greedyIds: number[] };
const SAMPLE = readFileSync(new URL('../../fixtures/cinderella.txt', import.meta.url), 'utf8');
/** Summary prompts over the sample of different lengths (so a batch pads its rows). */
const PROMPTS = Array.from({ length: 6 }, (_, i) =>
  summaryMessages([SAMPLE.slice(i * 700, i * 700 + 150 + i * 90)]),
);

/** transformers.js's own greedy `generate` on the same files: the text it writes for `messages`. */
async function referenceText(dtype: 'fp32' | 'q8' | 'q4', messages: ChatMessage[], newTokens: number) {
  const model = await AutoModelForCausalLM.from_pretrained('aerie-tiny-qwen2', { dtype, device: 'cpu' });
  const tokenizer = await AutoTokenizer.from_pretrained('aerie-tiny-qwen2');
  const prompt = tokenizer.apply_chat_template(messages, { tokenize: false, add_generation_prompt: true });
  const inputs = tokenizer(prompt as string, { add_special_tokens: false }) as { input_ids: Tensor };
  const out = (await model.generate({
    ...inputs,
    max_new_tokens: newTokens,
    do_sample: false,
  } as Parameters<typeof model.generate>[0])) as Tensor;
  const ids = Array.from(out.data as BigInt64Array, Number).slice(inputs.input_ids.dims[1]);
  await model.dispose();
  return tokenizer.decode(ids, { skip_special_tokens: true });
}

describe('TransformersGenerator decoding loop (tiny random Qwen2)', () => {
  it("writes torch's greedy continuation of the fixture's prompt (fp32)", async () => {
    const tokenizer = await AutoTokenizer.from_pretrained('aerie-tiny-qwen2');
    const reply = await (
      await tiny('fp32')
    ).generate(expected.messages, {
      maxNewTokens: expected.greedyIds.length,
    });
    expect(reply.text).toBe(tokenizer.decode(expected.greedyIds, { skip_special_tokens: true }));
  });

  it("writes, one at a time, exactly what transformers.js's generate writes (fp32, q8, q4)", async () => {
    for (const dtype of ['fp32', 'q8', 'q4'] as const) {
      const generator = await tiny(dtype);
      for (const messages of PROMPTS.slice(0, 3)) {
        const ours = await generator.generate(messages, { maxNewTokens: 40 });
        expect(ours.text, dtype).toBe(await referenceText(dtype, messages, 40));
      }
    }
  });

  it('writes summaries together with exactly the texts they get alone (fp32, q4), in one batch', async () => {
    for (const dtype of ['fp32', 'q4'] as const) {
      const generator = await tiny(dtype);
      const alone = [];
      for (const messages of PROMPTS)
        alone.push((await generator.generate(messages, { maxNewTokens: 48 })).text);
      const counts: number[][] = PROMPTS.map(() => []);
      const together = await Promise.all(
        PROMPTS.map((messages, i) =>
          generator.generate(messages, {
            maxNewTokens: 48,
            batch: true,
            onToken: (n) => counts[i].push(n),
          }),
        ),
      );
      expect(together.map((r) => r.text)).toEqual(alone);
      // Each streamed its own tokens, and the steps were shared: each reply's share is below its wall time.
      expect(counts.every((c) => c.length === 48 && c[47] === 48)).toBe(true);
      for (const r of together) expect(r.timing.decodeShareMs!).toBeLessThan(r.timing.decodeMs);
    }
  });

  it('writes the same texts again for the same batch (q8, whose activations share one scale per batch)', async () => {
    const generator = await tiny('q8');
    const batch = () =>
      Promise.all(PROMPTS.map((m) => generator.generate(m, { maxNewTokens: 32, batch: true })));
    const first = (await batch()).map((r) => r.text);
    expect((await batch()).map((r) => r.text)).toEqual(first);
  });

  it('answers a question while summaries are being written together, and they finish as they would have', async () => {
    const generator = await tiny('fp32');
    const alone = await generator.generate(PROMPTS[0], { maxNewTokens: 60 });
    let written = 0;
    let writtenWhenAnswered = -1;
    let question: Promise<unknown> | undefined;
    const summaries = PROMPTS.map((m, i) =>
      generator.generate(m, {
        maxNewTokens: 60,
        batch: true,
        onToken: (n) => {
          if (i > 0) return;
          written = n;
          if (n === 10) {
            question = generator
              .generate(MESSAGES, { maxNewTokens: 5 })
              .then(() => (writtenWhenAnswered = written));
          }
        },
      }),
    );
    const texts = (await Promise.all(summaries)).map((r) => r.text);
    await question;
    // The question was answered before the batch wrote another token (it waited for the step in progress).
    expect(writtenWhenAnswered).toBe(10);
    expect(texts[0]).toBe(alone.text);
  });
});

/** A FAKE runtime behind QueuedGenerator (llama.cpp's queue): each reply records its turn and ends at once. */
class FakeQueuedGenerator extends QueuedGenerator {
  readonly turns: string[] = [];
  protected async run(messages: readonly ChatMessage[]): Promise<GenerationResult> {
    this.turns.push(messages[0].content);
    await new Promise((resolve) => setTimeout(resolve, 1));
    return {
      text: '',
      promptTokens: 1,
      completionTokens: 1,
      finishReason: 'stop',
      timing: { prefillMs: 1, decodeMs: 0, totalMs: 1 },
    };
  }
}

describe('QueuedGenerator (FAKE runtime)', () => {
  it('writes one reply at a time; a question goes ahead of every waiting summary', async () => {
    const generator = new FakeQueuedGenerator();
    const ask = (content: string, batch?: boolean) =>
      generator.generate([{ role: 'user', content }], { maxNewTokens: 4, ...(batch ? { batch } : {}) });
    await Promise.all([ask('s1', true), ask('s2', true), ask('s3', true), ask('question')]);
    expect(generator.turns).toEqual(['s1', 'question', 's2', 's3']);
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

  it("loads the next weights the model has when an 'auto' dtype's file is missing, and says which were", async () => {
    // The test model has fp32, q8 and q4 files, no q4f16 and no fp16 (what a GPU with shader-f16 asks first).
    const generator = await TransformersGenerator.load({
      model: TINY,
      device: 'cpu',
      dtype: 'q4f16',
      dtypeFallbacks: ['fp16', 'q4', 'fp32'],
    });
    try {
      expect(generator.info).toMatchObject({
        dtype: 'q4',
        dtypeWhy: 'the model has no q4f16 or fp16 weights',
        tag: 'builtin:local:aerie-tiny-qwen2@q4',
      });
    } finally {
      await generator.dispose();
    }
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
