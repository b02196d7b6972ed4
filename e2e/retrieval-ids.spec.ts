/**
 * Retrieval in the browser selects the nodes an independent reference selects. The official RAPTOR Cinderella
 * tree (OpenAI ada-002 embeddings) is imported; an embeddings endpoint (the FAKE LLM server, replying with a
 * recorded ada-002-sized query vector) embeds the question; "Compare modes" retrieves in all three modes. The
 * ids listed and highlighted must equal:
 * - collapsed tree and tree traversal: the official TreeRetriever's selections for that vector
 *   (tests/fixtures/official-retrieval-cases.json, written by scripts/reference/official_retrieval.py);
 * - leaves only: a brute-force ranking computed here (cosine to every leaf, best first, ties by id) filled to
 *   2,000 tokens counted by OpenAI's tiktoken (tests/fixtures/chunk/cl100k-counts.json), stopping at the first
 *   leaf that does not fit, as the paper's baseline and the official collapsed rule do.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../tests/support/llm-server';
import {
  expectOnlyLocalRequests,
  highlighted,
  listedPassages,
  recordRequests,
  treeItems,
} from './support/app';

const TREE_FILE = 'tests/fixtures/official-cinderella-tree.json';
const EMBEDDING_MODEL = 'text-embedding-ada-002';
/** The app's default budget of collapsed and leaves-only retrieval (the paper's 2,000 tokens). */
const MAX_TOKENS = 2000;

interface Case {
  name: string;
  vector?: number[];
  results: Record<string, { ids: number[] }>;
}
const cases = (
  JSON.parse(readFileSync('tests/fixtures/official-retrieval-cases.json', 'utf8')) as { queries: Case[] }
).queries;
const tree = JSON.parse(readFileSync(TREE_FILE, 'utf8')) as {
  nodes: { id: number; layer: number; embedding: number[] }[];
};
const tiktokenCounts = new Map(
  (
    JSON.parse(readFileSync('tests/fixtures/chunk/cl100k-counts.json', 'utf8')) as {
      officialTree: { id: number; tokens: number }[];
    }
  ).officialTree.map((c) => [c.id, c.tokens]),
);

/** Leaves-only retrieval computed from its definition (float32 vectors, as stored and as the app reads them). */
function expectedLeaves(vector: number[]): number[] {
  const q = Float32Array.from(vector);
  const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
  const scored = tree.nodes
    .filter((n) => n.layer === 0)
    .map((n) => {
      const e = Float32Array.from(n.embedding);
      let dot = 0;
      for (let i = 0; i < e.length; i++) dot += q[i] * e[i];
      return { id: n.id, score: dot / (norm(q) * norm(e)) };
    })
    .sort((a, b) => b.score - a.score || a.id - b.id);
  const chosen: number[] = [];
  let total = 0;
  for (const { id } of scored) {
    const tokens = tiktokenCounts.get(id)!;
    if (total + tokens > MAX_TOKENS) break;
    chosen.push(id);
    total += tokens;
  }
  return chosen;
}

let llm: FakeLlmServer;
test.beforeAll(async () => {
  llm = await startFakeLlmServer({ models: [EMBEDDING_MODEL] });
});
test.afterAll(async () => {
  await llm.close();
});

async function setEmbeddingsEndpoint(page: Page, baseUrl: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.getByRole('group', { name: 'Embeddings endpoint (optional)' });
  await section.getByLabel('Endpoint URL').fill(baseUrl);
  await section.getByLabel('Model').fill(EMBEDDING_MODEL);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('questions on the official tree retrieve exactly the ids an independent reference selects', async ({
  page,
  context,
}) => {
  const urls = recordRequests(context);
  await page.goto('/');
  await page
    .getByRole('region', { name: 'Library' })
    .getByLabel('Tree file to import')
    .setInputFiles(TREE_FILE);
  await expect(page.getByText(/^Imported/)).toBeVisible();
  await expect(await treeItems(page)).toHaveCount(40);
  await setEmbeddingsEndpoint(page, llm.openaiBaseUrl);
  // The official TreeRetriever ranks by meaning alone; each question starts a topic of its own.
  await page.getByRole('radio', { name: 'Meaning' }).check();

  const questions: [string, string][] = [
    ['random-0', 'Who helped Cinderella go to the ball?'],
    ['pair-2-21', 'What happened when the prince came looking for the owner of the slipper?'],
  ];
  for (const [caseName, question] of questions) {
    const recorded = cases.find((c) => c.name === caseName)!;
    const vector = recorded.vector!;
    const expected = {
      collapsed: recorded.results['collapsed-2000'].ids,
      traversal: recorded.results['traversal-default'].ids,
      leaves: expectedLeaves(vector),
    };
    // The three selections differ, so a mode showing another mode's ids cannot pass.
    expect(new Set(Object.values(expected).map(String)).size).toBe(3);
    expect(expected.leaves.every((id) => tree.nodes[id].layer === 0)).toBe(true);

    llm.reset();
    llm.enqueue({
      kind: 'raw',
      contentType: 'application/json',
      body: JSON.stringify({
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: vector }],
        model: EMBEDDING_MODEL,
        usage: { prompt_tokens: 9, total_tokens: 9 },
      }),
    });
    await page.getByLabel('Question', { exact: true }).fill(question);
    const followUp = page.getByRole('checkbox', { name: /Follow-up to the questions before/ });
    if (await followUp.isVisible()) await followUp.uncheck();
    await page.getByRole('button', { name: 'Compare modes' }).click();
    await expect(page.locator('.ask-results-question')).toHaveText(question);

    // The question went to the embeddings endpoint with the tree's model.
    const sent = llm.modelRequests.filter((r) => r.path === '/v1/embeddings');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ model: EMBEDDING_MODEL, input: [question] });

    for (const [mode, label] of [
      ['collapsed', 'Collapsed tree'],
      ['traversal', 'Tree traversal'],
      ['leaves', 'Leaves only'],
    ] as const) {
      await page.getByRole('tab', { name: new RegExp(label) }).click();
      await expect
        .poll(() => listedPassages(page, mode), { message: `${caseName}, ${mode}` })
        .toEqual(expected[mode]);
      expect((await highlighted(page, mode)).sort((a, b) => a - b)).toEqual(
        [...expected[mode]].sort((a, b) => a - b),
      );
    }
  }
  expectOnlyLocalRequests(urls);
});
