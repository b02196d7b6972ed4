/**
 * Replies held to their budget, against the FAKE LLM server over real HTTP (issue 24): a server that ignores
 * `max_tokens`, sends a body or an error page without end, a giant event, model name or vector never gets more
 * than its bound into memory or out of the client; and a connection cut after the headers is reported as what it
 * is, not as CORS.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/core/text';
import {
  answerQuestion,
  chat,
  createLlmSummarizer,
  createOpenAiEmbedder,
  LlmError,
  streamChat,
  type ChatRequest,
  type LlmEndpoint,
} from '../../src/llm';
import {
  MAX_CHAT_REPLY_BYTES,
  MAX_ERROR_BODY_BYTES,
  MAX_MODEL_NAME_CHARS,
  MAX_REPLY_CHARS_PER_TOKEN,
  MAX_SSE_LINE_CHARS,
} from '../../src/llm/limits';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';
import { rejection } from '../support/rejection';

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

function endpoint(
  protocol: 'openai' | 'anthropic' = 'openai',
  extra: Partial<LlmEndpoint> = {},
): LlmEndpoint {
  const baseUrl = protocol === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
  return { protocol, baseUrl, model: 'fake-model', retryBaseDelayMs: 1, retryMaxDelayMs: 2, ...extra };
}

/**
 * Bytes a server can write that the client never reads: loopback socket buffers grow to megabytes under load.
 * A client that reads without end lets a flood run far past this before the test's timeout.
 */
const SOCKET_SLACK_BYTES = 16_000_000;

const REQUEST: ChatRequest = { messages: [{ role: 'user', content: 'one two three' }], maxTokens: 50 };

const failure = (promise: Promise<unknown>) => rejection(promise, LlmError);

/** A long reply of whole sentences, as a model that ignores its limit writes (900,000 characters). */
function runawayText(chars = 900_000): string {
  const sentence = 'The prince searched the kingdom for the girl who lost the glass slipper at the ball. ';
  return sentence.repeat(Math.ceil(chars / sentence.length)).slice(0, chars);
}

describe('a summary over its budget', () => {
  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`is cut at the last sentence end within the budget, and says so (${protocol})`, async () => {
      server.enqueue({ kind: 'reply', text: runawayText() });
      const summarize = createLlmSummarizer(endpoint(protocol));
      const summary = await summarize(['a cluster text'], { maxTokens: 100 });
      expect(countTokens(summary)).toBeLessThanOrEqual(100);
      expect(countTokens(summary)).toBeGreaterThan(80); // whole sentences up to the budget, not one
      expect(summary.endsWith('ball.')).toBe(true);
      expect(summarize.isCut(summary)).toBe(true);
    });
  }

  it('is cut between words with an ellipsis when not even one sentence fits', async () => {
    server.enqueue({ kind: 'reply', text: 'word '.repeat(5000) });
    const summarize = createLlmSummarizer(endpoint());
    const summary = await summarize(['a cluster text'], { maxTokens: 20 });
    expect(countTokens(summary)).toBeLessThanOrEqual(20);
    expect(summary.endsWith('word…')).toBe(true);
    expect(summarize.isCut(summary)).toBe(true);
  });

  it('is kept whole, and not marked, when it fits', async () => {
    const summarize = createLlmSummarizer(endpoint());
    const summary = await summarize(['Cinderella went to the ball.'], { maxTokens: 100 });
    expect(summary).toBe('Cinderella went to the ball.');
    expect(summarize.isCut(summary)).toBe(false);
  });
});

describe('a reply far over its limit', () => {
  it('is read only up to the limit in characters (non-streamed), marked overLimit', async () => {
    server.enqueue({ kind: 'reply', text: runawayText() });
    const result = await chat(endpoint(), REQUEST);
    expect(result.text).toHaveLength(REQUEST.maxTokens * MAX_REPLY_CHARS_PER_TOKEN);
    expect(result.overLimit).toEqual({ maxChars: REQUEST.maxTokens * MAX_REPLY_CHARS_PER_TOKEN });
  });

  it('stops a stream at the limit and releases the connection (the server sees it close)', async () => {
    // A stream without end: the server never stops writing text events.
    const event = (text: string) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;
    server.enqueue({ kind: 'flood', contentType: 'text/event-stream', chunk: event('and on '.repeat(50)) });
    const deltas: string[] = [];
    const answer = await answerQuestion(endpoint(), {
      question: 'What happened?',
      passages: ['Cinderella went to the ball.'],
      maxTokens: 64,
      onDelta: (d) => deltas.push(d),
    });
    const maxChars = 64 * MAX_REPLY_CHARS_PER_TOKEN;
    expect(answer.text).toHaveLength(maxChars);
    expect(deltas.join('')).toBe(answer.text);
    expect(answer.overLimit).toEqual({ maxTokens: 64, maxChars });
    await expect.poll(() => server.modelRequests[0].closedByClient).toBe(true);
  });

  it('refuses a whole body larger than any reply, without reading all of it', async () => {
    server.enqueue({ kind: 'flood', head: '{"choices":[{"message":{"content":"', chunk: 'x'.repeat(65_536) });
    const error = await failure(chat(endpoint(), REQUEST));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toMatch(/more than 16 MB/);
    expect(server.modelRequests).toHaveLength(1); // not retried: it would only send the same again
    await expect.poll(() => server.modelRequests[0].closedByClient).toBe(true);
    expect(server.modelRequests[0].sent).toBeLessThan(MAX_CHAT_REPLY_BYTES + SOCKET_SLACK_BYTES);
  });

  it('refuses a stream event longer than any real one', async () => {
    server.enqueue({
      kind: 'flood',
      contentType: 'text/event-stream',
      head: 'data: ',
      chunk: 'y'.repeat(65_536),
    });
    const error = await failure(streamChat(endpoint(), REQUEST));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toMatch(/longer than/);
    await expect.poll(() => server.modelRequests[0].closedByClient).toBe(true);
    expect(server.modelRequests[0].sent).toBeLessThan(MAX_SSE_LINE_CHARS + SOCKET_SLACK_BYTES);
  });

  it('reads only the start of an error body without end, and reports the status', async () => {
    for (let i = 0; i < 2; i++) {
      server.enqueue({
        kind: 'flood',
        status: 500,
        head: '{"error":{"message":"',
        chunk: 'z'.repeat(65_536),
      });
    }
    const error = await failure(chat(endpoint('openai', { maxRetries: 1 }), REQUEST));
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.message.length).toBeLessThan(1000);
    for (const request of server.modelRequests) {
      await expect.poll(() => request.closedByClient).toBe(true);
      expect(request.sent).toBeLessThan(MAX_ERROR_BODY_BYTES + SOCKET_SLACK_BYTES);
    }
  });
});

describe('fields a server fills in', () => {
  it('keeps the configured model name instead of one too long, and drops implausible usage', async () => {
    const body = JSON.stringify({
      model: 'm'.repeat(MAX_MODEL_NAME_CHARS + 1),
      choices: [{ message: { content: 'A short reply.' }, finish_reason: 'f'.repeat(1000) }],
      usage: { prompt_tokens: 1e300, completion_tokens: -5 },
    });
    server.enqueue({ kind: 'raw', body });
    const result = await chat(endpoint(), REQUEST);
    expect(result.model).toBe('fake-model');
    expect(result.finishReason).toBeUndefined();
    expect(result.usage).toBeUndefined();
  });

  it('refuses embeddings with more dimensions than any model has', async () => {
    const huge = Array.from({ length: 20_000 }, () => 0.001);
    server.enqueue({ kind: 'raw', body: JSON.stringify({ data: [{ index: 0, embedding: huge }] }) });
    const embed = createOpenAiEmbedder(endpoint());
    const error = await failure(embed(['one text']));
    expect(error.code).toBe('BAD_RESPONSE');
    expect(error.message).toMatch(/20000 dimensions/);
  });
});

describe('a connection closed after the headers', () => {
  it('is retried, then reported as closed mid-reply, never as CORS (whole body)', async () => {
    server.enqueue(...Array.from({ length: 3 }, () => ({ kind: 'close' as const, afterChunks: 1 })));
    const error = await failure(chat(endpoint('openai', { maxRetries: 2 }), REQUEST));
    expect(server.modelRequests).toHaveLength(3);
    expect(error.code).toBe('CLOSED_MID_REPLY');
    expect(error.message).toMatch(/closed the connection mid-reply \(3 attempts\)/);
    expect(error.message).toMatch(/HTTP 200/);
    expect(error.message).not.toMatch(/OLLAMA_ORIGINS|refuses cross-origin|allowed origins/);
  });

  it('is retried, then reported as closed mid-reply (a stream cut before any text)', async () => {
    server.enqueue(...Array.from({ length: 2 }, () => ({ kind: 'close' as const, afterChunks: 0 })));
    const error = await failure(streamChat(endpoint('anthropic', { maxRetries: 1 }), REQUEST));
    expect(server.modelRequests).toHaveLength(2);
    expect(error.code).toBe('CLOSED_MID_REPLY');
    expect(error.message).not.toMatch(/OLLAMA_ORIGINS|refuses cross-origin|allowed origins/);
  });

  it('suggests CORS only when no response came at all', async () => {
    const port = new URL(server.url).port;
    await server.close(); // nothing listens there any more
    const error = await failure(
      chat({ ...endpoint(), baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }, REQUEST),
    );
    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toMatch(/refuses cross-origin requests from this page \(CORS\)/);
  });
});
