/**
 * Where a browser model loads, and how it leaves WebGPU without losing anything. Shared by the embedding models,
 * the reranker and the built-in language model:
 * - `loadPlaced` loads on WebGPU when the choice says so (`webgpu`, or `auto` with a GPU adapter: never the
 *   browser's software fallback adapter), on the worker's checked device (gpu-device.ts); if WebGPU cannot be
 *   used (no device, a failed known-input check, a load that fails on the GPU) it loads the same weights on the
 *   CPU and says why (`withFallback`).
 * - `GpuExit` is the one rule by which a loaded model leaves WebGPU when work on it fails there: the fault is
 *   recorded on the worker's device, the same weights load on the CPU once however many calls fail at once, and
 *   the GPU copy is freed.
 * - `isGpuProblem` tells a failure WebGPU may have caused (worth running on the CPU) from one it cannot have
 *   (a missing file, an unreachable hub, a cancel), which passes through.
 */
import { isAbortError } from '../../core/abort';
import type { GpuDevice, GpuHandle } from './gpu-device';
import type { DeviceFallback } from './placement';
import { autoCpuReason, autoUsesGpu, isNodeRuntime, probeWebGpu } from './webgpu';

/** Where a loader is asked to run: the CPU of this realm, or WebGPU on `gpu`. */
export type PlacedDevice = 'webgpu' | 'wasm' | 'cpu';

/** A loaded model that can say it runs on the CPU because of a fallback. */
export interface Placeable<T> {
  withFallback(fallback: DeviceFallback): T;
}

/** Error codes no device can cause: trying the CPU would fail the same way. */
const NOT_GPU_CODES: ReadonlySet<string> = new Set([
  'MODEL_NOT_FOUND',
  'HUB_UNREACHABLE',
  'UNSUPPORTED_MODEL',
  'NOT_TEXT_GENERATION',
  'NO_LLAMA_CPP',
  'INVALID_REQUEST',
  'CONTEXT_TOO_LONG',
  'NOT_LOADED',
  'BUSY',
]);

/** True when running the same work on the CPU could succeed where WebGPU failed. */
export function isGpuProblem(error: unknown): boolean {
  if (isAbortError(error)) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return !(typeof code === 'string' && NOT_GPU_CODES.has(code));
}

/**
 * Loads a model on the device `requested` names (see the module comment). `load` loads it on one device; for
 * WebGPU it gets the worker's checked device.
 * @throws what `load` throws on the CPU, or a failure that is not a GPU problem.
 */
export async function loadPlaced<T extends Placeable<T>>(
  gpu: GpuDevice,
  requested: 'auto' | PlacedDevice,
  load: (device: PlacedDevice, handle?: GpuHandle) => Promise<T>,
): Promise<T> {
  if (requested === 'wasm' || requested === 'cpu') return load(requested);
  // Node (tests, the CLI): ONNX Runtime's native CPU.
  if (isNodeRuntime()) return load('cpu');
  let wantGpu = requested === 'webgpu';
  let reason: string | undefined;
  if (requested === 'auto') {
    const support = await probeWebGpu();
    wantGpu = autoUsesGpu(support);
    reason = autoCpuReason(support);
  }
  if (wantGpu) {
    try {
      const handle = await gpu.acquire();
      return await gpu.guard(() => load('webgpu', handle));
    } catch (error) {
      if (!isGpuProblem(error)) throw error;
      const fault = gpu.fail(error);
      return (await load('wasm')).withFallback(fault.fallback);
    }
  }
  const loaded = await load('wasm');
  return reason ? loaded.withFallback({ kind: 'fallback-adapter', message: reason }) : loaded;
}

/** A loaded model as the move off WebGPU sees it. */
export interface GpuResident {
  readonly info: { readonly device: string };
  dispose(): Promise<void>;
}

/** What a service does for one move of a model off WebGPU (see `GpuExit.leave`). */
export interface GpuMove<T> {
  /** Loads the same weights on the CPU, said to run there because of `fallback`. */
  loadOnCpu(fallback: DeviceFallback): Promise<T>;
  /** Called once per move, before the GPU copy is freed: e.g. the service's entry now serves `to`. */
  onMove?(to: Promise<T>): void;
  /** A call failing on a model already moved joins that move (default true). */
  reuse?: boolean;
}

/**
 * The move of a loaded model from WebGPU to the CPU after work on it failed there, shared by the embedding
 * service (its embedder and reranker) and the generate service. One per model entry or per service: it remembers
 * the last move, so every call that fails on the same model waits for one reload.
 */
export class GpuExit<T extends GpuResident> {
  private moved?: { from: T; to: Promise<T> };

  constructor(private readonly gpu: GpuDevice) {}

  /**
   * The CPU copy of `from` after `error`; rejects with `error` when it is not a GPU problem (`isGpuProblem`) or
   * `from` was not on WebGPU. The worker's device records the fault, so later loads go to the CPU with its reason.
   */
  leave(from: T, error: unknown, move: GpuMove<T>): Promise<T> {
    if (from.info.device !== 'webgpu' || !isGpuProblem(error)) return Promise.reject(error);
    const fault = this.gpu.fail(error);
    if ((move.reuse ?? true) && this.moved?.from === from) return this.moved.to;
    const to = move.loadOnCpu(fault.fallback);
    this.moved = { from, to };
    move.onMove?.(to);
    void from.dispose().catch(() => undefined);
    return to;
  }
}
