/**
 * The journey a GPU user takes, on the production build, in a Chromium that offers a WebGPU adapter (project
 * 'webgpu'): device "Automatic" puts the embedding model on WebGPU, the sample builds there (the build card, the
 * library row and Statistics say so), a question gets a streamed answer with citations from the FAKE LLM server
 * (the one stand-in allowed), a reranked question says its cross-encoder ran on WebGPU, and an evaluation run (its
 * questions embedded on WebGPU, answers from the stand-in) completes; then the build at 390 px wide. The adapter
 * here is SwiftShader, the browser's software fallback, which `auto` rightly refuses; the worker is told the
 * adapter is not a fallback (e2e/support/webgpu-faults.ts, 'hardware-adapter', no fault), as a machine with a
 * GPU would say, so `auto`'s own choice is what runs.
 */
import { expect, test } from './support/fixtures';
import {
  addSample,
  ask,
  configure,
  expectOnlyLocalRequests,
  fakeLlmForFile,
  libraryRow,
  recordRequests,
  shoot,
} from './support/app';
import { injectGpuFault } from './support/webgpu-faults';
import { TEST_RERANKER_ID } from '../src/models/embed/reranker-presets';

const llm = fakeLlmForFile();

test('device auto on a WebGPU browser: the sample builds on WebGPU, said everywhere; a streamed, cited answer; the reranker on WebGPU; an evaluation run', async ({
  page,
  context,
}) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await injectGpuFault(page, { kind: 'hardware-adapter' });
  const urls = recordRequests(context);
  await page.goto('/');
  await configure(page, llm);
  await addSample(page);
  await page.getByRole('button', { name: 'Build tree' }).click();
  const devices = page
    .getByRole('region', { name: 'Build progress' })
    .getByRole('status', { name: 'Where the models run' });
  // Every text on WebGPU: no move to the CPU, no fallback.
  await expect(devices).toHaveText(/^Embeddings ran on WebGPU \(google swiftshader\): \d+ texts\.$/, {
    timeout: 300_000,
  });
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
    timeout: 300_000,
  });
  await shoot(page, 'webgpu-build-1440');
  await expect(
    libraryRow(page, 'cinderella').getByText(/^Embeddings ran on WebGPU \(google swiftshader\)/),
  ).toBeVisible();

  await ask(page, 'What did Cinderella lose at the palace?', 'Collapsed tree');
  const answer = page.getByRole('region', { name: /^Answer/ });
  await expect(answer.getByRole('button', { name: /^Citation 1: open node \d+/ })).toBeVisible({
    timeout: 120_000,
  });
  // The question was embedded on WebGPU too, and the answer streamed from the endpoint.
  const answers = llm.modelRequests.filter((r) => r.path.endsWith('/chat/completions'));
  expect((answers.at(-1)!.body as { stream?: boolean }).stream).toBe(true);

  await test.step('the reranker runs on WebGPU too, and the results say so', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByLabel('Reranker model').fill(TEST_RERANKER_ID);
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings).toBeHidden();
    const panel = page.getByRole('region', { name: 'Ask' });
    await panel.getByRole('checkbox', { name: 'Rerank the best passages with a cross-encoder' }).check();
    await ask(page, 'Who tried on the golden slipper?', 'Collapsed tree');
    await expect(panel.getByRole('note').filter({ hasText: /^Reranked on / })).toHaveText(
      'Reranked on WebGPU (google swiftshader).',
      { timeout: 120_000 },
    );
    await expect(
      panel.locator('[data-mode="collapsed"] .passage-fact', { hasText: /^rerank -?\d/ }).first(),
    ).toBeVisible();
    await panel.getByRole('checkbox', { name: 'Rerank the best passages with a cross-encoder' }).uncheck();
  });

  await test.step('an evaluation run completes, its questions embedded on WebGPU', async () => {
    await page.getByRole('tab', { name: 'Evaluate' }).click();
    const evaluate = page.getByRole('tabpanel', { name: 'Evaluate' });
    await evaluate.getByLabel('Question set file').setInputFiles('tests/fixtures/eval/cinderella.jsonl');
    await expect(evaluate.getByText(/^cinderella\.jsonl: 8 questions read/)).toBeVisible();
    await evaluate.getByLabel(/^Answer with fake-model/).check();
    await evaluate.getByRole('button', { name: 'Run evaluation' }).click();
    const runs = evaluate.getByRole('region', { name: 'Runs' });
    await expect(runs.getByText('Done', { exact: true })).toBeVisible({ timeout: 180_000 });
    await expect(evaluate.getByRole('status', { name: 'Where the questions were embedded' })).toHaveText(
      'Questions embedded on WebGPU (google swiftshader): 8 questions.',
    );
    await expect(evaluate.getByRole('table', { name: /^Per mode/ }).getByRole('row')).not.toHaveCount(0);
    await expect(evaluate.getByRole('columnheader', { name: 'F1' })).toBeVisible();
  });

  await test.step('the built tree at 390 px wide, the build card saying WebGPU', async () => {
    await page.getByRole('tab', { name: 'Tree' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByRole('region', { name: 'Build progress' });
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByRole('status', { name: 'Where the models run' })).toBeInViewport();
    await shoot(page, 'webgpu-build-390');
  });
  expectOnlyLocalRequests(urls);
});
