import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chat,
  listModels,
  LlmError,
  streamChat,
  testConnection,
  UsageAccumulator,
  type ChatRequest,
  type LlmEndpoint,
} from '../../src/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';

const KEY = 'sk-chat-test-abcdef123456';
const REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Summarise: the quick brown fox jumps over the lazy dog' },
  ],
  maxTokens: 5,
};

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer({ apiKey: KEY, models: ['fake-model', 'other-model'] });
});
afterEach(() => server.close());

function endpoint(protocol: 'openai' | 'anthropic', extra: Partial<LlmEndpoint> = {}): LlmEndpoint {
  const baseUrl = protocol === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
  return { protocol, baseUrl, apiKey: KEY, model: 'fake-model', retryBaseDelayMs: 5, ...extra };
}

describe('chat and streamChat against the fake LLM server', () => {
  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`returns the whole reply with usage (${protocol})`, async () => {
      const usage = new UsageAccumulator();
      const result = await chat(endpoint(protocol), REQUEST, { usage });
      expect(result.text).toBe('Summarise: the quick brown fox');
      expect(result.model).toBe('fake-model');
      expect(result.finishReason).toBe(protocol === 'openai' ? 'stop' : 'end_turn');
      expect(result.usage).toEqual(server.modelRequests[0].usage);
      expect(usage.snapshot()).toMatchObject({ ...result.usage, requests: 1 });
    });

    it(`streams pieces that add up to the reply, with usage (${protocol})`, async () => {
      const deltas: string[] = [];
      const result = await streamChat(endpoint(protocol), REQUEST, { onDelta: (d) => deltas.push(d) });
      expect(deltas.length).toBeGreaterThan(2);
      expect(deltas.join('')).toBe(result.text);
      expect(result.text).toBe('Summarise: the quick brown fox');
      expect(result.usage).toEqual(server.modelRequests[0].usage);
    });

    it(`reads CRLF event streams (${protocol})`, async () => {
      server.configure({ lineEnding: '\r\n' });
      const result = await streamChat(endpoint(protocol), REQUEST);
      expect(result.text).toBe('Summarise: the quick brown fox');
    });
  }

  it('sends the OpenAI headers and body', async () => {
    await chat(endpoint('openai', { temperature: 0 }), REQUEST);
    const [request] = server.modelRequests;
    expect(request.headers.authorization).toBe('[redacted]'); // present (the fake hides its value)
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({
      model: 'fake-model',
      messages: REQUEST.messages,
      max_tokens: 5,
      temperature: 0,
    });
  });

  it('sends the Anthropic headers and puts system messages top-level', async () => {
    await chat(endpoint('anthropic'), REQUEST);
    const [request] = server.modelRequests;
    expect(request.headers['x-api-key']).toBe('[redacted]');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(request.body).toEqual({
      model: 'fake-model',
      max_tokens: 5,
      system: 'Be brief.',
      messages: [REQUEST.messages[1]],
    });
  });

  it('sends no Authorization header without a key, and max_completion_tokens when asked', async () => {
    server.configure({ apiKey: undefined });
    await chat(endpoint('openai', { apiKey: '  ', maxTokensField: 'max_completion_tokens' }), REQUEST);
    const [request] = server.modelRequests;
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ max_completion_tokens: 5 });
    expect(request.body).not.toHaveProperty('max_tokens');
  });

  it('accepts base URLs with or without a trailing slash or the full path', async () => {
    const root = server.url;
    const openaiUrls = [
      `${root}/v1`,
      `${root}/v1/`,
      `${root}/v1/chat/completions`,
      `${root}/v1/chat/completions/`,
    ];
    for (const baseUrl of openaiUrls) await chat(endpoint('openai', { baseUrl }), REQUEST);
    const anthropicUrls = [root, `${root}/`, `${root}/v1`, `${root}/v1/messages`];
    for (const baseUrl of anthropicUrls) await chat(endpoint('anthropic', { baseUrl }), REQUEST);
    expect(server.modelRequests.map((r) => r.path)).toEqual([
      ...openaiUrls.map(() => '/v1/chat/completions'),
      ...anthropicUrls.map(() => '/v1/messages'),
    ]);
  });

  it('accepts a server that ignores stream: true and answers with JSON', async () => {
    const body = JSON.stringify({
      choices: [{ message: { content: 'whole reply' }, finish_reason: 'stop' }],
    });
    server.enqueue({ kind: 'raw', body });
    const deltas: string[] = [];
    const result = await streamChat(endpoint('openai'), REQUEST, { onDelta: (d) => deltas.push(d) });
    expect(result.text).toBe('whole reply');
    expect(deltas).toEqual(['whole reply']);
  });

  it('counts a reply without usage as unreported', async () => {
    server.enqueue({ kind: 'raw', body: JSON.stringify({ choices: [{ message: { content: 'hi' } }] }) });
    const usage = new UsageAccumulator();
    const result = await chat(endpoint('openai'), REQUEST, { usage });
    expect(result.usage).toBeUndefined();
    expect(usage.snapshot()).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      requests: 1,
      unreported: 1,
    });
  });
});

describe('testConnection and listModels against the fake LLM server', () => {
  it('reports the model and latency of a tiny request', async () => {
    for (const protocol of ['openai', 'anthropic'] as const) {
      const ok = await testConnection(endpoint(protocol));
      expect(ok.ok).toBe(true);
      expect(ok.model).toBe('fake-model');
      expect(ok.latencyMs).toBeGreaterThanOrEqual(0);
    }
    const bodies = server.modelRequests.map((r) => r.body as { max_tokens: number });
    expect(bodies.every((b) => b.max_tokens <= 8)).toBe(true);
  });

  it('throws the typed error without retrying', async () => {
    server.enqueue({ kind: 'error', status: 503 });
    await expect(testConnection(endpoint('openai'))).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    expect(server.modelRequests).toHaveLength(1);
  });

  it('lists the models of both protocols, with no model chosen yet', async () => {
    expect(await listModels(endpoint('openai', { model: '' }))).toEqual(['fake-model', 'other-model']);
    expect(await listModels(endpoint('anthropic'))).toEqual(['fake-model', 'other-model']);
  });
});

describe('endpoint validation', () => {
  it('rejects unusable settings with INVALID_CONFIG before any request, never echoing the key', async () => {
    const bad: Partial<LlmEndpoint>[] = [
      { baseUrl: 'localhost:11434/v1' },
      { baseUrl: 'ftp://example.com' },
      { model: ' ' },
      { apiKey: `${KEY}\nsecond line` },
      { apiKey: `${KEY}é` },
    ];
    for (const extra of bad) {
      const error = await chat(endpoint('openai', extra), REQUEST).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).code).toBe('INVALID_CONFIG');
      expect(
        JSON.stringify({ m: (error as LlmError).message, d: (error as LlmError).details }),
      ).not.toContain(KEY);
    }
    await expect(chat(endpoint('openai'), { ...REQUEST, maxTokens: 0 })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
    expect(server.modelRequests).toHaveLength(0);
  });
});
