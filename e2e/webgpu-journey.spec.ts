/**
 * The journey a GPU user takes, on the production build, in a Chromium that offers a WebGPU adapter (project
 * 'webgpu'): device "Automatic" puts the embedding model on WebGPU, the sample builds there (the build card, the
 * library row and Statistics say so), and a question gets a streamed answer with citations from the FAKE LLM server
 * (the one stand-in allowed). The adapter here is SwiftShader, the browser's software fallback, which `auto`
 * rightly refuses; the worker is told the adapter is not a fallback (e2e/support/webgpu-faults.ts,
 * 'hardware-adapter', no fault), as a machine with a GPU would say, so `auto`'s own choice is what runs.
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

const llm = fakeLlmForFile();

test('device auto on a WebGPU browser: the sample builds on WebGPU, said everywhere; a streamed, cited answer', async ({
  page,
  context,
}) => {
  test.setTimeout(600_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await injectGpuFault(context, { kind: 'hardware-adapter' });
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
  expectOnlyLocalRequests(urls);
});
