import { describe, expect, it, vi } from 'vitest';
import {
  createEmbedService,
  type EmbedHelper,
  type ModelChoice,
  TransformersEmbedder,
} from '../../../src/models/embed';
import type { EmbeddingBatch } from '../../../src/models/embed';

/** A vector per text that says who embedded it: [length of the text, worker number]. */
function vectors(texts: string[], worker: number): EmbeddingBatch {
  const data = new Float32Array(texts.length * 2);
  texts.forEach((t, i) => data.set([t.length, worker], i * 2));
  return { data, dim: 2 };
}

/** A fake CPU (WASM) embedder standing in for the worker's own model. */
function fakeWasmEmbedder(): TransformersEmbedder & { forgotten: number } {
  const fake = {
    forgotten: 0,
    info: {
      model: 'local:fake',
      dtype: 'q8',
      device: 'wasm',
      dim: 2,
      threads: 1,
      placement: { device: 'wasm', threads: 1, isolated: true },
    },
    embed: async (texts: string[]) => vectors(texts, 0),
    batches: (texts: readonly string[], size = 16) => {
      const out: number[][] = [];
      for (let s = 0; s < texts.length; s += size) out.push(texts.slice(s, s + size).map((_, i) => s + i));
      return out;
    },
    tokenCounts: async (texts: string[]) => texts.map((t) => t.length),
    forgetTexts: () => (fake.forgotten += 1),
    textMemory: () => ({ texts: 0, words: 0 }),
    dispose: async () => undefined,
  } as unknown as TransformersEmbedder & { forgotten: number };
  return fake;
}

/** A fake helper whose load ends when the test says so. */
function fakeHelper() {
  let finish!: () => void;
  const loaded = new Promise<void>((resolve) => (finish = resolve));
  const helper: EmbedHelper & { embedded: number; forgotten: number } = {
    embedded: 0,
    forgotten: 0,
    load: () => loaded,
    forget: async () => (helper.forgotten += 1),
    embed: async (texts) => {
      helper.embedded += texts.length;
      return vectors(texts, 1);
    },
  };
  return { helper, finish };
}

const CHOICE: ModelChoice = { model: 'local:fake', dtype: 'q8', device: 'wasm' };
const TEXTS = Array.from({ length: 64 }, (_, i) => `text number ${i}`);

describe('embedding service with helper workers (fake embedders)', () => {
  it("load waits for the helpers by default, but with helpers: 'background' only for its own model", async () => {
    const loads = vi.spyOn(TransformersEmbedder, 'load').mockResolvedValue(fakeWasmEmbedder());
    try {
      const { helper, finish } = fakeHelper();
      const service = createEmbedService({ localModelPath: '/models/' }, false, () => [helper]);
      let waited = false;
      const waiting = service.load(CHOICE).then(() => (waited = true));
      const info = await service.load(CHOICE, undefined, { helpers: 'background' });
      expect(info.device).toBe('wasm');
      // The helper has not loaded: the default load is still waiting for it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(waited).toBe(false);
      finish();
      await waiting;
      expect(waited).toBe(true);
    } finally {
      loads.mockRestore();
    }
  });

  it('a helper still loading takes no batch; once loaded it shares the next call, and the vectors are in text order', async () => {
    const loads = vi.spyOn(TransformersEmbedder, 'load').mockResolvedValue(fakeWasmEmbedder());
    try {
      const { helper, finish } = fakeHelper();
      const service = createEmbedService({ localModelPath: '/models/' }, false, () => [helper]);
      await service.load(CHOICE, undefined, { helpers: 'background' });
      const first = await service.embed(TEXTS, CHOICE, { batchSize: 4 });
      expect(helper.embedded).toBe(0);
      finish();
      const second = await service.embed(TEXTS, CHOICE, { batchSize: 4 });
      expect(helper.embedded).toBeGreaterThan(0);
      for (const batch of [first, second]) TEXTS.forEach((t, i) => expect(batch.data[i * 2]).toBe(t.length));
      // Some rows came from the helper (worker 1), the rest from the service's own model.
      const workers = new Set(Array.from({ length: TEXTS.length }, (_, i) => second.data[i * 2 + 1]));
      expect(workers).toEqual(new Set([0, 1]));
      // Every text is counted once, on the CPU, whichever worker embedded it.
      expect(second.ranOn).toEqual([
        { placement: { device: 'wasm', threads: 1, isolated: true }, count: TEXTS.length },
      ]);
    } finally {
      loads.mockRestore();
    }
  });

  it('forget reaches the loaded model and every helper; before a model loads it forgets nothing and fails nothing', async () => {
    const model = fakeWasmEmbedder();
    const loads = vi.spyOn(TransformersEmbedder, 'load').mockResolvedValue(model);
    try {
      const { helper, finish } = fakeHelper();
      const service = createEmbedService({ localModelPath: '/models/' }, false, () => [helper]);
      await service.forget();
      expect(helper.forgotten).toBe(0);
      finish();
      await service.load(CHOICE);
      await service.embed(TEXTS, CHOICE, { batchSize: 4 });
      await service.forget();
      expect(model.forgotten).toBe(1);
      expect(helper.forgotten).toBe(1);
    } finally {
      loads.mockRestore();
    }
  });
});

describe('embedding service leaving WebGPU mid-call (fake embedders)', () => {
  /** A fake model on `device` whose vectors say which device made them; the GPU one fails after `gpuBatches`. */
  function fakeModel(device: 'webgpu' | 'wasm', gpuBatches = Infinity) {
    let batches = 0;
    const base = fakeWasmEmbedder();
    const placement =
      device === 'webgpu' ? { device, adapter: 'fake gpu' } : { device, threads: 2, isolated: true as const };
    const model = {
      ...base,
      info: { ...base.info, device, dtype: 'fp32', placement },
      embed: async (texts: string[]) => {
        if (++batches > gpuBatches) throw new Error('GPUDevice was lost: destroyed');
        return vectors(texts, device === 'webgpu' ? 7 : 8);
      },
      withFallback(fallback: unknown) {
        Object.assign(model.info, { fallback });
        return model;
      },
    };
    return model as unknown as TransformersEmbedder;
  }

  it('goes on on the CPU from the batch that failed, with the same weights; every text embedded once', async () => {
    const loads = vi
      .spyOn(TransformersEmbedder, 'load')
      .mockResolvedValueOnce(fakeModel('webgpu', 2))
      .mockResolvedValueOnce(fakeModel('wasm'));
    try {
      const service = createEmbedService({ localModelPath: '/models/' }, false);
      const choice: ModelChoice = { model: 'local:fake', dtype: 'fp32', device: 'wasm' };
      const batch = await service.embed(TEXTS, choice, { batchSize: 16 });
      // The second load is the CPU copy: same model, same weights.
      expect(loads.mock.calls[1]).toEqual(['local:fake', { dtype: 'fp32', device: 'wasm' }]);
      const makers = Array.from({ length: TEXTS.length }, (_, i) => batch.data[i * 2 + 1]);
      expect(makers.filter((m) => m === 7)).toHaveLength(32);
      expect(makers.filter((m) => m === 8)).toHaveLength(32);
      TEXTS.forEach((t, i) => expect(batch.data[i * 2]).toBe(t.length));
      expect(batch.ranOn).toEqual([
        { placement: { device: 'webgpu', adapter: 'fake gpu' }, count: 32 },
        {
          placement: { device: 'wasm', threads: 2, isolated: true },
          count: 32,
          fallback: {
            kind: 'failed',
            message: 'the model failed on WebGPU (the adapter): GPUDevice was lost: destroyed',
          },
        },
      ]);
      // Later calls use the CPU copy; the GPU is not tried again.
      const later = await service.embed(TEXTS.slice(0, 3), choice);
      expect(later.ranOn?.map((u) => u.placement.device)).toEqual(['wasm']);
      expect(loads).toHaveBeenCalledTimes(2);
    } finally {
      loads.mockRestore();
    }
  });
});
