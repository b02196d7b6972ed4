/**
 * The runtime settings of a model inside a browser worker: models and ONNX Runtime's WASM files come from the
 * app's own origin; WASM uses every core when the page is cross-origin isolated.
 *
 * ONNX Runtime Web ships two builds the app serves (build/ort-assets.ts). The asyncify build is the one its
 * WebGPU support needs; the plain build runs only on the CPU, but it is half the size (14 vs 27 MB) and does
 * without asyncify's instrumentation of every call, so a model loads and runs faster with it (`npm run bench
 * build`). A worker uses the asyncify build only where a WebGPU adapter exists.
 */

/** How to reach models and ONNX Runtime's files; set once per process before the first model loads. */
export interface RuntimeConfig {
  /** Base of self-hosted models: a URL path in browsers (`/models/`), a folder in Node. */
  localModelPath: string;
  /** URLs of ORT-web's asyncify `.mjs` and `.wasm` on the app's origin (browsers only). */
  wasmPaths?: { mjs: string; wasm: string };
  /** WASM threads; more than 1 needs cross-origin isolation. */
  numThreads?: number;
  /** Use Cache Storage for downloaded files (browsers). Default: the library's (true in browsers). */
  useBrowserCache?: boolean;
  /**
   * Whether transformers.js fetches ONNX Runtime's WASM itself, whole, and keeps a copy in Cache Storage before
   * ONNX Runtime compiles it from memory (the library's default, true in browsers). False: ONNX Runtime compiles
   * it while it downloads (`WebAssembly.instantiateStreaming`), and the browser's own caches keep it.
   */
  useWasmCache?: boolean;
  /** URL of llama.cpp's WebAssembly (wllama.wasm) on the app's origin, for GGUF models (browsers only). */
  llamaCppWasmUrl?: string;
  /**
   * Most summaries the built-in model writes together on the CPU (transformers-generator.ts,
   * DEFAULT_CPU_BATCH_SIZE when unset; the benchmark sweeps it).
   */
  generationBatchSize?: number;
}

/** Where the app serves ORT-web's files (see build/ort-assets.ts). */
const ORT_PATH = 'ort/';
/** Where the app serves llama.cpp's WebAssembly (build/wllama-assets.ts). */
const LLAMA_CPP_WASM = 'wllama/wllama.wasm';
/** Where self-hosted models live under the app's base URL (public/models/). */
const MODELS_PATH = 'models/';
/** File-name infix of each ORT-web build (`ort-wasm-simd-threaded<infix>.{mjs,wasm}`). */
export const ORT_BUILDS = { webgpu: '.asyncify', cpu: '' } as const;

/**
 * Runtime settings for a worker of the app served at `baseUrl` (Vite's `import.meta.env.BASE_URL`).
 * @param options.webgpu whether this worker may run models on WebGPU (a WebGPU adapter exists): then ORT's
 *   asyncify build, which WebGPU needs; otherwise the CPU-only plain build. Default true (the asyncify build
 *   runs either way).
 */
export function browserRuntime(baseUrl: string, options: { webgpu?: boolean } = {}): RuntimeConfig {
  const scope = globalThis as {
    location?: { origin: string };
    crossOriginIsolated?: boolean;
    navigator?: { hardwareConcurrency?: number };
  };
  const root = new URL(baseUrl, scope.location?.origin ?? 'http://localhost/');
  const threads = scope.crossOriginIsolated ? Math.max(1, scope.navigator?.hardwareConcurrency ?? 1) : 1;
  const file = `ort-wasm-simd-threaded${options.webgpu === false ? ORT_BUILDS.cpu : ORT_BUILDS.webgpu}`;
  return {
    localModelPath: new URL(MODELS_PATH, root).pathname,
    wasmPaths: {
      mjs: new URL(`${ORT_PATH}${file}.mjs`, root).href,
      wasm: new URL(`${ORT_PATH}${file}.wasm`, root).href,
    },
    numThreads: threads,
    // The plain build streams: the app's service worker keeps ORT's files offline already (build/pwa.ts), and a
    // second copy in Cache Storage cost each model worker a 14 MB download whole and write before its compile
    // could start (docs/build-time.md). The asyncify build keeps the library's way: streamed, the WebGPU harness
    // pages' loads hung (2026-11-30, not taken apart).
    ...(options.webgpu === false ? { useWasmCache: false } : {}),
    llamaCppWasmUrl: new URL(LLAMA_CPP_WASM, root).href,
  };
}
