/**
 * GGUF model ids and what llama.cpp in WebAssembly (@wllama/wllama) needs from the browser. A built-in model
 * whose id names a `.gguf` file runs on llama.cpp; any other id runs on transformers.js (ONNX). No model code
 * here: the page imports this to describe a choice.
 *
 * - `owner/repo/file.gguf` (the file may sit in a folder of the repo): a file on the Hugging Face hub,
 *   downloaded from `https://huggingface.co/owner/repo/resolve/main/file.gguf` once and cached.
 * - `local:folder/file.gguf`: a file the app serves itself under `/models/folder/file.gguf`.
 */
import { locateModel } from '../embed/embedding-presets';

/** Cache Storage bucket of downloaded GGUF files (llama-cpp-generator.ts keeps them; Settings lists them). */
export const GGUF_CACHE = 'aerie-gguf-v1';

/** The hub's download URL for a file of a repository (its main branch). */
export const HUB_FILE_URL = (repo: string, path: string) =>
  `https://huggingface.co/${repo}/resolve/main/${path}`;

/** True when `model` names a GGUF file (a llama.cpp model). */
export function isGgufModel(model: string): boolean {
  return /\.gguf$/i.test(model.trim());
}

/**
 * The weights' type as a GGUF file name says it (`qwen2.5-0.5b-instruct-q8_0.gguf` → `q8_0`,
 * `…-Q4_K_M.gguf` → `q4_k_m`), lower case; `gguf` when the name does not say.
 */
export function ggufQuant(model: string): string {
  const name = model.split('/').pop() ?? model;
  const match = /(?:^|[-_.])((?:i?q\d(?:_[0-9a-z]+)*)|f16|bf16|f32)\.gguf$/i.exec(name);
  return match ? match[1].toLowerCase() : 'gguf';
}

/**
 * Where a GGUF model id's file is downloaded from: the hub's URL, or the app's own `localModelPath` (a URL path
 * such as `/models/`). Undefined for ids that are not GGUF files or name no file in a repository.
 */
export function ggufUrl(model: string, localModelPath: string): string | undefined {
  if (!isGgufModel(model)) return undefined;
  const location = locateModel(model.trim());
  if (location.kind === 'local') return `${localModelPath.replace(/\/?$/, '/')}${location.folder}`;
  if (location.kind !== 'hub') return undefined;
  const parts = location.repo.split('/');
  if (parts.length < 3 || parts.some((p) => !p)) return undefined;
  return HUB_FILE_URL(parts.slice(0, 2).join('/'), parts.slice(2).join('/'));
}

/** What llama.cpp's WebAssembly build (wllama) needs, as this realm offers it. */
export interface LlamaCppSupport {
  /** Every required feature is there: llama.cpp can run. */
  ok: boolean;
  /** The required features this browser lacks, named for people (empty when `ok`). */
  missing: string[];
  /** Threads are possible (cross-origin isolated, SharedArrayBuffer); otherwise it runs on one core. */
  threads: boolean;
}

/** A module that uses a SIMD instruction (v128.const), checked by `WebAssembly.validate`. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
]);
/** A module with a `try … end` block (native WebAssembly exception handling). */
const EXCEPTIONS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11,
]);

interface WasmLike {
  validate(bytes: Uint8Array): boolean;
  Memory: new (descriptor: Record<string, unknown>) => unknown;
  Suspending?: unknown;
}

function memory64(wasm: WasmLike): boolean {
  try {
    new wasm.Memory({ address: 'i64', initial: 1n });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks what llama.cpp's WebAssembly build needs: SIMD, exception handling, 64-bit memory (memory64) and
 * JavaScript Promise Integration (JSPI, which lets it read the model file while it loads), plus whether threads
 * are possible. Never throws.
 */
export function probeLlamaCpp(scope: object = globalThis): LlamaCppSupport {
  const realm = scope as {
    WebAssembly?: WasmLike;
    crossOriginIsolated?: boolean;
    SharedArrayBuffer?: unknown;
  };
  const wasm = realm.WebAssembly;
  if (!wasm) return { ok: false, missing: ['WebAssembly'], threads: false };
  const missing: string[] = [];
  const check = (name: string, test: () => boolean) => {
    try {
      if (!test()) missing.push(name);
    } catch {
      missing.push(name);
    }
  };
  check('WebAssembly SIMD', () => wasm.validate(SIMD_PROBE));
  check('WebAssembly exception handling', () => wasm.validate(EXCEPTIONS_PROBE));
  check('WebAssembly 64-bit memory (memory64)', () => memory64(wasm));
  check('JavaScript Promise Integration (JSPI)', () => typeof wasm.Suspending === 'function');
  const threads = !!realm.crossOriginIsolated && typeof realm.SharedArrayBuffer === 'function';
  return { ok: missing.length === 0, missing, threads };
}
