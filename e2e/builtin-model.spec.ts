/**
 * The built-in model (issue 11) in Chromium, with no server at all, on each of its runtimes: real transformers.js
 * on ONNX Runtime's WASM backend, and real llama.cpp in WebAssembly (wllama; issue 27), in the generate worker,
 * with the committed random-weight Qwen2 (local:aerie-tiny-qwen2, and its GGUF copy) and the committed GloVe
 * embedder, real IndexedDB, the CSP guard on, the production build. Chosen in Settings, the model writes the sample's summaries
 * (the tree's record names it; the summaries are generated, not sentences of the document), the build shows the
 * model's load, its expected time from the warm-up and its tokens/s; after a reload it answers a question,
 * streamed, with its [n] citations rendered as the endpoint's answers are. The tiny model writes gibberish:
 * structure is checked, not content. And with the hub unreachable, a hub model falls back to the extractive
 * summariser and the answer says why, with the passages still shown.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parseCitations } from '../src/llm';
import { TEST_GENERATOR_ID, TEST_GGUF_GENERATOR_ID } from '../src/models/generate/generator-presets';
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import {
  addSample,
  ask,
  expectOnlyLocalRequests,
  libraryRow,
  listedPassages,
  recordRequests,
  shoot,
} from './support/app';
import { expect, test } from './support/fixtures';

const SAMPLE = readFileSync(new URL('../tests/fixtures/cinderella.txt', import.meta.url), 'utf8');
/** The test model in each runtime: its id, name, tag, how answers name its runtime, and its screenshots' prefix. */
const RUNTIMES = [
  {
    id: TEST_GENERATOR_ID,
    name: 'Aerie tiny test model',
    weights: 'q8',
    runtime: 'ONNX Runtime, wasm, q8',
    /** The answer's line names where it ran: WASM with the threads it got (as many as the machine's cores). */
    usage: /\(ONNX Runtime, WASM \(\d+ threads?, cross-origin isolated\), q8\) at /,
    shots: 'builtin-model',
    /** How the warm-up's estimate ends: ONNX Runtime writes summaries together. */
    estimateEnd: /writes \d[\d.,]* tokens\/s \(8 summaries at a time\)\.$/,
  },
  {
    id: TEST_GGUF_GENERATOR_ID,
    name: 'Aerie tiny test model (GGUF)',
    weights: 'q8_0',
    runtime: 'llama.cpp, q8_0, 2 threads',
    usage: /\(llama\.cpp, WASM \(\d+ threads?, cross-origin isolated\), q8_0\) at /,
    shots: 'builtin-model-llama-cpp',
    /** llama.cpp writes one summary at a time. */
    estimateEnd: /writes \d[\d.,]* tokens\/s\.$/,
  },
] as const;
/** A hub model that is not a preset (the user types its id). */
const HUB_MODEL = 'onnx-community/SmolLM2-135M-Instruct';

/** Settings: the offline embedder, and the built-in model `model` for summaries and answers. */
async function useBuiltin(page: Page, model: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Embedding model').selectOption(OFFLINE_MODEL_ID);
  const summaries = dialog.getByRole('group', { name: 'Summarization', exact: true });
  await summaries.getByLabel('LLM for summaries').selectOption('builtin');
  // Choosing the built-in model is choosing LLM summaries.
  await expect(summaries.getByLabel('Summarize with an LLM')).toBeChecked();
  const builtin = dialog.getByRole('group', { name: 'Built-in model (runs in this browser)' });
  const picker = builtin.getByLabel('Built-in model', { exact: true });
  if (model === TEST_GENERATOR_ID || model === TEST_GGUF_GENERATOR_ID) {
    await picker.selectOption(model);
  } else {
    await picker.selectOption('custom');
    await builtin.getByLabel('Language model id').fill(model);
  }
  const answering = dialog.getByRole('group', { name: 'Answering' });
  await expect(answering.getByLabel('Same as summarization (the built-in model)')).toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** The tree record and its summary nodes' texts, read from the app's IndexedDB. */
async function storedTree(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ summarizer: { kind: string; model?: string }; summaries: string[] }>(
        (resolve, reject) => {
          const open = indexedDB.open('aerie');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction(['trees', 'nodes'], 'readonly');
            const trees = tx.objectStore('trees').getAll();
            const nodes = tx.objectStore('nodes').getAll();
            tx.oncomplete = () => {
              const tree = (trees.result as { id: string; summarizer: { kind: string } }[])[0];
              const all = nodes.result as { treeId: string; layer: number; text: string }[];
              resolve({
                summarizer: tree.summarizer,
                summaries: all.filter((n) => n.treeId === tree.id && n.layer > 0).map((n) => n.text),
              });
              open.result.close();
            };
          };
        },
      ),
  );
}

for (const model of RUNTIMES) {
  test(`built-in model on ${model.runtime.split(',')[0]}: build the sample with its summaries → reload → a streamed answer with citations`, async ({
    page,
    context,
  }) => {
    // A loaded two-core machine running another test beside this one: the llama.cpp answer (a 2,000-token prompt
    // read by the tiny model on WASM) took 120 s and more there.
    test.setTimeout(900_000);
    const urls = recordRequests(context);
    await page.goto('/');
    await useBuiltin(page, model.id);
    await expect(page.locator('.build-hint')).toContainText(
      `Summaries by the built-in model ${model.name}, in this browser`,
    );

    await addSample(page);
    await page.getByRole('button', { name: 'Build tree' }).click();
    const progress = page.getByRole('region', { name: 'Build progress' });
    // Timeouts are generous: the machine's two cores may be shared with other work.
    await expect(progress.getByRole('progressbar', { name: 'Loading the language model' })).toBeAttached({
      timeout: 240_000,
    });
    // Before the first summary: the expected time on this device, from the measured warm-up.
    const estimate = progress.getByText(/^Expected on this device: about .+ measured by a warm-up/);
    await expect(estimate).toBeVisible({ timeout: 240_000 });
    // It names where the warm-up ran: this Chromium has no GPU, so WASM, with its threads.
    await expect(estimate).toContainText(
      /measured by a warm-up on WASM \(\d+ threads?, (cross-origin isolated|not isolated)\): reads/,
    );
    await expect(estimate).toHaveText(model.estimateEnd);
    // While (and after) it writes: its tokens/s.
    await expect(progress.getByText(/^Built-in model writing at \d[\d.,]* tokens\/s/)).toBeVisible({
      timeout: 240_000,
    });
    await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
      timeout: 400_000,
    });
    await shoot(page, `${model.shots}-build`);

    // The tree records which model wrote its summaries, and every place says so.
    await expect(
      libraryRow(page, 'cinderella').getByText(`Summaries: ${model.name} (built-in model, ${model.weights})`),
    ).toBeVisible();
    const stored = await storedTree(page);
    // A random-weight model often writes past the 100-token budget in cl100k tokens: those summaries are cut
    // at a sentence end, and the tree counts them (issue 24).
    expect(stored.summarizer).toMatchObject({ kind: 'llm', model: `builtin:${model.id}@${model.weights}` });
    const cuts = (stored.summarizer as { cuts?: { of: number; budget: number } }).cuts;
    if (cuts) expect(cuts).toMatchObject({ of: stored.summaries.length, budget: 100 });
    expect(stored.summaries.length).toBeGreaterThan(0);
    for (const text of stored.summaries) {
      expect(text.trim().length).toBeGreaterThan(0);
      // Written by generation: an extractive summary would be sentences of the document itself.
      expect(SAMPLE.includes(text)).toBe(false);
    }

    // Reload: the tree is still there; open it and ask.
    await page.reload();
    await libraryRow(page, 'cinderella')
      .getByRole('button', { name: /^Open cinderella/ })
      .click();
    await ask(page, 'Who helped Cinderella go to the ball?');
    const answer = page.locator('section.answer');
    await expect(answer).toBeVisible();
    // Streamed: the answer is marked busy while the text arrives, then done.
    await expect(answer.locator('.answer-text')).toHaveAttribute('aria-busy', 'false', { timeout: 300_000 });
    await expect(answer.locator('.answer-usage')).toContainText(`written in this browser by ${model.name} (`);
    await expect(answer.locator('.answer-usage')).toContainText(model.usage);
    await expect(answer.locator('.answer-usage')).toContainText(/ at \d[\d.,]* tokens\/s/);
    const text = (await answer.locator('.answer-text').innerText()).trim();
    expect(text.length).toBeGreaterThan(0);
    test.info().annotations.push({ type: 'answer', description: text.slice(0, 300) });
    // Citations are rendered exactly as for endpoint answers: every [n] the parser finds is a button to node n.
    const passages = await listedPassages(page, 'collapsed');
    expect(passages.length).toBeGreaterThan(0);
    const expected = parseCitations(text, passages.length).map(
      (i) => `Citation ${i + 1}: open node ${passages[i]}`,
    );
    const rendered = await answer
      .locator('button.answer-cite')
      .evaluateAll((els) => [...new Set(els.map((el) => el.getAttribute('aria-label')))]);
    expect(rendered).toEqual(expected);
    await shoot(page, `${model.shots}-answer`);

    expectOnlyLocalRequests(urls);
  });
}

test('built-in hub model with the hub unreachable: extractive summaries, a clear message, nothing lost', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  const urls = recordRequests(context);
  await page.goto('/');
  await useBuiltin(page, HUB_MODEL);
  await addSample(page);
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect(page.getByText('Summaries by the extractive summarizer')).toBeVisible({ timeout: 120_000 });
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
    timeout: 180_000,
  });
  await expect(
    libraryRow(page, 'cinderella').getByText(
      `Summaries: extractive (the built-in model ${HUB_MODEL} could not be downloaded)`,
    ),
  ).toBeVisible();
  expect((await storedTree(page)).summarizer).toEqual({ kind: 'extractive', fallbackFrom: HUB_MODEL });

  // Answering with the unreachable model says why, and the retrieved passages stay on screen.
  await ask(page, 'Who helped Cinderella go to the ball?');
  await expect(page.locator('section.answer')).toContainText('could not be reached');
  expect((await listedPassages(page, 'collapsed')).length).toBeGreaterThan(0);

  const foreign = urls.filter((u) => !/^(data:|blob:|https?:\/\/(127\.0\.0\.1|localhost)[:/])/.test(u));
  expect(foreign.length).toBeGreaterThan(0);
  for (const u of foreign) expect(new URL(u).hostname).toBe('huggingface.co');
});
