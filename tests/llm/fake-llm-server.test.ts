import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeReply, startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer({ apiKey: 'sk-fake-server-key', cors: 'http://localhost:5173' });
});
afterEach(() => server.close());

describe('the fake LLM server itself', () => {
  it('answers a CORS preflight for the browser headers we send', async () => {
    const response = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization, content-type, anthropic-dangerous-direct-browser-access',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain(
      'anthropic-dangerous-direct-browser-access',
    );
    server.configure({ cors: false });
    const blocked = await fetch(`${server.openaiBaseUrl}/models`);
    expect(blocked.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('can be scripted and inspected over HTTP, and logs headers without secrets', async () => {
    const control = (path: string, body?: unknown) =>
      fetch(`${server.url}/__fake__/${path}`, { method: body ? 'POST' : 'GET', body: JSON.stringify(body) });
    await control('enqueue', [{ kind: 'error', status: 503 }]);
    const post = () =>
      fetch(`${server.openaiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-fake-server-key', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'hello there' }] }),
      });
    expect((await post()).status).toBe(503);
    expect((await post()).status).toBe(200);
    const log = (await (await control('requests')).json()) as {
      requests: { status: number; headers: object }[];
    };
    expect(log.requests.map((r) => r.status)).toEqual([503, 200]);
    expect(JSON.stringify(log)).not.toContain('sk-fake-server-key');
    await control('reset', {});
    expect(server.requests).toHaveLength(0);
  });

  it('holds every model reply while `hold` is set and releases them all when it is cleared', async () => {
    server.configure({ hold: true });
    const post = () =>
      fetch(`${server.openaiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-fake-server-key', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'hello there' }] }),
      });
    let answered = 0;
    const replies = [post(), post()].map((p) => p.then((r) => (answered++, r)));
    await expect.poll(() => server.inFlight).toBe(2);
    expect(answered).toBe(0);
    server.configure({ hold: false });
    const statuses = (await Promise.all(replies)).map((r) => r.status);
    expect(statuses).toEqual([200, 200]);
  });

  it('summarises deterministically from the first words of each passage, within max_tokens words', () => {
    const user = (context: string) => [
      {
        role: 'user',
        content: `Write a summary of the following, including as many key details as possible: ${context}:`,
      },
    ];
    const context = 'a b c d e f\n\ng h i j k l\n\n';
    expect(fakeReply(user(context), 4)).toBe('a b g h');
    expect(fakeReply(user(context), 5)).toBe('a b g h');
    expect(fakeReply(user(context), 100)).toBe('a b c d e f g h i j k l');
    expect(fakeReply([{ role: 'user', content: 'Context passages:\n\n[1] one two\n\n[2] three' }], 50)).toBe(
      'one two [1].',
    );
  });
});
