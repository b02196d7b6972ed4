/**
 * Model ids keep to their form (issue 34, point 6): `local:` ids stay inside the app's models folder, hub ids are
 * owner/name[/file.gguf], ids have a length limit, and no message quotes the id (it may hold a secret). The
 * loaders refuse such an id before any file is fetched (here in Node: transformers.js is never reached).
 */
import { describe, expect, it } from 'vitest';
import { checkModelId, MAX_MODEL_ID_CHARS, modelIdProblem } from '../../../src/models/files';
import { TransformersEmbedder, CrossEncoder } from '../../../src/models/embed';
import { createGenerateService } from '../../../src/models/generate';
import { OFFLINE_MODEL_ID, EMBEDDING_PRESETS } from '../../../src/models/embed/embedding-presets';
import {
  GENERATOR_PRESETS,
  TEST_GENERATOR_ID,
  TEST_GGUF_GENERATOR_ID,
} from '../../../src/models/generate/generator-presets';
import { DEFAULT_RERANKER_ID, TEST_RERANKER_ID } from '../../../src/models/embed/reranker-presets';

const SECRET = 'hunter2-s3cret';

describe('modelIdProblem', () => {
  it('accepts every model the app offers, and hub and local ids of the documented forms', () => {
    const ids = [
      ...EMBEDDING_PRESETS.map((p) => p.id),
      ...GENERATOR_PRESETS.map((p) => p.id),
      DEFAULT_RERANKER_ID,
      TEST_RERANKER_ID,
      OFFLINE_MODEL_ID,
      'Xenova/bge-small-en-v1.5',
      'onnx-community/Qwen2.5-0.5B-Instruct',
      'local:aerie-glove-100d',
      'local:org/model',
    ];
    for (const id of ids) expect(modelIdProblem(id), id).toBeUndefined();
    for (const id of [
      TEST_GENERATOR_ID,
      TEST_GGUF_GENERATOR_ID,
      'Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf',
      'owner/repo/sub/folder/model-Q4_K_M.gguf',
    ]) {
      expect(modelIdProblem(id, { gguf: true }), id).toBeUndefined();
    }
    expect(modelIdProblem('openai:text-embedding-3-small', { endpoint: true })).toBeUndefined();
  });

  it.each([
    ['local:../../etc/passwd', /inside the app’s models folder: no “\.\.”/],
    ['local:..', /no “\.\.”/],
    ['local:/etc/passwd', /no leading “\/”/],
    ['local:a//b', /empty parts/],
    ['local:%2e%2e/%2e%2e/assets', /no %-escapes \(such as %2e\)/],
    ['local:%2E%2E', /no %-escapes/],
    ['local:..\\..\\windows', /never “\\”/],
    ['local:a/b/c/d', /local:<folder>/],
    ['local:.hidden', /local:<folder>/],
    ['local:https://evil.example/m', /not a web address/],
    ['https://huggingface.co/Xenova/x', /not a web address/],
    ['file:///etc/passwd', /not a web address/],
    ['javascript:alert(1)', /not a web address/],
    ['data:text/plain,x', /not a web address/],
    ['Xenova', /the form owner\/name/],
    ['a/b/c', /the form owner\/name/],
    ['Xenova/../x', /the form owner\/name/],
    ['-bad/name', /do not start or end with/],
    ['owner/na--me', /hold no “--”/],
    ['owner/name?revision=x', /no “\?” or “#”/],
    ['owner/name#x', /no “\?” or “#”/],
    ['owner/ name', /no spaces/],
    ['owner/name\u200b', /invisible characters/],
    ['owner:x/name', /no “:”/],
    ['openai:text-embedding-3-small', /choose “Embeddings endpoint”/],
    ['owner/repo/file.gguf', /GGUF files run only as the built-in model/],
  ])('refuses %j, saying what is wrong', (id, message) => {
    expect(modelIdProblem(id)).toMatch(message);
  });

  it('bounds the length, and says by how much without quoting the id', () => {
    const long = `Xenova/${'a'.repeat(10_000)}`;
    expect(modelIdProblem(long)).toBe(
      `A model id has at most ${MAX_MODEL_ID_CHARS} characters; this one has 10,007.`,
    );
    expect(modelIdProblem(`owner/${'n'.repeat(97)}`)).toMatch(/at most 96 characters/);
  });

  it('refuses ids that hold a password or a key, and never echoes them', () => {
    for (const id of [
      `user:${SECRET}@huggingface.co/Xenova/x`,
      `Xenova/x@${SECRET}`,
      'hf_abcdefghijklmnopqrstuvwxyz012345',
      'Xenova/sk-proj-abcdefghijklmnopqrstuv',
    ]) {
      const problem = modelIdProblem(id);
      expect(problem, id).toBeDefined();
      expect(problem).not.toContain(SECRET);
      expect(problem).not.toContain('abcdefghij');
    }
    expect(modelIdProblem('hf_abcdefghijklmnopqrstuvwxyz012345')).toMatch(/looks like an access token/);
    expect(() => checkModelId(`local:../${SECRET}`, 'reranker model')).toThrow(
      /^The reranker model cannot be loaded: A local: model names a folder/,
    );
    try {
      checkModelId(`local:../${SECRET}`, 'reranker model');
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain(SECRET);
      expect((error as Error).message).not.toContain(SECRET);
    }
  });
});

describe('the loaders refuse a bad id before fetching anything', () => {
  it('embedding model and reranker', async () => {
    await expect(TransformersEmbedder.load('local:../../etc/passwd')).rejects.toMatchObject({
      code: 'INVALID_MODEL_ID',
      message: expect.stringMatching(/^The embedding model cannot be loaded: A local: model names a folder/),
    });
    await expect(CrossEncoder.load('local:%2e%2e/%2e%2e/assets')).rejects.toMatchObject({
      code: 'INVALID_MODEL_ID',
      message: expect.stringMatching(/^The reranker model cannot be loaded: A model id holds no %-escapes/),
    });
    await expect(CrossEncoder.load(`Xenova/${'x'.repeat(10_000)}`)).rejects.toMatchObject({
      code: 'INVALID_MODEL_ID',
    });
  });

  it('the built-in model, on either runtime', async () => {
    const service = createGenerateService(
      { localModelPath: '/nowhere/' },
      { probeGpu: async () => ({ adapter: false, f16: false, fallback: false, name: '' }) },
    );
    for (const model of ['local:../../etc/passwd', `https://user:${SECRET}@evil.example/m.gguf`]) {
      const error = await service
        .load({ model, device: 'wasm', dtype: 'q8' } as never)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INVALID_MODEL_ID' });
      expect((error as Error).message).toMatch(/^The built-in model cannot be loaded: /);
      expect((error as Error).message).not.toContain(SECRET);
    }
  });
});
