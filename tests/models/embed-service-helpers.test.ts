import { describe, expect, it, vi } from 'vitest';
import { createEmbedService, type EmbedHelper, type ModelChoice } from '../../src/models/embed-service';
import { TransformersEmbedder } from '../../src/models/embedder';
import type { EmbeddingBatch } from '../../src/models/rows';

/** A vector per text that says who embedded it: [length of the text, worker number]. */
function vectors(texts: string[], worker: number): EmbeddingBatch {
  const data = new Float32Array(texts.length * 2);
  texts.forEach((t, i) => data.set([t.length, worker], i * 2));
  return { data, dim: 2 };
}

/** A fake CPU (WASM) embedder standing in for the worker's own model. */
function fakeWasmEmbedder(): TransformersEmbedder {
  return {
    info: { model: 'local:fake', dtype: 'q8', device: 'wasm', dim: 2, threads: 1 },
    embed: async (texts: string[]) => vectors(texts, 0),
    batches: (texts: readonly string[], size = 16) => {
      const out: number[][] = [];
      for (let s = 0; s < texts.length; s += size) out.push(texts.slice(s, s + size).map((_, i) => s + i));
      return out;
    },
    tokenCounts: async (texts: string[]) => texts.map((t) => t.length),
    dispose: async () => undefined,
  } as unknown as TransformersEmbedder;
}

/** A fake helper whose load ends when the test says so. */
function fakeHelper() {
  let finish!: () => void;
  const loaded = new Promise<void>((resolve) => (finish = resolve));
  const helper: EmbedHelper & { embedded: number } = {
    embedded: 0,
    load: () => loaded,
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
    } finally {
      loads.mockRestore();
    }
  });
});
