/** What WebGPU this realm offers (a page or a worker; Node has none). */
import type { GpuSupport } from './generator-presets';

interface GpuAdapterLike {
  features: { has(name: string): boolean };
}
interface GpuLike {
  requestAdapter(): Promise<GpuAdapterLike | null>;
}

/** Asks for a WebGPU adapter; never throws (no WebGPU, a blocked GPU or a driver error all mean no adapter). */
export async function probeWebGpu(): Promise<GpuSupport> {
  const gpu = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
  if (!gpu) return { adapter: false, f16: false };
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return { adapter: false, f16: false };
    return { adapter: true, f16: adapter.features.has('shader-f16') };
  } catch {
    return { adapter: false, f16: false };
  }
}

/** True in Node (tests, benchmarks, a CLI), where ONNX Runtime's native CPU backend runs the models. */
export function isNodeRuntime(): boolean {
  return !!(globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
}
