/**
 * Where a built-in model loads: with its runtime (ONNX through transformers.js, or a GGUF file through llama.cpp,
 * whose wllama is imported only then), on WebGPU on the worker's checked device or on the CPU with the same
 * weights when WebGPU cannot be used. The generate service keeps one loaded model (service/model-slot.ts); this
 * file only loads one.
 */
import type { ModelLoadProgress } from '../files';
import {
  type RuntimeConfig,
  type GpuDevice,
  type GpuHandle,
  isGpuProblem,
  type DeviceFallback,
} from '../device';
import { llamaCppWebGpuGap, type ResolvedGeneratorChoice } from './generator-presets';
import { GeneratorError, messageOf, type BuiltinGenerator } from './generator-contract';
import { TransformersGenerator } from './transformers-generator';
import type { LlamaCppGenerator } from './llama-cpp-generator';

/**
 * The weights an ONNX model loaded for WebGPU runs with on the CPU: the same file, except q4f16 and fp16 (half-
 * precision activations, which ONNX Runtime's CPU kernels do not run), which become q4 and fp32.
 */
export function cpuDtypeOf(dtype: string): string {
  if (dtype === 'q4f16') return 'q4';
  if (dtype === 'fp16') return 'fp32';
  return dtype;
}

/**
 * A WebGPU choice moved to the CPU: the same weights (`cpuDtypeOf`), and of an `auto` dtype's fallbacks those the
 * CPU runs, in the same order.
 */
export function movedToCpu(resolved: ResolvedGeneratorChoice): ResolvedGeneratorChoice {
  const dtype = cpuDtypeOf(resolved.dtype);
  const fallbacks = resolved.dtypeFallbacks && [
    ...new Set(resolved.dtypeFallbacks.map(cpuDtypeOf).filter((d) => d !== dtype)),
  ];
  return { ...resolved, device: 'wasm', dtype, ...(fallbacks ? { dtypeFallbacks: fallbacks } : {}) };
}

/** A generator of either runtime; each can be said to run on the CPU because of a fallback (`withFallback`). */
type LoadedGenerator = TransformersGenerator | LlamaCppGenerator;

/** Loads a resolved choice with its runtime (wllama is imported only when a GGUF model is loaded). */
export async function loadGenerator(
  resolved: ResolvedGeneratorChoice,
  runtime: RuntimeConfig,
  onProgress: (p: ModelLoadProgress) => void,
  gpu?: GpuHandle,
): Promise<LoadedGenerator> {
  if (resolved.runtime === 'onnx') {
    return TransformersGenerator.load(resolved, { onProgress, batchSize: runtime.generationBatchSize, gpu });
  }
  if (!runtime.llamaCppWasmUrl) {
    throw new GeneratorError(
      'NO_LLAMA_CPP',
      `"${resolved.model}" is a GGUF model for llama.cpp, which runs only in a browser.`,
      { model: resolved.model, missing: ['a browser'] },
    );
  }
  const { LlamaCppGenerator } = await import('./llama-cpp-generator');
  return LlamaCppGenerator.load(
    resolved,
    {
      wasmUrl: runtime.llamaCppWasmUrl,
      localModelPath: runtime.localModelPath,
      threads: runtime.numThreads ?? 1,
      useBrowserCache: runtime.useBrowserCache,
    },
    { onProgress, ...(gpu ? { gpu: { adapter: gpu.adapter } } : {}) },
  );
}

/**
 * Loads on the resolved device: on WebGPU on the worker's checked `device`, and on the CPU with the same weights
 * (`cpuDtypeOf`) when WebGPU cannot be used (no device, a wrong known-input check, a load that fails there).
 */
export async function loadOnDevice(
  resolved: ResolvedGeneratorChoice,
  runtime: RuntimeConfig,
  device: GpuDevice,
  onProgress: (p: ModelLoadProgress) => void,
): Promise<BuiltinGenerator> {
  if (resolved.device !== 'webgpu') return loadGenerator(resolved, runtime, onProgress);
  if (resolved.runtime === 'llama.cpp') return loadLlamaCppOnGpu(resolved, runtime, device, onProgress);
  try {
    const handle = await device.acquire();
    return await device.guard(() => loadGenerator(resolved, runtime, onProgress, handle));
  } catch (error) {
    if (!isGpuProblem(error)) throw error;
    const fault = device.fail(error);
    return (await loadGenerator(movedToCpu(resolved), runtime, onProgress)).withFallback(fault.fallback);
  }
}

/**
 * Loads a GGUF model on WebGPU: on the adapter of the worker's checked device (a failed request or known-input
 * check is the worker's fault, as for ONNX models), if llama.cpp's backend can run there (`llamaCppWebGpuGap`);
 * else, or when the load fails, on WASM with the reason. A failure of llama.cpp's own WebGPU device is not the
 * worker's fault: ONNX models keep WebGPU.
 */
async function loadLlamaCppOnGpu(
  resolved: ResolvedGeneratorChoice,
  runtime: RuntimeConfig,
  device: GpuDevice,
  onProgress: (p: ModelLoadProgress) => void,
): Promise<BuiltinGenerator> {
  const onCpu = async (fallback: DeviceFallback) =>
    (await loadGenerator({ ...resolved, device: 'wasm' }, runtime, onProgress)).withFallback(fallback);
  let handle: GpuHandle;
  try {
    handle = await device.acquire();
  } catch (error) {
    if (!isGpuProblem(error)) throw error;
    return onCpu(device.fail(error).fallback);
  }
  const gap = llamaCppWebGpuGap({ f16: handle.f16, name: handle.adapter });
  if (gap) return onCpu({ kind: 'request-device', message: gap });
  try {
    return await loadGenerator(resolved, runtime, onProgress, handle);
  } catch (error) {
    if (!isGpuProblem(error)) throw error;
    return onCpu({
      kind: 'failed',
      message: `llama.cpp failed to load on WebGPU (${handle.adapter}): ${messageOf(error)}`,
    });
  }
}
