/**
 * The generate service (what workers/generate.worker.ts exposes) in Node with the tiny random Qwen2: device and
 * dtype choice, download progress, one loaded model shared by its clients, cancellation by request id, the
 * measured warm-up, and the client (`connectGenerator`) across a real MessageChannel with comlink, as the page and
 * the build worker reach it.
 */
import '../../../src/rpc/errors';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { wrap } from 'comlink';
import { describe, expect, it } from 'vitest';
import type { ModelLoadProgress } from '../../../src/models/files';
import { connectGenerator } from '../../../src/models/generate/generate-client';
import {
  createGenerateService,
  type GenerateApi,
  DEFAULT_CPU_BATCH_SIZE,
} from '../../../src/models/generate';
import { CPU_PRESET_ID, GPU_PRESET_ID } from '../../../src/models/generate/generator-presets';
import type { ChatMessage } from '../../../src/core/chat';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const TINY = 'local:aerie-tiny-qwen2';
const NO_GPU = async () => ({ adapter: false, f16: false, fallback: false, name: '' });
const MESSAGES: ChatMessage[] = [{ role: 'user', content: 'Who lost a glass slipper?' }];
const SAMPLE =
  'Cinderella lost her glass slipper on the palace stairs as the clock struck twelve, and the prince ' +
  'searched the whole kingdom for the girl whose foot it would fit.';

function service() {
  return createGenerateService({ localModelPath: MODELS }, { probeGpu: NO_GPU });
}

describe('generate service', () => {
  it('tells the device what it offers and which preset suits it', async () => {
    expect(await service().probe()).toEqual({
      adapter: false,
      f16: false,
      fallback: false,
      name: '',
      defaultModel: CPU_PRESET_ID,
    });
    const gpu = createGenerateService(
      { localModelPath: MODELS },
      { probeGpu: async () => ({ adapter: true, f16: true, fallback: false, name: 'test gpu' }) },
    );
    expect((await gpu.probe()).defaultModel).toBe(GPU_PRESET_ID);
  });

  it('loads with per-file progress, settles device and dtype, and keeps one model for every call', async () => {
    const generate = service();
    const events: ModelLoadProgress[] = [];
    const info = await generate.load({ model: TINY }, (p) => events.push(p));
    // In Node the device is ONNX Runtime's CPU; a model that is no preset gets q8 there, as on WASM.
    expect(info).toMatchObject({ model: TINY, device: 'cpu', dtype: 'q8' });
    expect(events.some((e) => e.file === 'onnx/model_quantized.onnx' && e.status === 'done')).toBe(true);
    const again: ModelLoadProgress[] = [];
    await generate.load({ model: TINY, device: 'cpu', dtype: 'q8' }, (p) => again.push(p));
    expect(again).toEqual([]);
    expect(await generate.info()).toEqual(info);
  });

  it('runs ONNX models on ONNX Runtime, and refuses a GGUF file where llama.cpp cannot run (Node)', async () => {
    const generate = service();
    expect((await generate.load({ model: TINY })).runtime).toBe('onnx');
    const gguf = 'local:aerie-tiny-qwen2/aerie-tiny-qwen2-q8_0.gguf';
    await expect(generate.load({ model: gguf })).rejects.toMatchObject({
      code: 'NO_LLAMA_CPP',
      message: expect.stringContaining('runs only in a browser'),
    });
    // The failed load is forgotten: the ONNX model loads again.
    expect((await generate.load({ model: TINY })).runtime).toBe('onnx');
  });

  it('forgets a failed load so the next call retries', async () => {
    const generate = service();
    await expect(generate.load({ model: 'local:no-such-model' })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    expect(await generate.info()).toBeUndefined();
    expect((await generate.load({ model: TINY })).model).toBe(TINY);
  });

  it('cancels the calls of one request id, and only while they run', async () => {
    const generate = service();
    generate.cancel('answer-1'); // nothing running: must not poison the next call
    const first = await generate.generate(
      MESSAGES,
      { model: TINY },
      { maxNewTokens: 3, requestId: 'answer-1' },
    );
    expect(first.completionTokens).toBe(3);
    const pieces: string[] = [];
    const pending = generate.generate(
      MESSAGES,
      { model: TINY },
      { maxNewTokens: 500, requestId: 'answer-2' },
      (delta) => pieces.push(delta),
      (n) => {
        if (n === 5) generate.cancel('answer-2');
      },
    );
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const load = generate.load({ model: TINY, dtype: 'fp32' }, undefined, 'load-1');
    generate.cancel('load-1');
    await expect(load).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('measures prompt processing and generation speed with a short warm-up, alone and batched', async () => {
    const sample = await service().measureSpeed({ model: TINY }, { sampleText: SAMPLE, newTokens: 8 });
    // Half the new tokens by the one reply (its first token comes with the prompt), half by a batch.
    expect(sample.completionTokens).toBe(5);
    expect(sample.batch.rows).toBe(DEFAULT_CPU_BATCH_SIZE);
    expect(sample.batch.decodeTokensPerSecond).toBeGreaterThan(0);
    expect(sample.promptTokens).toBeGreaterThan(30);
    expect(sample.prefillTokensPerSecond).toBeGreaterThan(0);
    expect(sample.decodeTokensPerSecond).toBeGreaterThan(0);
    // The tiny model's 2,048-token vocabulary cuts English into more pieces than cl100k's 100k.
    expect(sample.modelTokensPerToken).toBeGreaterThan(1);
    expect(sample.seconds).toBeGreaterThan(0);
    // Where it ran (Node's native ONNX Runtime here): the estimate says so.
    expect(sample.placement).toEqual({ device: 'cpu' });
  });

  it('measures one reply at a time where the model writes one at a time', async () => {
    const lone = createGenerateService(
      { localModelPath: MODELS, generationBatchSize: 1 },
      { probeGpu: NO_GPU },
    );
    const sample = await lone.measureSpeed({ model: TINY }, { sampleText: SAMPLE, newTokens: 8 });
    expect(sample.completionTokens).toBe(8);
    expect(sample.batch).toEqual({ rows: 1, decodeTokensPerSecond: sample.decodeTokensPerSecond });
    await lone.unload();
  });
});

describe('connectGenerator across a MessageChannel (comlink, as between workers)', () => {
  it('streams text, keeps error codes and cancels through the port', async () => {
    const generate = service();
    const { port1, port2 } = new MessageChannel();
    generate.connect(port1 as unknown as MessagePort);
    const remote = wrap<GenerateApi>(port2 as unknown as MessagePort);
    try {
      const generator = await connectGenerator(remote, { model: TINY });
      expect(generator.info.tag).toBe('builtin:local:aerie-tiny-qwen2@q8');
      const deltas: string[] = [];
      const reply = await generator.generate(MESSAGES, { maxNewTokens: 12, onText: (d) => deltas.push(d) });
      expect(reply.completionTokens).toBe(12);
      expect(deltas.join('')).toBe(reply.text);

      const controller = new AbortController();
      const pending = generator.generate(MESSAGES, {
        maxNewTokens: 2000,
        signal: controller.signal,
        onText: () => controller.abort(),
      });
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

      await expect(
        remote.generate(MESSAGES, { model: TINY }, { maxNewTokens: 100000 }),
      ).rejects.toMatchObject({ name: 'GeneratorError', code: 'CONTEXT_TOO_LONG' });
      await expect(connectGenerator(remote, { model: 'local:aerie-tiny-random' })).rejects.toMatchObject({
        code: 'NOT_TEXT_GENERATION',
      });
    } finally {
      port1.close();
      port2.close();
    }
  });
});
