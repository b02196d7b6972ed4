/**
 * Harness worker of dev/generate.html: the committed test decoder loaded straight through transformers.js (not the
 * app's generate service) on a chosen device, following a greedy path with each step's top-1 margin
 * (tests/support/greedy-path.ts), so a browser test can check on WASM the margin its fixture promises and compare
 * the devices' first logits.
 */
import '../src/rpc/errors';
import { AutoModelForCausalLM, env } from '@huggingface/transformers';
import { expose } from 'comlink';
import { browserRuntime } from '../src/models/device';
import { configureRuntime } from '../src/models/embed';
import { greedyPath } from '../tests/support/greedy-path';

configureRuntime(browserRuntime(import.meta.env.BASE_URL));
env.allowLocalModels = true;
env.allowRemoteModels = false;

/** `steps` greedy steps of the local model `folder` after `promptIds`, on `device` with `dtype` weights. */
async function follow(
  folder: string,
  device: 'webgpu' | 'wasm',
  dtype: 'fp32' | 'q4',
  promptIds: number[],
  steps: number,
): Promise<Awaited<ReturnType<typeof greedyPath>>> {
  const model = await AutoModelForCausalLM.from_pretrained(folder, { device, dtype });
  try {
    return await greedyPath(model, promptIds, steps);
  } finally {
    await model.dispose();
  }
}

const api = { follow };
/** The worker's API, for the harness page. */
export type GreedyPathApi = typeof api;
expose(api);
