/**
 * The runtime settings of the app's model workers (browserRuntime), applied to transformers.js's shared `env`
 * in Node (configureRuntime): ONNX Runtime's WASM is left to the browser's caches (the service worker keeps it
 * offline), so no worker downloads it whole and copies it into Cache Storage before compiling it.
 */
import { env } from '@huggingface/transformers';
import { afterEach, describe, expect, it } from 'vitest';
import { browserRuntime } from '../../../src/models/device';
import { configureRuntime } from '../../../src/models/embed';

const before = { useWasmCache: env.useWasmCache, localModelPath: env.localModelPath };
afterEach(() => Object.assign(env, before));

describe('browserRuntime (transformers.js env in Node)', () => {
  it('has ONNX Runtime compile its WASM as it downloads, without a copy in Cache Storage', () => {
    const runtime = browserRuntime('/aerie/', { webgpu: false });
    expect(runtime.useWasmCache).toBe(false);
    expect(runtime.wasmPaths?.wasm).toMatch(/\/aerie\/ort\/ort-wasm-simd-threaded\.wasm$/);
    env.useWasmCache = true;
    configureRuntime(runtime);
    expect(env.useWasmCache).toBe(false);
  });

  it('leaves the library default alone when a runtime does not say (Node, tests)', () => {
    env.useWasmCache = true;
    configureRuntime({ localModelPath: '/models/' });
    expect(env.useWasmCache).toBe(true);
  });
});
