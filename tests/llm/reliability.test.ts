import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chat,
  LlmError,
  streamChat,
  type ChatRequest,
  type LlmEndpoint,
  type RetryInfo,
} from '../../src/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';
import { rejection } from '../support/rejection';

const REQUEST: ChatRequest = {
  messages: [{ role: 'user', content: 'one two three four five six' }],
  maxTokens: 50,
};
/** Node's timers may fire up to ~1 ms before the requested delay (millisecond clock rounding). */
const TIMER_SLACK_MS = 3;

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

function endpoint(protocol: 'openai' | 'anthropic', extra: Partial<LlmEndpoint> = {}): LlmEndpoint {
  const baseUrl = protocol === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
  return { protocol, baseUrl, model: 'fake-model', retryBaseDelayMs: 5, ...extra };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}
const failure = (promise: Promise<unknown>) => rejection(promise, LlmError);

describe('retries against the fake LLM server', () => {
  it('waits as long as Retry-After (seconds) asks after a 429, then succeeds', async () => {
    server.enqueue({ kind: 'error', status: 429, retryAfter: '1' });
    const retries: RetryInfo[] = [];
    // A tiny backoff base proves the wait came from Retry-After.
    const result = await chat(endpoint('openai', { retryBaseDelayMs: 1 }), REQUEST, {
      onRetry: (i) => retries.push(i),
    });
    expect(result.text).toBe('one two three four five six');
    const [first, second] = server.modelRequests;
    expect(server.modelRequests).toHaveLength(2);
    expect(second.time - first.time).toBeGreaterThanOrEqual(1000 - TIMER_SLACK_MS);
    expect(retries).toEqual([expect.objectContaining({ retry: 1, delayMs: 1000, status: 429 })]);
  });

  it('waits until a Retry-After HTTP date', async () => {
    const at = (Math.floor(Date.now() / 1000) + 2) * 1000; // HTTP dates have whole seconds
    server.enqueue({ kind: 'error', status: 429, retryAfter: new Date(at).toUTCString() });
    await chat(endpoint('anthropic', { retryBaseDelayMs: 1 }), REQUEST);
    expect(server.modelRequests[1].time).toBeGreaterThanOrEqual(at - TIMER_SLACK_MS);
  });

  it('retries a 500 and an Anthropic 529, then succeeds', async () => {
    server.enqueue({ kind: 'error', status: 500 });
    expect((await chat(endpoint('openai'), REQUEST)).text).toBe('one two three four five six');
    server.enqueue({ kind: 'error', status: 529, type: 'overloaded_error' }, { kind: 'error', status: 502 });
    expect((await chat(endpoint('anthropic'), REQUEST)).text).toBe('one two three four five six');
    expect(server.modelRequests.map((r) => r.status)).toEqual([500, 200, 529, 502, 200]);
  });

  it('retries a network failure (connection dropped before the body)', async () => {
    server.enqueue({ kind: 'close' });
    expect((await chat(endpoint('openai'), REQUEST)).text).toBe('one two three four five six');
    expect(server.modelRequests).toHaveLength(2);
  });

  it('gives up after maxRetries with SERVER_ERROR or RATE_LIMITED', async () => {
    server.enqueue(
      ...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 503, message: 'down' })),
    );
    const error = await failure(chat(endpoint('openai', { maxRetries: 2 }), REQUEST));
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.details).toMatchObject({ status: 503, attempts: 3, serverMessage: 'down' });
    expect(error.message).toMatch(/HTTP 503 after 2 retries/);
    expect(server.modelRequests).toHaveLength(3);

    server.reset();
    server.enqueue(
      ...Array.from({ length: 2 }, () => ({ kind: 'error' as const, status: 429, retryAfter: '0' })),
    );
    const limited = await failure(chat(endpoint('anthropic', { maxRetries: 1 }), REQUEST));
    expect(limited.code).toBe('RATE_LIMITED');
    expect(limited.transient).toBe(true);
    expect(server.modelRequests).toHaveLength(2);
  });

  it('stops at once when Retry-After asks for longer than allowed', async () => {
    server.enqueue({ kind: 'error', status: 429, retryAfter: '3600' });
    const error = await failure(chat(endpoint('openai'), REQUEST));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toMatch(/wait 3600 s/);
    expect(server.modelRequests).toHaveLength(1);
  });

  it('does not retry errors that would fail again', async () => {
    server.enqueue({ kind: 'error', status: 400, message: 'bad parameter' }, { kind: 'malformed' });
    expect((await failure(chat(endpoint('openai'), REQUEST))).code).toBe('HTTP_ERROR');
    expect((await failure(chat(endpoint('openai'), REQUEST))).code).toBe('BAD_RESPONSE');
    expect(server.modelRequests).toHaveLength(2);
  });
});

describe('timeouts against the fake LLM server', () => {
  it('fails with TIMEOUT when the server does not answer, without retrying', async () => {
    server.enqueue({ kind: 'hang' });
    const error = await failure(chat(endpoint('openai', { timeoutMs: 300 }), REQUEST));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/did not answer within 0.3 s/);
    expect(server.modelRequests).toHaveLength(1);
  });

  it('times a stream out when it stalls between chunks', async () => {
    server.configure({ chunkDelayMs: 1000 });
    const error = await failure(streamChat(endpoint('anthropic', { timeoutMs: 200 }), REQUEST));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/stalled/);
  });

  it('lets a stream run longer than the timeout while chunks keep coming', async () => {
    server.configure({ chunkDelayMs: 60 });
    const long = { ...REQUEST, messages: [{ role: 'user' as const, content: 'word '.repeat(40) }] };
    const result = await streamChat(endpoint('openai', { timeoutMs: 400 }), long);
    expect(result.text.split(' ')).toHaveLength(40); // 34 chunks × 60 ms ≈ 2 s, far beyond the timeout
  });
});

describe('streams cut short by the fake LLM server', () => {
  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`fails with CLOSED_MID_REPLY after output, without retrying (${protocol})`, async () => {
      server.enqueue({ kind: 'close', afterChunks: 2 });
      const deltas: string[] = [];
      const error = await failure(
        streamChat(endpoint(protocol), REQUEST, { onDelta: (d) => deltas.push(d) }),
      );
      expect(error.code).toBe('CLOSED_MID_REPLY');
      expect(deltas).toHaveLength(2);
      expect(error.details.receivedChars).toBe(deltas.join('').length);
      expect(server.modelRequests).toHaveLength(1);

      server.enqueue({ kind: 'close', afterChunks: 1, mode: 'end' }); // clean end, no terminator
      expect((await failure(streamChat(endpoint(protocol), REQUEST))).code).toBe('CLOSED_MID_REPLY');
    });

    it(`retries a stream that broke before any text (${protocol})`, async () => {
      server.enqueue({ kind: 'close', afterChunks: 0 }, { kind: 'stream-error', afterChunks: 0 });
      const result = await streamChat(endpoint(protocol), REQUEST);
      expect(result.text).toBe('one two three four five six');
      expect(server.modelRequests).toHaveLength(3);
    });
  }

  it('reports an error event after output as final', async () => {
    server.enqueue({ kind: 'stream-error', afterChunks: 1, type: 'overloaded_error', message: 'Overloaded' });
    const error = await failure(streamChat(endpoint('anthropic'), REQUEST));
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.details).toMatchObject({ status: 529, serverMessage: 'Overloaded' });
    expect(server.modelRequests).toHaveLength(1);
  });
});

describe('cancellation against the fake LLM server', () => {
  it('aborts a request in flight at once, with no later request', async () => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const pending = chat(endpoint('openai'), REQUEST, { signal: controller.signal });
    await until(() => server.inFlight === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => server.inFlight === 0); // the connection was really closed
    await sleep(100);
    expect(server.modelRequests).toHaveLength(1);
  });

  it('aborts during a backoff sleep, with no later request', async () => {
    server.enqueue({ kind: 'error', status: 429, retryAfter: '30' });
    const controller = new AbortController();
    const pending = chat(endpoint('anthropic'), REQUEST, {
      signal: controller.signal,
      onRetry: () => setTimeout(() => controller.abort(), 20),
    });
    // Without cancellation the 30 s sleep would outlast the test's timeout.
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await sleep(100);
    expect(server.modelRequests).toHaveLength(1);
  });

  it('aborts mid-stream', async () => {
    server.configure({ chunkDelayMs: 30 });
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = streamChat(endpoint('openai'), REQUEST, {
      signal: controller.signal,
      onDelta: (d) => {
        deltas.push(d);
        controller.abort();
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(deltas).toHaveLength(1);
    expect(server.modelRequests).toHaveLength(1);
  });

  it('aborts a call waiting for a concurrency slot without sending it', async () => {
    server.enqueue({ kind: 'hang' });
    const ep = endpoint('openai', { maxConcurrency: 1, timeoutMs: 5_000 });
    const first = new AbortController();
    const second = new AbortController();
    const running = chat(ep, REQUEST, { signal: first.signal });
    const queued = chat(ep, REQUEST, { signal: second.signal });
    await until(() => server.inFlight === 1);
    second.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    first.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.modelRequests).toHaveLength(1);
  });

  it('never starts a request whose signal has already fired', async () => {
    await expect(chat(endpoint('openai'), REQUEST, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.modelRequests).toHaveLength(0);
  });
});

describe('concurrency against the fake LLM server', () => {
  it('keeps the requests in flight at or below maxConcurrency', async () => {
    server.configure({ latencyMs: 80 });
    const ep = endpoint('openai', { maxConcurrency: 2 });
    const results = await Promise.all(Array.from({ length: 8 }, () => chat(ep, REQUEST)));
    expect(results).toHaveLength(8);
    expect(server.maxInFlight).toBe(2);
  });

  it('shares one bound between clients of the same server', async () => {
    server.configure({ latencyMs: 80 });
    const a = endpoint('anthropic', { maxConcurrency: 3 });
    const b = { ...a, baseUrl: `${server.url}/v1/messages` }; // same server, written differently
    await Promise.all([
      ...Array.from({ length: 5 }, () => chat(a, REQUEST)),
      ...Array.from({ length: 5 }, () => streamChat(b, REQUEST)),
    ]);
    expect(server.maxInFlight).toBe(3);
  });
});
