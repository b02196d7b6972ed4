/** Which model each cached file belongs to, and when models were last used (cached-files.ts, model-use.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  groupCachedFiles,
  modelKey,
  modelOfUrl,
  forgetModelUse,
  noteModelUse,
  readModelUse,
} from '../../../src/models/files';
import { fakeCacheStorage } from '../../support/fake-cache-storage';

const ORIGIN = 'https://aerie.example';

describe('cached models', () => {
  it('a file belongs to its hub repository or to the app’s model folder; anything else to no model', () => {
    expect(modelOfUrl('https://huggingface.co/Xenova/multi-qa/resolve/main/onnx/model.onnx', ORIGIN)).toEqual(
      {
        id: 'Xenova/multi-qa',
        source: 'hub',
      },
    );
    expect(modelOfUrl(`${ORIGIN}/models/aerie-glove-100d/config.json`, ORIGIN)).toEqual({
      id: 'local:aerie-glove-100d',
      source: 'app',
    });
    expect(modelOfUrl('https://huggingface.co/api/models/x', ORIGIN)).toBeUndefined();
    expect(modelOfUrl(`https://other.example/models/x/config.json`, ORIGIN)).toBeUndefined();
    expect(modelOfUrl('not a url', ORIGIN)).toBeUndefined();
  });

  it('every way of naming a model gives the key its files are grouped under', () => {
    expect(modelKey('Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf')).toBe(
      'Qwen/Qwen2.5-0.5B-Instruct-GGUF',
    );
    expect(modelKey('local:aerie-tiny-qwen2/aerie-tiny-qwen2-q8_0.gguf')).toBe('local:aerie-tiny-qwen2');
    expect(modelKey('local:aerie-glove-100d')).toBe('local:aerie-glove-100d');
    expect(modelKey('Xenova/multi-qa-MiniLM-L6-cos-v1')).toBe('Xenova/multi-qa-MiniLM-L6-cos-v1');
  });

  it('groups files by model with their total size, largest first, with last use where known', () => {
    const hub = (file: string, bytes: number) => ({
      cache: 'transformers-cache',
      url: `https://huggingface.co/Xenova/m/resolve/main/${file}`,
      bytes,
    });
    const models = groupCachedFiles(
      [
        hub('config.json', 1_000),
        { cache: 'transformers-cache', url: `${ORIGIN}/models/glove/tokenizer.json`, bytes: 700_000 },
        hub('onnx/model_quantized.onnx', 23_000_000),
        { cache: 'aerie-gguf-v1', url: 'https://huggingface.co/Q/g/resolve/main/m.gguf', bytes: 5_000 },
      ],
      ORIGIN,
      { 'Xenova/m': 1_700_000_000_000 },
    );
    expect(models.map((m) => [m.id, m.source, m.bytes, m.files.length, m.lastUsed])).toEqual([
      ['Xenova/m', 'hub', 23_001_000, 2, 1_700_000_000_000],
      ['local:glove', 'app', 700_000, 1, undefined],
      ['Q/g', 'hub', 5_000, 1, undefined],
    ]);
  });
});

describe('model use records (with a FAKE Cache Storage)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('notes each model under its key, at most once a minute, and forgets it when its files are deleted', async () => {
    const store = fakeCacheStorage();
    vi.stubGlobal('caches', store);
    vi.stubGlobal('location', { origin: ORIGIN });
    noteModelUse('Qwen/G/file-q8_0.gguf', 1_000_000);
    noteModelUse('local:aerie-glove-100d', 1_000_000);
    noteModelUse('Qwen/G/other.gguf', 1_030_000); // the same key within a minute: not written again
    await vi.waitFor(async () => expect(Object.keys(await readModelUse(store))).toHaveLength(2));
    expect(await readModelUse(store)).toEqual({ 'Qwen/G': 1_000_000, 'local:aerie-glove-100d': 1_000_000 });
    noteModelUse('Qwen/G', 1_070_000);
    await vi.waitFor(async () => expect((await readModelUse(store))['Qwen/G']).toBe(1_070_000));
    await forgetModelUse('Qwen/G', store);
    expect(await readModelUse(store)).toEqual({ 'local:aerie-glove-100d': 1_000_000 });
  });

  it('reads nothing and notes nothing where there is no Cache Storage', async () => {
    expect(await readModelUse(undefined)).toEqual({});
    expect(() => noteModelUse('x/y')).not.toThrow();
  });
});
