import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiEmbedder, LlmError, type LlmEndpoint } from '../../src/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';

const TEXTS = [
  'the glass slipper',
  'a pumpkin coach',
  'midnight strikes',
  'the prince searches',
  'a happy ending',
];

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer({ models: ['fake-embedder'], embeddingDim: 12 });
});
afterEach(() => server.close());

function endpoint(extra: Partial<LlmEndpoint> = {}): LlmEndpoint {
  return {
    protocol: 'openai',
    baseUrl: server.openaiBaseUrl,
    model: 'fake-embedder',
    retryBaseDelayMs: 1,
    ...extra,
  };
}

describe('createOpenAiEmbedder against the fake LLM server', () => {
  it('batches the texts and returns one vector per text, in input order', async () => {
    const embed = createOpenAiEmbedder(endpoint(), { batchSize: 2 });
    const vectors = await embed(TEXTS);
    expect(vectors).toHaveLength(5);
    expect(vectors.every((v) => v instanceof Float32Array && v.length === 12)).toBe(true);
    const inputs = server.modelRequests.map((r) => (r.body as { input: string[] }).input);
    expect(inputs.flat().sort()).toEqual([...TEXTS].sort());
    expect(inputs.map((i) => i.length).sort()).toEqual([1, 2, 2]);
    expect(server.modelRequests.every((r) => r.path === '/v1/embeddings')).toBe(true);
    // The fake returns each batch in reverse; one text at a time shows which vector belongs to which text.
    for (let i = 0; i < TEXTS.length; i++) expect((await embed([TEXTS[i]]))[0]).toEqual(vectors[i]);
    expect(embed.usage.requests).toBe(3 + TEXTS.length);
    expect(embed.usage.promptTokens).toBe(TEXTS.join(' ').split(' ').length * 2);
  });

  it('sends dimensions when set and returns [] for no texts without a request', async () => {
    const embed = createOpenAiEmbedder(endpoint(), { dimensions: 4 });
    expect(await embed([])).toEqual([]);
    expect(server.modelRequests).toHaveLength(0);
    const [v] = await embed(['one']);
    expect(v).toHaveLength(4);
    expect(server.modelRequests[0].body).toMatchObject({ model: 'fake-embedder', dimensions: 4 });
  });

  it('rejects replies whose count, indices or lengths do not fit', async () => {
    const embed = createOpenAiEmbedder(endpoint());
    server.enqueue({ kind: 'raw', body: JSON.stringify({ data: [{ index: 0, embedding: [1, 2] }] }) });
    await expect(embed(['a', 'b'])).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    const sameIndex = {
      data: [
        { index: 0, embedding: [1] },
        { index: 0, embedding: [2] },
      ],
    };
    server.enqueue({ kind: 'raw', body: JSON.stringify(sameIndex) });
    await expect(embed(['a', 'b'])).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    const mixed = {
      data: [
        { index: 0, embedding: [1, 2, 3] },
        { index: 1, embedding: [1, 2] },
      ],
    };
    server.enqueue({ kind: 'raw', body: JSON.stringify(mixed) });
    const error = await embed(['a', 'b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).details).toMatchObject({ expected: 3, actual: 2 });
    expect((error as LlmError).message).toMatch(/2 dimensions where 3 were expected/);
  });

  it('stops the other batches when one fails', async () => {
    server.configure({ latencyMs: 50 });
    server.enqueue({ kind: 'error', status: 400, message: 'bad input' });
    const embed = createOpenAiEmbedder(endpoint({ maxConcurrency: 1 }), { batchSize: 1 });
    await expect(embed(TEXTS)).rejects.toMatchObject({ code: 'HTTP_ERROR' });
    await new Promise((r) => setTimeout(r, 150));
    expect(server.modelRequests).toHaveLength(1);
  });

  it('refuses an Anthropic endpoint, which has no embeddings API', () => {
    expect(() => createOpenAiEmbedder({ protocol: 'anthropic', baseUrl: server.url, model: 'm' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });
});
