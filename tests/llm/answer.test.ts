import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerQuestion, parseCitations, UsageAccumulator, type LlmEndpoint } from '../../src/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';

describe('parseCitations', () => {
  it('maps [n] to 0-based indices in order of first citation, without repeats', () => {
    expect(parseCitations('Cinderella went [2]. The prince [1][2]. Again [2].', 3)).toEqual([1, 0]);
  });

  it('ignores numbers outside 1…n and non-citations', () => {
    expect(parseCitations('[0] [4] [2] [99999999999] list[x] [] [a1]', 3)).toEqual([1]);
  });

  it('reads lists, ranges and labels', () => {
    expect(parseCitations('A [3, 1]. B [1; 4]. C [Passage 5]. D [2-3]. E [6–7].', 8)).toEqual([
      2, 0, 3, 4, 1, 5, 6,
    ]);
    expect(parseCitations('[2-9]', 3)).toEqual([1, 2]);
    expect(parseCitations('[1-1000000000]', 2)).toEqual([0, 1]);
  });
});

const PASSAGES = [
  'The glass slipper fit Cinderella perfectly\nat last.',
  'The prince married her.',
  'Mice became horses.',
];
let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

function endpoint(protocol: 'openai' | 'anthropic'): LlmEndpoint {
  const baseUrl = protocol === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
  return { protocol, baseUrl, model: 'fake-model', retryBaseDelayMs: 5 };
}

describe('answerQuestion against the fake LLM server', () => {
  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`streams the answer and resolves with text, citations and usage (${protocol})`, async () => {
      const deltas: string[] = [];
      const session = new UsageAccumulator();
      const result = await answerQuestion(endpoint(protocol), {
        question: 'Whom did the slipper fit?',
        passages: PASSAGES,
        onDelta: (d) => deltas.push(d),
        usage: session,
      });
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(result.text);
      expect(result.text).toBe('The glass slipper fit Cinderella perfectly at last. [1].');
      expect(result.citations).toEqual([0]);
      const reported = server.modelRequests[0].usage!;
      expect(result.usage).toMatchObject({ ...reported, requests: 1, unreported: 0 });
      expect(session.snapshot()).toEqual(result.usage);
      const body = server.modelRequests[0].body as Record<string, unknown>;
      expect(body.stream).toBe(true);
      if (protocol === 'openai') expect(body.stream_options).toEqual({ include_usage: true });
    });
  }

  it('numbers the passages and asks for answers from only them', async () => {
    await answerQuestion(endpoint('anthropic'), {
      question: ' Who married? ',
      passages: PASSAGES,
      stream: false,
    });
    const body = server.modelRequests[0].body as { system: string; messages: { content: string }[] };
    expect(body.system).toMatch(/ONLY the numbered context passages/);
    const user = body.messages[0].content;
    expect(user).toContain(
      '[1] The glass slipper fit Cinderella perfectly at last.\n\n[2] The prince married her.\n\n[3] Mice became horses.',
    );
    expect(user).toContain('Question: Who married?');
    expect(user).toMatch(/citing them as \[n\]/);
  });

  it('parses the citations of the whole streamed text, dropping invented numbers', async () => {
    server.enqueue({ kind: 'reply', text: 'They married [2], after the ball [9][1, 2].' });
    const result = await answerQuestion(endpoint('openai'), { question: 'q', passages: PASSAGES });
    expect(result.citations).toEqual([1, 0]);
  });
});
