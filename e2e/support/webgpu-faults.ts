/**
 * WebGPU faults injected into the app's real workers, for the browser tests of the fallbacks: the workers'
 * scripts are served with a prelude (webgpu-fault-prelude.js, by a CDP `Fetch` interception of the page) that wraps
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
import type { Page } from '@playwright/test';

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
 * Serves every model worker's script with the fault's prelude in `page`'s workers (workers started afterwards;
 * one already running keeps its script). With a list, the n-th worker started gets the n-th fault (`null`:
 * none), the last one every worker after it. The scripts are caught by Chromium's own request interception (a
 * CDP `Fetch` session of the page, at the response, for the worker scripts' URLs only), not by a Playwright
 * route: a route turns the browser's HTTP cache off for the whole context, and every worker start then fetched
 * and compiled ONNX Runtime's 27 MB WebAssembly anew.
 */
export async function injectGpuFault(
  page: Page,
  faults: GpuFaultInjection | readonly (GpuFaultInjection | null)[],
): Promise<void> {
  const list = Array.isArray(faults) ? faults : [faults as GpuFaultInjection];
  let started = 0;
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Fetch.requestPaused', (event) => {
    void (async () => {
      if (!WORKER_SCRIPTS.test(event.request.url) || event.responseStatusCode !== 200) {
        await cdp.send('Fetch.continueRequest', { requestId: event.requestId });
        return;
      }
      const fault = list[Math.min(started++, list.length - 1)];
      const { body, base64Encoded } = await cdp.send('Fetch.getResponseBody', { requestId: event.requestId });
      const script = base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      await cdp.send('Fetch.fulfillRequest', {
        requestId: event.requestId,
        responseCode: 200,
        responseHeaders: (event.responseHeaders ?? []).filter(
          (h) => !/^content-(length|encoding)$/i.test(h.name),
        ),
        body: Buffer.from(fault ? prelude(fault) + script : script).toString('base64'),
      });
    })().catch((error: unknown) => {
      // The page may close while a script is paused; anything else is the harness's own failure.
      if (!page.isClosed()) throw error;
    });
  });
  await cdp.send('Fetch.enable', {
    patterns: ['*/workers/*.worker.ts*', '*/assets/*.worker-*.js*'].map((urlPattern) => ({
      urlPattern,
      requestStage: 'Response' as const,
    })),
  });
}
