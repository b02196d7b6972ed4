/**
 * The WebGPU device layer with FAKE adapters and devices (Node has no WebGPU; the browser tests in
 * e2e/webgpu-faults.spec.ts inject the same faults into Chromium's real WebGPU): which adapter `auto` takes, a
 * failing `requestDevice`, a device lost while work runs (the work is not waited for), an out-of-memory or
 * validation error reported as an event (the result is not trusted), a known-input check that finds wrong
 * numbers, and `loadPlaced` moving a model to the CPU with the cause said.
 */
import { describe, expect, it } from 'vitest';
import {
  GpuDevice,
  GpuFault,
  type GpuDeviceLike,
  isGpuProblem,
  loadPlaced,
  addUse,
  placementLabel,
  usesLabel,
  type DeviceFallback,
  adapterName,
  autoCpuReason,
  autoUsesGpu,
  isFallbackAdapter,
  probeWebGpu,
  type GpuAdapterLike,
  type GpuLike,
} from '../../../src/models/device';

/** A fake device whose loss and uncaptured errors the test triggers. */
function fakeDevice() {
  let lose!: (info: { reason: string; message: string }) => void;
  const listeners: ((event: { error?: { message?: string } }) => void)[] = [];
  const device: GpuDeviceLike = {
    lost: new Promise((resolve) => (lose = resolve)),
    addEventListener: (_type, listener) => void listeners.push(listener),
  };
  return {
    device,
    lose: (reason: string, message: string) => lose({ reason, message }),
    error: (error: { message: string }) => listeners.forEach((l) => l({ error })),
  };
}

/** A fake `navigator.gpu` offering one adapter. */
function fakeGpu(
  options: {
    fallback?: boolean;
    features?: string[];
    requestDevice?: () => Promise<unknown>;
    info?: GpuAdapterLike['info'];
  } = {},
): GpuLike & { requested: unknown[] } {
  const requested: unknown[] = [];
  const adapter: GpuAdapterLike & { limits: object } = {
    features: new Set(options.features ?? []),
    info: options.info ?? {
      vendor: 'test',
      architecture: 'gpu',
      isFallbackAdapter: options.fallback ?? false,
    },
    limits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 29 },
    requestDevice: (descriptor) => {
      requested.push(descriptor);
      return options.requestDevice ? options.requestDevice() : Promise.resolve(fakeDevice().device);
    },
  };
  return { requested, requestAdapter: async () => adapter };
}

describe('which adapter auto takes', () => {
  it("takes a GPU, never the browser's software fallback (either place of the flag), and names it", async () => {
    const software = await probeWebGpu(
      fakeGpu({ info: { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true } }),
    );
    expect(software).toEqual({ adapter: true, f16: false, fallback: true, name: 'google swiftshader' });
    expect(autoUsesGpu(software)).toBe(false);
    expect(autoCpuReason(software)).toContain("the browser's software fallback (google swiftshader)");
    const gpu = await probeWebGpu(fakeGpu({ features: ['shader-f16'] }));
    expect(gpu).toMatchObject({ adapter: true, f16: true, fallback: false, name: 'test gpu' });
    expect(autoUsesGpu(gpu)).toBe(true);
    expect(autoCpuReason(gpu)).toBeUndefined();
    // Chromium before 136 said it on the adapter itself.
    expect(
      isFallbackAdapter({ features: new Set(), isFallbackAdapter: true, requestDevice: async () => ({}) }),
    ).toBe(true);
    expect(adapterName({ features: new Set(), requestDevice: async () => ({}) })).toBe('unnamed adapter');
  });

  it('finds none where the realm has no WebGPU or the request fails', async () => {
    expect((await probeWebGpu(undefined)).adapter).toBe(false);
    const broken: GpuLike = { requestAdapter: () => Promise.reject(new Error('driver crashed')) };
    expect((await probeWebGpu(broken)).adapter).toBe(false);
  });
});

describe('GpuDevice', () => {
  it('asks for the device once, with the features and limits the adapter has', async () => {
    const gpu = fakeGpu({ features: ['shader-f16'] });
    const device = new GpuDevice({ gpu });
    const [a, b] = await Promise.all([device.acquire(), device.acquire()]);
    expect(a).toBe(b);
    expect(a).toMatchObject({ adapter: 'test gpu', f16: true, fallback: false });
    expect(gpu.requested).toEqual([
      {
        requiredFeatures: ['shader-f16'],
        requiredLimits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 29 },
        label: 'aerie-models',
      },
    ]);
  });

  it('turns a failing requestDevice into a request-device fault, the same on every later call', async () => {
    const device = new GpuDevice({
      gpu: fakeGpu({ requestDevice: () => Promise.reject(new Error('OperationError: device limit')) }),
    });
    const first = await device.acquire().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(GpuFault);
    expect(first).toMatchObject({ kind: 'request-device' });
    expect((first as Error).message).toBe(
      'WebGPU could not create a device on test gpu (OperationError: device limit)',
    );
    await expect(device.acquire()).rejects.toBe(first);
    expect(device.fault).toBe(first);
  });

  it('rejects work at once when the device is lost while it runs, without waiting for it', async () => {
    const fake = fakeDevice();
    const device = new GpuDevice({ gpu: fakeGpu({ requestDevice: async () => fake.device }) });
    await device.acquire();
    const never = new Promise<string>(() => undefined);
    const guarded = device.guard(() => never);
    fake.lose('destroyed', 'Device was destroyed.');
    const fault = await guarded.catch((e: unknown) => e);
    expect(fault).toMatchObject({
      kind: 'device-lost',
      message: 'the GPU (test gpu) was lost (destroyed: Device was destroyed.)',
    });
    expect(device.current).toBeUndefined();
    await expect(device.guard(async () => 'later')).rejects.toMatchObject({ kind: 'device-lost' });
  });

  it('does not trust work during which WebGPU reported an out-of-memory or a validation error', async () => {
    const fake = fakeDevice();
    const device = new GpuDevice({ gpu: fakeGpu({ requestDevice: async () => fake.device }) });
    await device.acquire();
    expect(await device.guard(async () => 'fine')).toBe('fine');
    const oom = device.guard(async () => {
      fake.error({ message: 'Out of memory: failed to allocate buffer' });
      return 'garbage';
    });
    await expect(oom).rejects.toMatchObject({ kind: 'out-of-memory' });

    const second = fakeDevice();
    const other = new GpuDevice({ gpu: fakeGpu({ requestDevice: async () => second.device }) });
    await other.acquire();
    const invalid = other.guard(async () => {
      second.error({ message: 'Invalid ShaderModule "Erf": unsupported builtin' });
      return 'garbage';
    });
    const fault = await invalid.catch((e: unknown) => e);
    expect(fault).toMatchObject({ kind: 'gpu-error' });
    expect((fault as Error).message).toContain('an operation it cannot run here (Invalid ShaderModule "Erf"');
  });

  it('fails an adapter whose known-input check finds wrong numbers, and passes one whose check holds', async () => {
    const wrong = new GpuDevice({ gpu: fakeGpu(), check: async () => ({ maxError: 0.41, tolerance: 1e-3 }) });
    const fault = await wrong.acquire().catch((e: unknown) => e);
    expect(fault).toMatchObject({ kind: 'wrong-numbers' });
    expect((fault as Error).message).toBe(
      'WebGPU (test gpu) computed wrong numbers on a known input (largest error 0.41, allowed 0.001)',
    );
    const nan = new GpuDevice({ gpu: fakeGpu(), check: async () => ({ maxError: NaN, tolerance: 1e-3 }) });
    await expect(nan.acquire()).rejects.toMatchObject({ kind: 'wrong-numbers' });
    const right = new GpuDevice({ gpu: fakeGpu(), check: async () => ({ maxError: 6e-8, tolerance: 1e-3 }) });
    await expect(right.acquire()).resolves.toMatchObject({ adapter: 'test gpu' });
  });

  it('classifies a thrown error by its message, and keeps the first fault', () => {
    const device = new GpuDevice({ gpu: fakeGpu() });
    expect(device.fail(new RangeError('Array buffer allocation failed'))).toMatchObject({
      kind: 'out-of-memory',
    });
    expect(device.fail(new Error('anything else')).kind).toBe('out-of-memory');
    expect(new GpuDevice().fail(new Error('Kernel not found')).message).toBe(
      'the model failed on WebGPU (the adapter): Kernel not found',
    );
  });
});

describe('loadPlaced and isGpuProblem', () => {
  /** A fake model that records where it was loaded and why it fell back. */
  class Model {
    fallback?: DeviceFallback;
    constructor(readonly device: string) {}
    withFallback(fallback: DeviceFallback): this {
      this.fallback = fallback;
      return this;
    }
  }

  it('a missing file, an unreachable hub or a cancel are not GPU problems; anything else may be', () => {
    expect(isGpuProblem(Object.assign(new Error('x'), { code: 'MODEL_NOT_FOUND' }))).toBe(false);
    expect(isGpuProblem(Object.assign(new Error('x'), { code: 'HUB_UNREACHABLE' }))).toBe(false);
    expect(isGpuProblem(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe(false);
    expect(isGpuProblem(Object.assign(new Error('x'), { code: 'LOAD_FAILED' }))).toBe(true);
    expect(isGpuProblem(new Error('GPUBuffer destroyed'))).toBe(true);
  });

  it('in Node every choice but wasm runs on the native CPU', async () => {
    const device = new GpuDevice({ gpu: fakeGpu() });
    for (const requested of ['auto', 'webgpu', 'cpu'] as const) {
      expect((await loadPlaced(device, requested, async (d) => new Model(d))).device).toBe('cpu');
    }
    expect((await loadPlaced(device, 'wasm', async (d) => new Model(d))).device).toBe('wasm');
  });
});

describe('placement labels', () => {
  it('name the adapter, the threads and the isolation, and what moved where and why', () => {
    const gpu = { device: 'webgpu', adapter: 'google swiftshader' } as const;
    const wasm = { device: 'wasm', threads: 2, isolated: true } as const;
    expect(placementLabel(gpu)).toBe('WebGPU (google swiftshader)');
    expect(placementLabel(wasm)).toBe('WASM (2 threads, cross-origin isolated)');
    expect(placementLabel({ device: 'wasm', threads: 1, isolated: false })).toBe(
      'WASM (1 thread, not isolated)',
    );
    let uses = addUse([], gpu, 0);
    uses = addUse(uses, gpu, 40);
    uses = addUse(uses, wasm, 62, { kind: 'device-lost', message: 'the GPU was lost (destroyed)' });
    uses = addUse(uses, wasm, 1);
    expect(usesLabel(uses, ['text', 'texts'])).toBe(
      'WebGPU (google swiftshader): 40 texts; then WASM (2 threads, cross-origin isolated): 63 texts ' +
        '(the GPU was lost (destroyed))',
    );
    expect(usesLabel([{ placement: gpu, count: 0 }], ['text', 'texts'])).toBe('WebGPU (google swiftshader)');
  });
});
