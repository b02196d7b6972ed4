/**
 * The built-in model behind the endpoints' summarising and answering paths: the model gets exactly the
 * messages and limits an OpenAI endpoint gets (compared with the fake LLM server's request log), answers stream
 * and resolve with [n] citations and usage, and summaries are recorded as the built-in model's. Real tiny model
 * (local:aerie-tiny-qwen2), except where a test says it scripts the generator.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  answerMessages,
  answerQuestion,
  answerWithBuiltin,
  createBuiltinSummarizer,
  createLlmSummarizer,
  parseCitations,
  UsageAccumulator,
  type ChatMessage,
} from '../../src/llm';
import { configureRuntime } from '../../src/models/embed';
import { TransformersGenerator, type ChatGenerator, type GeneratedReply } from '../../src/models/generate';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';

const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
const PASSAGES = [
  'The glass slipper fit Cinderella\nat last.',
  'The prince married her.',
  'Mice became horses.',
];
const QUESTION = 'Whom did the slipper fit?';

/** What a generator was asked: messages and limits, per call. */
type Call = { messages: ChatMessage[]; maxNewTokens: number; temperature?: number };

/** The real tiny model, with every call recorded on the way in (an observer, not a fake). */
function recording(generator: TransformersGenerator, calls: Call[]): ChatGenerator {
  return {
    info: generator.info,
    generate(messages, options) {
      calls.push({
        messages: [...messages],
        maxNewTokens: options.maxNewTokens,
        temperature: options.temperature,
      });
      return generator.generate(messages, options);
    },
  };
}

/** A SCRIPTED generator (no model): streams `text` in 3-character pieces. */
function scripted(text: string): ChatGenerator {
  return {
    info: { model: 'scripted', tag: 'builtin:scripted@q8' },
    async generate(_messages, options): Promise<GeneratedReply> {
      for (let i = 0; i < text.length; i += 3) options.onText?.(text.slice(i, i + 3));
      return {
        text,
        promptTokens: 10,
        completionTokens: 5,
        finishReason: 'stop',
        timing: { prefillMs: 1, decodeMs: 1, totalMs: 2 },
      };
    },
  };
}

let tiny: TransformersGenerator;
let server: FakeLlmServer;
beforeAll(async () => {
  configureRuntime({ localModelPath: MODELS });
  tiny = await TransformersGenerator.load({ model: 'local:aerie-tiny-qwen2', device: 'cpu', dtype: 'q8' });
});
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

function endpoint() {
  return { protocol: 'openai' as const, baseUrl: server.openaiBaseUrl, model: 'fake-model' };
}

/** The messages an OpenAI endpoint received in its last request, and its token limit. */
function lastEndpointRequest(): Call {
  const body = server.modelRequests.at(-1)!.body as { messages: ChatMessage[]; max_tokens: number };
  return { messages: body.messages, maxNewTokens: body.max_tokens, temperature: undefined };
}

describe('answers on the built-in model', () => {
  it('asks the model exactly what an endpoint is asked', async () => {
    const calls: Call[] = [];
    await answerQuestion(endpoint(), { question: QUESTION, passages: PASSAGES, maxTokens: 40 });
    await answerWithBuiltin(recording(tiny, calls), {
      question: QUESTION,
      passages: PASSAGES,
      maxTokens: 40,
    });
    expect(calls).toEqual([lastEndpointRequest()]);
    expect(calls[0].messages[1].content).toContain('[1] The glass slipper fit Cinderella at last.');
  });

  it('streams the answer and resolves with its text, citations, usage and model', async () => {
    const deltas: string[] = [];
    const session = new UsageAccumulator();
    const answer = await answerWithBuiltin(tiny, {
      question: QUESTION,
      passages: PASSAGES,
      maxTokens: 30,
      onDelta: (d) => deltas.push(d),
      usage: session,
    });
    expect(deltas.join('')).toBe(answer.text);
    expect(answer.text.length).toBeGreaterThan(0);
    expect(answer.citations).toEqual(parseCitations(answer.text, PASSAGES.length));
    expect(answer).toMatchObject({ model: 'local:aerie-tiny-qwen2', finishReason: 'length' });
    expect(answer.usage).toMatchObject({ completionTokens: 30, requests: 1, unreported: 0 });
    expect(answer.usage.promptTokens).toBe(tiny.countPromptTokens(answerMessages(QUESTION, PASSAGES)));
    expect(session.snapshot()).toEqual(answer.usage);
  });

  it('reads [n] citations from the streamed text like endpoint answers (scripted generator)', async () => {
    const deltas: string[] = [];
    const answer = await answerWithBuiltin(scripted('They married [2], after the ball [9][1, 2].'), {
      question: 'q',
      passages: PASSAGES,
      onDelta: (d) => deltas.push(d),
    });
    expect(deltas.length).toBeGreaterThan(3);
    expect(answer.citations).toEqual([1, 0]);
    expect(answer.usage).toMatchObject({ promptTokens: 10, completionTokens: 5 });
  });

  it('stops when cancelled mid-answer', async () => {
    const controller = new AbortController();
    const pending = answerWithBuiltin(tiny, {
      question: QUESTION,
      passages: PASSAGES,
      maxTokens: 400,
      signal: controller.signal,
      onDelta: () => controller.abort(),
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('summaries on the built-in model', () => {
  it("sends the paper's prompt and budget exactly as to an endpoint, and records the model", async () => {
    const texts = ['Cinderella lost a slipper.\nThe prince found it.', 'The stepsisters were jealous.'];
    await createLlmSummarizer(endpoint())(texts, { maxTokens: 100 });
    const calls: Call[] = [];
    const meterReplies: GeneratedReply[] = [];
    const summarize = createBuiltinSummarizer(recording(tiny, calls), {
      onReply: (r) => meterReplies.push(r),
    });
    const summary = await summarize(texts, { maxTokens: 20 });
    expect(calls).toEqual([{ ...lastEndpointRequest(), maxNewTokens: 20 }]);
    expect(calls[0].messages[0]).toEqual({ role: 'system', content: 'You are a Summarizing Text Portal' });
    expect(summary).toBe(meterReplies[0].text.trim());
    expect(summary.length).toBeGreaterThan(0);
    expect(meterReplies[0].completionTokens).toBeLessThanOrEqual(20);
    expect(summarize.info).toEqual({ kind: 'llm', model: 'builtin:local:aerie-tiny-qwen2@q8' });
    expect(summarize.usage.snapshot()).toMatchObject({ requests: 1, completionTokens: 20 });
  });

  it('never stores a blank reply or a reasoning block as a summary (scripted generator)', async () => {
    await expect(createBuiltinSummarizer(scripted('  \n '))(['x'], { maxTokens: 10 })).rejects.toMatchObject({
      name: 'LlmError',
      code: 'EMPTY_RESPONSE',
    });
    const summarize = createBuiltinSummarizer(scripted('<think>hmm</think> The gist.'));
    expect(await summarize(['x'], { maxTokens: 10 })).toBe('The gist.');
  });
});
