/** What WebGPU this realm offers (a page or a worker; Node has none). */
/** What the browser offers for WebGPU, as `probeWebGpu` finds it. */
export interface GpuSupport {
  /** An adapter exists (a GPU, or the browser's software fallback). */
  adapter: boolean;
  /** The adapter has `shader-f16` (needed for q4f16 and fp16). */
  f16: boolean;
  /** The adapter is the browser's software fallback (e.g. SwiftShader): `auto` does not use it. */
  fallback: boolean;
  /** What the adapter calls itself ("google swiftshader"); empty without one. */
  name: string;
}

/** The parts of a GPUAdapter Aerie reads (structural, so tests can fake them). */
export interface GpuAdapterLike {
  features: { has(name: string): boolean };
  /** Chromium 114+: vendor, architecture, device, description, isFallbackAdapter (Chromium 136+). */
  info?: {
    vendor?: string;
    architecture?: string;
    device?: string;
    description?: string;
    isFallbackAdapter?: boolean;
  };
  /** The older place of the flag (removed from Chromium in 2025). */
  isFallbackAdapter?: boolean;
  requestDevice(descriptor?: { requiredFeatures?: string[]; label?: string }): Promise<unknown>;
}

/** `navigator.gpu` as Aerie uses it. */
export interface GpuLike {
  requestAdapter(options?: {
    powerPreference?: 'high-performance' | 'low-power';
  }): Promise<GpuAdapterLike | null>;
}

/** This realm's `navigator.gpu`, if any. */
export function navigatorGpu(): GpuLike | undefined {
  return (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
}

/** "vendor architecture device", e.g. "google swiftshader" or "nvidia ampere" (what the adapter tells). */
export function adapterName(adapter: GpuAdapterLike): string {
  const info = adapter.info ?? {};
  const parts = [info.vendor, info.architecture, info.device || info.description].filter(
    (p): p is string => !!p && p.trim() !== '',
  );
  return parts.join(' ') || 'unnamed adapter';
}

/**
 * True when the adapter is the browser's fallback: a software rasteriser (SwiftShader in Chromium), offered where
 * no GPU is usable (none, or a blocklisted driver). It computes correctly but is far slower than WASM: measured,
 * the built-in model built the sample in 394 s on it against 11.5 s on WASM.
 */
export function isFallbackAdapter(adapter: GpuAdapterLike): boolean {
  return !!(adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter);
}

/** The high-performance adapter, or null (no WebGPU, none offered, or the request failed). Never throws. */
export async function requestGpuAdapter(gpu = navigatorGpu()): Promise<GpuAdapterLike | null> {
  if (!gpu) return null;
  try {
    return await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    return null;
  }
}

/** What the adapter offers, as `GpuSupport`. */
export function supportOf(adapter: GpuAdapterLike | null): GpuSupport {
  if (!adapter) return { adapter: false, f16: false, fallback: false, name: '' };
  return {
    adapter: true,
    f16: adapter.features.has('shader-f16'),
    fallback: isFallbackAdapter(adapter),
    name: adapterName(adapter),
  };
}

/** Asks for a WebGPU adapter; never throws (no WebGPU, a blocked GPU or a driver error all mean no adapter). */
export async function probeWebGpu(gpu = navigatorGpu()): Promise<GpuSupport> {
  return supportOf(await requestGpuAdapter(gpu));
}

/**
 * Whether `auto` runs models on this adapter: a GPU, never the browser's software fallback (chosen explicitly in
 * Settings, WebGPU still runs on it).
 */
export function autoUsesGpu(gpu: GpuSupport): boolean {
  return gpu.adapter && !gpu.fallback;
}

/** Why `auto` runs on the CPU although an adapter exists, as a sentence (undefined when it does not). */
export function autoCpuReason(gpu: GpuSupport): string | undefined {
  if (!gpu.adapter || !gpu.fallback) return undefined;
  return (
    `the only WebGPU adapter is the browser's software fallback (${gpu.name}), slower than WASM; ` +
    'choose WebGPU in Settings to use it anyway'
  );
}

/** True in Node (tests, benchmarks, a CLI), where ONNX Runtime's native CPU backend runs the models. */
export function isNodeRuntime(): boolean {
  return !!(globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
}
