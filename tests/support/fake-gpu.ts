import { GpuDevice, type GpuLike } from '../../src/models/device';

/** A worker's device on a FAKE adapter that hands out a device which never fails on its own (unit tests only). */
export function fakeGpuDevice(): GpuDevice {
  const gpu: GpuLike = {
    requestAdapter: async () => ({
      features: new Set<string>(),
      info: { vendor: 'test', architecture: 'gpu' },
      requestDevice: async () => ({ lost: new Promise(() => undefined), addEventListener: () => undefined }),
    }),
  };
  return new GpuDevice({ gpu });
}
