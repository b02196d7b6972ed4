import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLlmSummarizer,
  LlmError,
  summaryContext,
  UsageAccumulator,
  type LlmEndpoint,
} from '../../src/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';

const KEY = 'sk-summary-test-0123456789';
let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer({ apiKey: KEY });
});
afterEach(() => server.close());

function endpoint(protocol: 'openai' | 'anthropic', extra: Partial<LlmEndpoint> = {}): LlmEndpoint {
  const baseUrl = protocol === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
  return { protocol, baseUrl, apiKey: KEY, model: 'fake-model', retryBaseDelayMs: 5, ...extra };
}

const TEXTS = ['Cinderella lived\nwith her stepmother.', 'The prince\r\nheld a ball.\n'];
/** The paper's Table 11 prompt around the reference's get_text output for TEXTS. */
const PAPER_USER_PROMPT =
  'Write a summary of the following, including as many key details as possible: ' +
  'Cinderella lived with her stepmother.\n\nThe prince held a ball.\n\n:';

describe('summaryContext (the reference get_text)', () => {
  it("replaces line breaks like Python's splitlines and follows each text with a blank line", () => {
    expect(summaryContext(['a\nb', 'c\r\nd\re', 'f\u2028g\n'])).toBe('a b\n\nc d e\n\nf g\n\n');
    expect(summaryContext(['', 'x'])).toBe('\n\nx\n\n');
    expect(summaryContext(['\nlead', 'two\n\nbreaks'])).toBe(' lead\n\ntwo  breaks\n\n');
  });
});

describe('createLlmSummarizer against the fake LLM server', () => {
  it('sends the paper prompt exactly (OpenAI) with max_tokens from the call', async () => {
    const summarize = createLlmSummarizer(endpoint('openai'));
    const summary = await summarize(TEXTS, { maxTokens: 100 });
    const [request] = server.modelRequests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toEqual({
      model: 'fake-model',
      messages: [
        { role: 'system', content: 'You are a Summarizing Text Portal' },
        { role: 'user', content: PAPER_USER_PROMPT },
      ],
      max_tokens: 100,
    });
    // The fake summarises with each passage's first words.
    expect(summary).toBe('Cinderella lived with her stepmother. The prince held a ball.');
    expect(summarize.info).toEqual({ kind: 'llm', model: 'fake-model' });
  });

  it('sends the paper prompt exactly (Anthropic), the system prompt top-level', async () => {
    const summarize = createLlmSummarizer(endpoint('anthropic'));
    await summarize(TEXTS, { maxTokens: 64 });
    const [request] = server.modelRequests;
    expect(request.path).toBe('/v1/messages');
    expect(request.body).toEqual({
      model: 'fake-model',
      max_tokens: 64,
      system: 'You are a Summarizing Text Portal',
      messages: [{ role: 'user', content: PAPER_USER_PROMPT }],
    });
  });

  it('uses 100 tokens when a call passes no valid limit, and an edited template', async () => {
    const summarize = createLlmSummarizer(endpoint('openai'), {
      userTemplate: 'Summarise briefly:\n{context}END',
    });
    await summarize(['one\ntwo'], { maxTokens: Number.NaN });
    const body = server.modelRequests[0].body as { max_tokens: number; messages: { content: string }[] };
    expect(body.max_tokens).toBe(100);
    expect(body.messages[1].content).toBe('Summarise briefly:\none two\n\nEND');
    expect(() => createLlmSummarizer(endpoint('openai'), { userTemplate: 'no placeholder' })).toThrow(
      LlmError,
    );
  });

  it('accumulates the usage the server reports over a build', async () => {
    const usage = new UsageAccumulator();
    const summarize = createLlmSummarizer(endpoint('anthropic'), { usage });
    await summarize(['alpha beta gamma'], { maxTokens: 2 });
    await summarize(['delta epsilon', 'zeta'], { maxTokens: 10 });
    const reported = server.modelRequests.map((r) => r.usage!);
    expect(usage.snapshot()).toEqual({
      promptTokens: reported[0].promptTokens + reported[1].promptTokens,
      completionTokens: reported[0].completionTokens + reported[1].completionTokens,
      totalTokens:
        reported[0].promptTokens +
        reported[1].promptTokens +
        reported[0].completionTokens +
        reported[1].completionTokens,
      requests: 2,
      unreported: 0,
    });
    expect(summarize.usage).toBe(usage);
  });

  it('throws a typed error, never returns error text, when the server keeps failing', async () => {
    server.enqueue(
      { kind: 'error', status: 500, message: 'Internal failure X' },
      { kind: 'error', status: 500, message: 'Internal failure X' },
    );
    const summarize = createLlmSummarizer(endpoint('openai', { maxRetries: 1 }));
    const error = await summarize(TEXTS, { maxTokens: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).code).toBe('SERVER_ERROR');
  });

  it('rejects an empty or whitespace reply, and a reply that is only reasoning', async () => {
    const summarize = createLlmSummarizer(endpoint('openai'));
    server.enqueue({ kind: 'reply', text: '  \n ' });
    await expect(summarize(TEXTS, { maxTokens: 100 })).rejects.toMatchObject({ code: 'EMPTY_RESPONSE' });
    server.enqueue({ kind: 'reply', text: '<think>long musing</think>\n' });
    await expect(summarize(TEXTS, { maxTokens: 100 })).rejects.toMatchObject({ code: 'EMPTY_RESPONSE' });
    server.enqueue({ kind: 'reply', text: '<think>hmm</think>\nThe summary.' });
    expect(await summarize(TEXTS, { maxTokens: 100 })).toBe('The summary.');
  });
});
