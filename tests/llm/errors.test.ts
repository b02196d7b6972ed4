import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chat,
  LlmError,
  streamChat,
  testConnection,
  type ChatRequest,
  type LlmEndpoint,
} from '../../src/llm';
import { startFakeLlmServer, type FakeLlmServer, type FakeLlmBehaviour } from '../support/llm-server';
import { rejection } from '../support/rejection';

const KEY = 'sk-secret-key-that-must-never-leak-42';
const REQUEST: ChatRequest = {
  messages: [{ role: 'user', content: 'one two three four five six seven' }],
  maxTokens: 20,
};

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer({ apiKey: KEY });
});
afterEach(() => server.close());

function endpoint(protocol: 'openai' | 'anthropic', extra: Partial<LlmEndpoint> = {}): LlmEndpoint {
  const baseUrl = protocol === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
  return {
    protocol,
    baseUrl,
    apiKey: KEY,
    model: 'fake-model',
    retryBaseDelayMs: 1,
    maxRetries: 1,
    ...extra,
  };
}

const failure = (promise: Promise<unknown>) => rejection(promise, LlmError);

/** Everything of an error a user, a log or a bug report could see. */
function visible(error: LlmError): string {
  return JSON.stringify({
    message: error.message,
    details: error.details,
    stack: error.stack,
    text: String(error),
  });
}

describe('typed errors from the fake LLM server', () => {
  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`401 for a wrong key says to check the key and never shows either key (${protocol})`, async () => {
      const wrongKey = 'sk-wrong-but-still-secret-77';
      const error = await failure(chat(endpoint(protocol, { apiKey: wrongKey }), REQUEST));
      expect(error.code).toBe('AUTH');
      expect(error.details.status).toBe(401);
      expect(error.message).toMatch(/rejected the API key/);
      // The fake echoes the wrong key in its message, as real servers echo part of it.
      expect(error.details.serverMessage).toContain('[redacted]');
      expect(visible(error)).not.toContain(wrongKey);
      expect(visible(error)).not.toContain(KEY);
      expect(server.modelRequests).toHaveLength(1); // not retried
    });

    it(`404 for an unknown model names the model and the URL (${protocol})`, async () => {
      const error = await failure(chat(endpoint(protocol, { model: 'no-such-model' }), REQUEST));
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toContain('"no-such-model"');
      expect(error.message).toContain(protocol === 'openai' ? '/v1/chat/completions' : '/v1/messages');
      expect(error.message).toMatch(/base URL/);
      expect(error.details).toMatchObject({ status: 404, model: 'no-such-model' });
    });

    it(`400 for a prompt beyond the context window becomes CONTEXT_TOO_LONG (${protocol})`, async () => {
      server.configure({ contextLimit: 5 });
      const error = await failure(streamChat(endpoint(protocol), REQUEST));
      expect(error.code).toBe('CONTEXT_TOO_LONG');
      expect(error.message).toMatch(/context window of model "fake-model"/);
      expect(error.details.status).toBe(400);
      expect(server.modelRequests).toHaveLength(1);
    });
  }

  it('401 without a key asks for one', async () => {
    const error = await failure(chat(endpoint('openai', { apiKey: undefined }), REQUEST));
    expect(error.code).toBe('AUTH');
    expect(error.message).toMatch(/requires an API key/);
  });

  it('a 404 for a wrong base URL suggests the usual /v1 form', async () => {
    const error = await failure(chat(endpoint('openai', { baseUrl: server.url }), REQUEST));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain(`${server.url}/chat/completions`);
    expect(error.message).toMatch(/localhost:11434\/v1/);
  });

  it('malformed, incomplete, HTML and empty replies are typed errors', async () => {
    const cases: [FakeLlmBehaviour, string, RegExp][] = [
      [{ kind: 'malformed' }, 'BAD_RESPONSE', /not JSON/],
      [{ kind: 'raw', body: '{"id": "x"}' }, 'BAD_RESPONSE', /no choices/],
      [{ kind: 'raw', body: '{"choices": [{"message": {"content": 42}}]}' }, 'BAD_RESPONSE', /not text/],
      [{ kind: 'raw', body: '<html>web UI</html>', contentType: 'text/html' }, 'BAD_RESPONSE', /HTML page/],
      [{ kind: 'reply', text: '' }, 'EMPTY_RESPONSE', /empty reply/],
    ];
    for (const [behaviour, code, message] of cases) {
      server.enqueue(behaviour);
      const error = await failure(chat(endpoint('openai'), REQUEST));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    }
    server.enqueue({
      kind: 'raw',
      body: 'event: message_start\ndata: {oops\n\n',
      contentType: 'text/event-stream',
    });
    expect((await failure(streamChat(endpoint('anthropic'), REQUEST))).code).toBe('BAD_RESPONSE');
    server.enqueue({ kind: 'raw', body: '{"content": "not blocks"}' });
    expect((await failure(chat(endpoint('anthropic'), REQUEST))).code).toBe('BAD_RESPONSE');
  });

  it('other HTTP errors quote the server, truncated', async () => {
    server.enqueue({ kind: 'error', status: 422, message: `unsupported parameter ${'x'.repeat(1000)}` });
    const error = await failure(chat(endpoint('openai'), REQUEST));
    expect(error.code).toBe('HTTP_ERROR');
    expect(error.message).toContain('HTTP 422: "unsupported parameter xxx');
    expect(String(error.details.serverMessage).length).toBeLessThanOrEqual(301);
  });

  it('an exhausted quota is not retried', async () => {
    server.enqueue({
      kind: 'error',
      status: 429,
      type: 'insufficient_quota',
      message: 'You exceeded your current quota',
    });
    const error = await failure(chat(endpoint('openai', { maxRetries: 3 }), REQUEST));
    expect(error.code).toBe('QUOTA_EXCEEDED');
    expect(server.modelRequests).toHaveLength(1);
  });

  it('an unreachable host explains the server may be down or block CORS, with the fixes', async () => {
    const gone = await startFakeLlmServer();
    const baseUrl = gone.openaiBaseUrl;
    await gone.close(); // nothing listens there any more
    const error = await failure(testConnection({ protocol: 'openai', baseUrl, apiKey: KEY, model: 'm' }));
    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toMatch(/not running/);
    expect(error.message).toMatch(/cross-origin requests/);
    expect(error.message).toMatch(/OLLAMA_ORIGINS=/);
    expect(error.message).toMatch(/LM Studio turn on "Enable CORS"/);
    expect(visible(error)).not.toContain(KEY);
  });

  it('an unreachable host while the browser is offline says so, not CORS', async () => {
    const gone = await startFakeLlmServer();
    const baseUrl = gone.openaiBaseUrl;
    await gone.close();
    vi.stubGlobal('navigator', { onLine: false });
    try {
      const error = await failure(testConnection({ protocol: 'openai', baseUrl, apiKey: KEY, model: 'm' }));
      expect(error.code).toBe('UNREACHABLE');
      expect(error.message).toMatch(
        /^This browser is offline, so the LLM server at http:\/\/127\.0\.0\.1:\d+ could not/,
      );
      expect(error.message).toMatch(/choose the built-in model or no LLM/);
      expect(error.message).not.toMatch(/CORS/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('never puts the key in any error, whatever went wrong', async () => {
    const scripted: FakeLlmBehaviour[] = [
      { kind: 'error', status: 500, message: `crashed while using ${KEY}` },
      { kind: 'error', status: 400, message: `bad key param ${KEY}` },
      { kind: 'raw', body: `not json ${KEY}` },
      { kind: 'hang' },
      { kind: 'reply', text: '' },
    ];
    for (const behaviour of scripted) {
      server.enqueue(behaviour);
      const error = await failure(chat(endpoint('anthropic', { timeoutMs: 200, maxRetries: 0 }), REQUEST));
      expect(visible(error)).not.toContain(KEY);
    }
    const inUrl = await failure(
      chat(endpoint('openai', { baseUrl: `${server.openaiBaseUrl}?key=${KEY}`, model: 'x' }), REQUEST),
    );
    expect(inUrl.code).toBe('NOT_FOUND');
    expect(visible(inUrl)).not.toContain(KEY);
    // …nor in the server's own log.
    expect(JSON.stringify(server.requests)).not.toContain(KEY);
  });
});
