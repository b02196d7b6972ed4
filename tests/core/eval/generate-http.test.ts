/**
 * The generated-question path over real HTTP: questions written through an endpoint (the FAKE LLM server of
 * the tests, speaking the OpenAI and Anthropic protocols), then evaluated and answered through it.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  generateQuestions,
  generationCallCount,
  planQuestionGeneration,
} from '../../../src/core/eval/generate';
import { evaluateAnswers } from '../../../src/core/eval/run-answers';
import { evaluateRetrieval } from '../../../src/core/eval/run-retrieval';
import { variantKey } from '../../../src/core/eval/variants';
import { parseTree } from '../../../src/core/tree-format';
import { endpointEvalChat, type LlmEndpoint } from '../../../src/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/llm-server';

const tree = parseTree(
  readFileSync(new URL('../../fixtures/official-cinderella-tree.json', import.meta.url), 'utf8'),
);

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(() => server.close());

const endpoint = (protocol: 'openai' | 'anthropic'): LlmEndpoint => ({
  protocol,
  baseUrl: protocol === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl,
  model: 'fake-model',
  retryBaseDelayMs: 5,
});

/** The user message of each logged model request. */
const prompts = () =>
  server.modelRequests.map((r) => {
    const messages = (r.body as { messages: { role: string; content: string }[] }).messages;
    return messages.find((m) => m.role === 'user')!.content;
  });

describe('planQuestionGeneration', () => {
  it('samples distinct leaves and summaries, the same for the same seed, all of them when there are few', () => {
    const plan = planQuestionGeneration(tree, 5);
    expect(plan).toEqual(planQuestionGeneration(tree, 5));
    expect(new Set(plan.detail).size).toBe(5);
    expect(plan.detail.every((id) => tree.nodes[id].layer === 0)).toBe(true);
    expect(plan.theme).toHaveLength(5);
    expect(plan.theme.every((id) => tree.nodes[id].layer > 0)).toBe(true);
    expect(planQuestionGeneration(tree, 5, 7)).not.toEqual(plan);
    // The Cinderella tree has 7 summaries.
    expect(planQuestionGeneration(tree, 10).theme).toEqual([33, 34, 35, 36, 37, 38, 39]);
    expect(generationCallCount(planQuestionGeneration(tree, 10))).toBe(17);
    expect(() => planQuestionGeneration(tree, 0)).toThrow(RangeError);
  });
});

describe('generated questions against the fake LLM server', () => {
  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`writes one question per planned node over ${protocol}, keeping its node as gold`, async () => {
      const plan = planQuestionGeneration(tree, 2);
      server.enqueue(
        { kind: 'reply', text: 'Question: Who helped Cinderella?\nAnswer: Her godmother' },
        { kind: 'reply', text: 'Here is one:\nWhat did the prince find?' },
        { kind: 'reply', text: 'I would rather not.' },
        { kind: 'reply', text: 'Still no.' },
        { kind: 'reply', text: 'Question: How does the story end?\nAnswer: With a wedding' },
      );
      const progress: number[] = [];
      const { questions, failures } = await generateQuestions(
        tree,
        plan,
        endpointEvalChat(endpoint(protocol)),
        {
          concurrency: 1,
          onProgress: (done) => progress.push(done),
        },
      );
      // The reply without a question was asked for once more.
      expect(server.modelRequests).toHaveLength(generationCallCount(plan) + 1);
      expect(progress).toEqual([0, 1, 2, 3, 4]);
      // Each request carried its node's text: leaves first, then summaries (the third twice).
      const nodes = [...plan.detail, plan.theme[0], ...plan.theme];
      prompts().forEach((p, i) => expect(p).toContain(tree.nodes[nodes[i]].text.trim().slice(0, 60)));
      expect(prompts()[0]).toContain('a specific fact');
      expect(prompts()[2]).toContain('overall theme');
      expect(prompts()[3]).toBe(prompts()[2]);
      expect(questions).toEqual([
        {
          id: `detail-${plan.detail[0]}`,
          question: 'Who helped Cinderella?',
          answer: 'Her godmother',
          kind: 'detail',
          goldNode: plan.detail[0],
          goldText: tree.nodes[plan.detail[0]].text,
        },
        {
          id: `detail-${plan.detail[1]}`,
          question: 'What did the prince find?',
          kind: 'detail',
          goldNode: plan.detail[1],
          goldText: tree.nodes[plan.detail[1]].text,
        },
        {
          id: `theme-${plan.theme[1]}`,
          question: 'How does the story end?',
          answer: 'With a wedding',
          kind: 'theme',
          goldNode: plan.theme[1],
          goldText: tree.nodes[plan.theme[1]].text,
        },
      ]);
      expect(failures).toEqual([{ node: plan.theme[0], kind: 'theme', reply: 'Still no.' }]);
    });
  }

  it('keeps every good question as it arrives: a bad reply is asked for once more, then skipped and counted', async () => {
    const plan = planQuestionGeneration(tree, 3);
    const good = (n: number) => ({ kind: 'reply' as const, text: `Question: What happens in part ${n}?` });
    server.enqueue(
      good(1),
      { kind: 'raw', body: JSON.stringify({ choices: [{ message: { content: '' } }] }) }, // empty
      good(2), // its retry
      { kind: 'reply', text: '%%%% ### ~~~~' }, // garbled
      { kind: 'malformed' }, // its retry: not even JSON
      good(3),
      good(4),
      good(5),
    );
    const arrived: string[] = [];
    const { questions, failures, counts } = await generateQuestions(
      tree,
      plan,
      endpointEvalChat(endpoint('openai')),
      { concurrency: 1, onQuestion: (q) => arrived.push(q.question) },
    );
    expect(arrived).toEqual([1, 2, 3, 4, 5].map((n) => `What happens in part ${n}?`));
    expect(questions.map((q) => q.question)).toEqual(arrived);
    expect(counts).toEqual({ planned: 6, written: 5, skipped: 1, retried: 2 });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ node: plan.detail[2], kind: 'detail', reply: '' });
    expect(failures[0].error).toMatch(/./);
    expect(server.modelRequests).toHaveLength(8);
  });

  it('stops at an endpoint that refuses every request, after the questions already written arrived', async () => {
    const plan = planQuestionGeneration(tree, 2);
    server.enqueue(
      { kind: 'reply', text: 'Question: Who helped Cinderella?' },
      { kind: 'error', status: 401, message: 'Incorrect API key provided' },
    );
    const arrived: string[] = [];
    await expect(
      generateQuestions(tree, plan, endpointEvalChat(endpoint('openai')), {
        concurrency: 1,
        onQuestion: (q) => arrived.push(q.question),
      }),
    ).rejects.toMatchObject({ code: 'AUTH' });
    expect(arrived).toEqual(['Who helped Cinderella?']);
    // Not retried: every request would be refused alike.
    expect(server.modelRequests).toHaveLength(2);
  });

  it('evaluates and answers the generated set through the same endpoint, without changing the tree', async () => {
    const plan = planQuestionGeneration(tree, 3);
    const written = plan.detail.map((id) => ({
      kind: 'reply' as const,
      text: `Question: What happens in passage ${id}?\nAnswer: ${tree.nodes[id].text.trim().split(/\s+/).slice(0, 8).join(' ')}`,
    }));
    server.enqueue(
      ...written,
      ...plan.theme.map((id) => ({ kind: 'reply' as const, text: `Question: Why node ${id}?` })),
    );
    const chat = endpointEvalChat(endpoint('openai'));
    const { questions } = await generateQuestions(tree, plan, chat, { concurrency: 1 });
    expect(questions).toHaveLength(6);
    const before = JSON.stringify(tree, (_, v: unknown) => (v instanceof Float32Array ? [...v] : v));
    // Asked with its gold node's own embedding, each question finds its node first.
    const retrieval = await evaluateRetrieval(tree, questions, {
      embedQuery: async (texts) =>
        texts.map((t) => tree.nodes[questions.find((q) => q.question === t)!.goldNode!].embedding),
      variants: [{ mode: 'collapsed', search: 'meaning' }],
    });
    const key = variantKey({ mode: 'collapsed', search: 'meaning' });
    expect(retrieval.modes[key]).toMatchObject({ questions: 6, evidenceRecall: 1, mrr: 1 });
    server.reset();
    // Unscripted, the fake answers by quoting passage [1] (the gold node itself) and citing it.
    const answered = await evaluateAnswers(tree, questions, retrieval, { chat, keys: [key] });
    expect(server.modelRequests).toHaveLength(3);
    const answered3 = answered.perQuestion.filter((q) => q.modes[key].answer);
    expect(answered3.map((q) => q.index)).toEqual([0, 1, 2]);
    for (const q of answered3) {
      // The reference is the passage's first 8 words; the fake quotes passage [1] (the gold node, ranked first):
      // the same 8 words and a citation, which is one word more for F1 ("1").
      const reference = questions[q.index].answer!;
      const answer = q.modes[key].answer!;
      expect(answer.text).toBe(`${reference} [1].`);
      const words = reference
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s]/gu, '')
        .split(/\s+/)
        .filter((w) => !['a', 'an', 'the'].includes(w));
      expect(answer.f1).toBeCloseTo((2 * words.length) / (2 * words.length + 1), 12);
    }
    expect(answered.modes[key].answers).toMatchObject({
      answered: 3,
      referenceQuestions: 3,
      choiceQuestions: 0,
    });
    expect(JSON.stringify(tree, (_, v: unknown) => (v instanceof Float32Array ? [...v] : v))).toBe(before);
  });
});
