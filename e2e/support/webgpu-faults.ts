/**
 * WebGPU faults injected into the app's real workers, for the browser tests of the fallbacks: the workers'
 * scripts are served with a prelude (webgpu-fault-prelude.js, by a route of the browser context) that wraps
 * Chromium's real WebGPU objects before any app code runs. Nothing in the app knows about it.
 *
 * - `request-device`: `GPUAdapter.requestDevice` rejects (as when a driver refuses a device).
 * - `lose-device`: once the `afterReadbacks`-th result has been read back from the GPU, the device is destroyed
 *   as the next work is submitted (a GPU reset between two runs of a model; each run reads its output back once).
 * - `out-of-memory`: at the same point WebGPU reports a GPUOutOfMemoryError (as an event, as WebGPU does: a
 *   silent one unless someone listens).
 * - `unsupported-operator`: creating a shader whose WGSL contains `marker` reports a GPUValidationError (an
 *   operator this adapter cannot compile).
 * - `wrong-numbers`: every float buffer uploaded with `writeBuffer` is scaled by 1.5 (an adapter or driver that
 *   computes wrong numbers).
 * - `hardware-adapter`: the adapter says it is not the software fallback (a GPU, for `auto`'s choice), with
 *   `name` as its vendor; no fault.
 * - `claims-shader-f16`: the adapter says it has `shader-f16` (devices are made without it), in the app's worker
 *   only: a library that asks the real adapter in a worker of its own (llama.cpp's) finds none.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext } from '@playwright/test';

/** One injected fault. */
export type GpuFaultInjection =
  | { kind: 'request-device' }
  | { kind: 'lose-device'; afterReadbacks: number }
  | { kind: 'out-of-memory'; afterReadbacks: number }
  | { kind: 'unsupported-operator'; marker: string }
  | { kind: 'wrong-numbers' }
  | { kind: 'hardware-adapter' }
  | { kind: 'claims-shader-f16' };

/** The worker scripts that get the prelude: every worker that runs models (dev and built names). */
const WORKER_SCRIPTS =
  /\/(workers\/(embed|embed-helper|generate)\.worker\.ts|assets\/(embed|embed-helper|generate)\.worker-[^/]*\.js)(\?|$)/;

/** The prelude's code (plain JavaScript, read as it is). */
const PRELUDE = readFileSync(new URL('./webgpu-fault-prelude.js', import.meta.url), 'utf8');

/** The prelude for `fault`: its parameter, then the code. */
function prelude(fault: GpuFaultInjection): string {
  return `globalThis.aerieGpuFault = ${JSON.stringify(fault)};\n${PRELUDE}\n`;
}

/**
 * Serves every model worker's script with the fault's prelude in `context` (workers started afterwards; one
 * already running keeps its script). With a list, the n-th worker started gets the n-th fault (`null`: none),
 * the last one every worker after it. Routing turns the browser's HTTP cache off, so every worker start asks.
 */
export async function injectGpuFault(
  context: BrowserContext,
  faults: GpuFaultInjection | readonly (GpuFaultInjection | null)[],
): Promise<void> {
  const list = Array.isArray(faults) ? faults : [faults as GpuFaultInjection];
  let started = 0;
  await context.route(WORKER_SCRIPTS, async (route) => {
    const fault = list[Math.min(started++, list.length - 1)];
    const response = await route.fetch();
    const script = await response.text();
    await route.fulfill({ response, body: fault ? prelude(fault) + script : script });
  });
}
