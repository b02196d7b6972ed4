/**
 * The runtime settings of the embedder inside a browser worker: models and ONNX Runtime's WASM files come
 * from the app's own origin; WASM uses every core when the page is cross-origin isolated.
 */
import type { RuntimeConfig } from './embedder';

/** Where the app serves ORT-web's files (see build/ort-assets.ts). */
const ORT_PATH = 'ort/';
/** Where self-hosted models live under the app's base URL (public/models/). */
const MODELS_PATH = 'models/';
const ORT_MJS = 'ort-wasm-simd-threaded.asyncify.mjs';
const ORT_WASM = 'ort-wasm-simd-threaded.asyncify.wasm';

/** Runtime settings for a worker of the app served at `baseUrl` (Vite's `import.meta.env.BASE_URL`). */
export function browserRuntime(baseUrl: string): RuntimeConfig {
  const scope = globalThis as {
    location?: { origin: string };
    crossOriginIsolated?: boolean;
    navigator?: { hardwareConcurrency?: number };
  };
  const root = new URL(baseUrl, scope.location?.origin ?? 'http://localhost/');
  const threads = scope.crossOriginIsolated ? Math.max(1, scope.navigator?.hardwareConcurrency ?? 1) : 1;
  return {
    localModelPath: new URL(MODELS_PATH, root).pathname,
    wasmPaths: { mjs: new URL(ORT_PATH + ORT_MJS, root).href, wasm: new URL(ORT_PATH + ORT_WASM, root).href },
    numThreads: threads,
  };
}
