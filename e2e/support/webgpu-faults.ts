/**
 * WebGPU faults injected into the app's real workers, for the browser tests of the fallbacks: the workers'
 * scripts are served with a prelude (webgpu-fault-prelude.js, by a route of the browser context) that wraps
 * Chromium's real WebGPU objects before any app code runs. Nothing in the app knows about it.
 *
 * - `request-device`: `GPUAdapter.requestDevice` rejects (as when a driver refuses a device).
 * - `lose-device`: the device is destroyed after `afterSubmits` queue submissions (a GPU reset mid-work).
 * - `out-of-memory`: after `afterSubmits` submissions WebGPU reports a GPUOutOfMemoryError (as an event, as
 *   WebGPU does: a silent one unless someone listens).
 * - `unsupported-operator`: creating a shader whose WGSL contains `marker` reports a GPUValidationError (an
 *   operator this adapter cannot compile).
 * - `wrong-numbers`: every float buffer uploaded with `writeBuffer` is scaled by 1.5 (an adapter or driver that
 *   computes wrong numbers).
 * - `hardware-adapter`: the adapter says it is not the software fallback (a GPU, for `auto`'s choice), with
 *   `name` as its vendor; no fault.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext } from '@playwright/test';

/** One injected fault. */
export type GpuFaultInjection =
  | { kind: 'request-device' }
  | { kind: 'lose-device'; afterSubmits: number }
  | { kind: 'out-of-memory'; afterSubmits: number }
  | { kind: 'unsupported-operator'; marker: string }
  | { kind: 'wrong-numbers' }
  | { kind: 'hardware-adapter' };

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
 * Serves every model worker's script with the fault's prelude in `context` (for pages opened afterwards; a
 * worker already running keeps its script).
 */
export async function injectGpuFault(context: BrowserContext, fault: GpuFaultInjection): Promise<void> {
  await context.route(WORKER_SCRIPTS, async (route) => {
    const response = await route.fetch();
    const script = await response.text();
    await route.fulfill({ response, body: prelude(fault) + script });
  });
}
