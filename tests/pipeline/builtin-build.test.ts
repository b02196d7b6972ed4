/**
 * The whole core path with the built-in model, in Node: the sample is chunked, embedded (the committed GloVe
 * model), clustered and summarised by the committed random-weight Qwen2 through transformers.js with the
 * paper's prompt; the tree is stored in IndexedDB (FAKE IndexedDB, fake-indexeddb), read back through a new
 * connection, searched, and a question is answered by the same model with [n] citations. The model writes
 * gibberish: what is checked is that every piece arrives where it belongs, within its budgets.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTree } from '../../src/core/build';
import { retrieve } from '../../src/core/search';
import { countTokens } from '../../src/core/text';
import { serializeTree } from '../../src/core/tree-format';
import type { EmbedFn, RaptorTree } from '../../src/core/types';
import {
  answerWithBuiltin,
  createBuiltinSummarizer,
  parseCitations,
  type LlmSummarizer,
} from '../../src/llm';
import { configureRuntime, TransformersEmbedder } from '../../src/models/embed';
import type { GeneratedReply } from '../../src/models/generate';
import { planSummaryRange } from '../../src/models/generate/generation-speed';
import { TEST_GENERATOR_ID } from '../../src/models/generate/generator-presets';
import { TransformersGenerator } from '../../src/models/generate';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { splitRows } from '../../src/models/embed/rows';
import { importTree, loadTree } from '../../src/storage';
import { openFixture } from '../support/storage-fixture';

const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
const SAMPLE = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');
const SUMMARY_TOKENS = 100;
const QUESTION = 'Who helped Cinderella go to the ball?';

let generator: TransformersGenerator;
let embed: EmbedFn;
let summarize: LlmSummarizer;
const replies: GeneratedReply[] = [];
let tree: RaptorTree;

beforeAll(async () => {
  configureRuntime({ localModelPath: MODELS });
  const embedder = await TransformersEmbedder.load(OFFLINE_MODEL_ID, { dtype: 'q8' });
  embed = async (texts) => splitRows(await embedder.embed(texts));
  generator = await TransformersGenerator.load({ model: TEST_GENERATOR_ID, device: 'cpu', dtype: 'q8' });
  summarize = createBuiltinSummarizer(generator, { onReply: (r) => replies.push(r) });
  tree = await buildTree(
    [{ id: 'cinderella', name: 'cinderella.txt', text: SAMPLE }],
    { embed, summarize },
    {
      title: 'Cinderella',
      embeddingModel: OFFLINE_MODEL_ID,
      summarizer: summarize.info,
      summaryTokens: SUMMARY_TOKENS,
      concurrency: 2,
    },
  );
}, 300_000);

describe('a tree of the sample summarised by the built-in model', () => {
  it('has summaries, each written by the model within the summary budget', () => {
    const summaries = tree.nodes.filter((n) => n.layer > 0);
    expect(summaries.length).toBeGreaterThan(0);
    expect(replies.length).toBe(summaries.length);
    for (const reply of replies) {
      expect(reply.completionTokens).toBeGreaterThan(0);
      expect(reply.completionTokens).toBeLessThanOrEqual(SUMMARY_TOKENS);
    }
    const written = replies.map((r) => r.text.trim());
    for (const node of summaries) {
      expect(node.text.trim().length).toBeGreaterThan(0);
      expect(countTokens(node.text)).toBeLessThanOrEqual(SUMMARY_TOKENS);
      // A reply longer than the budget in cl100k tokens is cut at a sentence end (or between words, with "…").
      if (summarize.isCut(node.text)) {
        expect(written.some((w) => w.startsWith(node.text.replace(/…$/, '')) && w !== node.text)).toBe(true);
      } else {
        expect(written).toContain(node.text);
      }
      expect(node.children.length).toBeGreaterThan(0);
    }
    expect(summarize.usage.snapshot()).toMatchObject({ requests: summaries.length, unreported: 0 });
  });

  it('records which model wrote its summaries', () => {
    expect(tree.summarizer).toEqual({ kind: 'llm', model: 'builtin:local:aerie-tiny-qwen2@q8' });
    expect(tree.params.summaryTokens).toBe(SUMMARY_TOKENS);
  });

  it('asked for a number of summaries within the range planned before the build', () => {
    const leaves = tree.nodes.filter((n) => n.layer === 0);
    const range = planSummaryRange(
      leaves.length,
      leaves.reduce((sum, n) => sum + n.tokens, 0),
      { summaryTokens: SUMMARY_TOKENS },
    );
    expect(replies.length).toBeGreaterThanOrEqual(range.fewest.summaries);
    expect(replies.length).toBeLessThanOrEqual(range.most.summaries);
    expect(range.likely.summaries).toBeGreaterThanOrEqual(range.fewest.summaries);
  });

  it('is stored, read back through a new connection, and answers a question with citations', async () => {
    const fixture = await openFixture({ empty: true });
    const id = await importTree(fixture.db, serializeTree(tree));
    const stored = await loadTree(await fixture.open(), id);
    expect(stored.summarizer).toEqual(tree.summarizer);
    expect(stored.nodes.map((n) => n.text)).toEqual(tree.nodes.map((n) => n.text));

    const [query] = await embed([QUESTION]);
    const found = retrieve(stored, query, { mode: 'collapsed', maxTokens: 600 });
    const passages = found.nodes.map((n) => stored.nodes[n.id].text);
    expect(passages.length).toBeGreaterThan(1);
    const deltas: string[] = [];
    const answer = await answerWithBuiltin(generator, {
      question: QUESTION,
      passages,
      maxTokens: 48,
      onDelta: (d) => deltas.push(d),
    });
    expect(deltas.join('')).toBe(answer.text);
    expect(answer.text.trim().length).toBeGreaterThan(0);
    expect(answer.citations).toEqual(parseCitations(answer.text, passages.length));
    expect(answer.usage).toMatchObject({ completionTokens: 48, requests: 1 });
    expect(answer.model).toBe(TEST_GENERATOR_ID);
  });
});
