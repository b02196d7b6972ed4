/**
 * GGUF model ids (which runtime, which weights, which URL) and the check of what llama.cpp's WebAssembly needs,
 * on fake WebAssembly objects (named as such) and on Node's real one.
 */
import { describe, expect, it } from 'vitest';
import { ggufQuant, ggufUrl, isGgufModel, probeLlamaCpp } from '../../../src/models/generate/gguf';

describe('GGUF ids', () => {
  it('tells GGUF files from ONNX repositories', () => {
    expect(isGgufModel('Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf')).toBe(true);
    expect(isGgufModel('local:aerie-tiny-qwen2/aerie-tiny-qwen2-f32.GGUF')).toBe(true);
    expect(isGgufModel('Qwen/Qwen2.5-0.5B-Instruct-GGUF')).toBe(false);
    expect(isGgufModel('onnx-community/Qwen2.5-0.5B-Instruct')).toBe(false);
  });

  it("reads the weights' type from the file name", () => {
    expect(ggufQuant('a/b/qwen2.5-0.5b-instruct-q8_0.gguf')).toBe('q8_0');
    expect(ggufQuant('a/b/Llama-3.2-1B-Instruct-Q4_K_M.gguf')).toBe('q4_k_m');
    expect(ggufQuant('a/b/model-IQ3_XS.gguf')).toBe('iq3_xs');
    expect(ggufQuant('a/b/model.f16.gguf')).toBe('f16');
    expect(ggufQuant('a/b/model.gguf')).toBe('gguf');
  });

  it("points hub files at the hub's download URL and local files at the app's models folder", () => {
    expect(ggufUrl('Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf', '/models/')).toBe(
      'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf',
    );
    expect(ggufUrl('owner/repo/sub/dir/file-q4_0.gguf', '/models/')).toBe(
      'https://huggingface.co/owner/repo/resolve/main/sub/dir/file-q4_0.gguf',
    );
    expect(ggufUrl('local:aerie-tiny-qwen2/aerie-tiny-qwen2-q8_0.gguf', '/app/models')).toBe(
      '/app/models/aerie-tiny-qwen2/aerie-tiny-qwen2-q8_0.gguf',
    );
    // A repository without a file, or not a GGUF id at all.
    expect(ggufUrl('owner/file.gguf', '/models/')).toBeUndefined();
    expect(ggufUrl('onnx-community/Qwen2.5-0.5B-Instruct', '/models/')).toBeUndefined();
    expect(ggufUrl('openai:gpt.gguf', '/models/')).toBeUndefined();
  });
});

describe('probeLlamaCpp', () => {
  /** A fake WebAssembly namespace with the given features. */
  function fakeWasm(features: { validate: boolean; memory64: boolean; jspi: boolean }) {
    return {
      validate: () => features.validate,
      Memory: class {
        constructor(descriptor: Record<string, unknown>) {
          if (descriptor.address === 'i64' && !features.memory64) throw new TypeError('no memory64');
        }
      },
      ...(features.jspi ? { Suspending: function Suspending() {} } : {}),
    };
  }

  it('is ready where every feature is there, with threads only when cross-origin isolated', () => {
    const all = fakeWasm({ validate: true, memory64: true, jspi: true });
    expect(probeLlamaCpp({ WebAssembly: all, crossOriginIsolated: true, SharedArrayBuffer })).toEqual({
      ok: true,
      missing: [],
      threads: true,
    });
    expect(probeLlamaCpp({ WebAssembly: all, crossOriginIsolated: false, SharedArrayBuffer }).threads).toBe(
      false,
    );
  });

  it('names each missing feature', () => {
    const none = fakeWasm({ validate: false, memory64: false, jspi: false });
    expect(probeLlamaCpp({ WebAssembly: none }).missing).toEqual([
      'WebAssembly SIMD',
      'WebAssembly exception handling',
      'WebAssembly 64-bit memory (memory64)',
      'JavaScript Promise Integration (JSPI)',
    ]);
    expect(probeLlamaCpp({})).toEqual({ ok: false, missing: ['WebAssembly'], threads: false });
  });

  it("validates its SIMD and exception probes with Node's real WebAssembly (which has both)", () => {
    const missing = probeLlamaCpp().missing;
    expect(missing).not.toContain('WebAssembly SIMD');
    expect(missing).not.toContain('WebAssembly exception handling');
  });
});
