/** The note a reranked question's results carry: where the cross-encoder ran, and why not on WebGPU if it moved. */
import { describe, expect, it } from 'vitest';
import { rerankedOnNote } from '../../src/app/build/devices-text';

describe('rerankedOnNote', () => {
  it('names the adapter on WebGPU and the threads on WASM', () => {
    expect(rerankedOnNote({ placement: { device: 'webgpu', adapter: 'google swiftshader' } })).toBe(
      'Reranked on WebGPU (google swiftshader).',
    );
    expect(rerankedOnNote({ placement: { device: 'wasm', threads: 2, isolated: true } })).toBe(
      'Reranked on WASM (2 threads, cross-origin isolated).',
    );
  });

  it('says why it ran on the CPU after WebGPU failed', () => {
    const fallback = { kind: 'device-lost' as const, message: 'the GPU was lost (destroyed)' };
    expect(rerankedOnNote({ placement: { device: 'wasm', threads: 1, isolated: false }, fallback })).toBe(
      'Reranked on WASM (1 thread, not isolated) (the GPU was lost (destroyed)).',
    );
  });
});
