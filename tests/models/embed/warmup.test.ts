import { env } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID, OFFLINE_MODEL_ID } from '../../../src/models/embed/embedding-presets';
import { HUB_HOST, MODEL_CACHE_NAME } from '../../../src/models/files';
import { warmupPlan } from '../../../src/models/embed/warmup';

describe('warmupPlan', () => {
  it('loads a model the app serves itself without condition', () => {
    expect(warmupPlan({ model: OFFLINE_MODEL_ID })).toEqual({ kind: 'local' });
    expect(warmupPlan({ model: 'local:minilm-random', dtype: 'fp32' })).toEqual({ kind: 'local' });
  });

  it('never loads an endpoint model', () => {
    expect(warmupPlan({ model: 'openai:text-embedding-3-small' })).toEqual({ kind: 'never' });
  });

  it('loads a hub model only from the cache, checking the URLs transformers.js caches its files under', () => {
    // transformers.js keys its Cache Storage entries by remote URL: {remoteHost}{repo}/resolve/{revision}/{file}.
    const base = `https://huggingface.co/${DEFAULT_MODEL_ID}/resolve/main/`;
    expect(warmupPlan({ model: DEFAULT_MODEL_ID, dtype: 'q8' })).toEqual({
      kind: 'if-cached',
      urls: [`${base}config.json`, `${base}tokenizer.json`, `${base}onnx/model_quantized.onnx`],
      otherwise: { model: OFFLINE_MODEL_ID, dtype: 'q8' },
    });
    // q8 is the default precision; fp32 reads the unquantised weights.
    expect(warmupPlan({ model: DEFAULT_MODEL_ID })).toEqual(
      warmupPlan({ model: DEFAULT_MODEL_ID, dtype: 'q8' }),
    );
    const fp32 = warmupPlan({ model: 'Xenova/all-MiniLM-L6-v2', dtype: 'fp32' });
    expect(fp32.kind === 'if-cached' && fp32.urls[2]).toBe(
      'https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model.onnx',
    );
  });

  it('warms the offline model, on the chosen device, when a hub model is not cached (the fallback without network)', () => {
    const plan = warmupPlan({ model: DEFAULT_MODEL_ID, dtype: 'fp32', device: 'wasm' });
    expect(plan.kind === 'if-cached' && plan.otherwise).toEqual({
      model: OFFLINE_MODEL_ID,
      dtype: 'q8',
      device: 'wasm',
    });
  });

  it('names the host, path and cache transformers.js itself uses (a library update that moves them fails here)', () => {
    expect(env.remoteHost).toBe(HUB_HOST);
    expect(env.remotePathTemplate).toBe('{model}/resolve/{revision}/');
    expect(env.cacheKey).toBe(MODEL_CACHE_NAME);
  });
});
