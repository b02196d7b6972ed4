/**
 * The known-input check a worker runs on its WebGPU device before any model uses it: the committed tiny BERT
 * (fp32, served by the app) embeds three texts on the device, and the vectors are compared with the ones ONNX
 * Runtime computed on the CPU (gpu-check-reference.ts). Some browsers' WebGPU has returned wrong numbers for some
 * adapters; this catches an adapter whose matrix products, softmax, normalisation or GELU go wrong before it writes
 * garbage into a tree. It costs one 0.47 MB download (cached afterwards) and well under a second on a GPU.
 */
import { TransformersEmbedder } from './embedder';
import { GPU_CHECK_MODEL, GPU_CHECK_TEXTS, GPU_CHECK_VECTORS } from './gpu-check-reference';
import type { GpuCheckResult, GpuDeviceLike } from '../device';

/**
 * Largest difference a vector component may have from the CPU's. Measured on SwiftShader: 6e-8; a GPU's own
 * summation order may differ more, never near this (the components are about 0.2 in size).
 */
export const GPU_CHECK_TOLERANCE = 1e-3;

/** Runs the check on `device`; resolves the largest difference (the caller compares it with the tolerance). */
export async function checkGpuOnKnownInput(device: GpuDeviceLike): Promise<GpuCheckResult> {
  const embedder = await TransformersEmbedder.load(GPU_CHECK_MODEL, {
    dtype: 'fp32',
    device: 'webgpu',
    gpu: { device, adapter: '', f16: false, fallback: false },
  });
  try {
    const { data, dim } = await embedder.embed([...GPU_CHECK_TEXTS]);
    return { maxError: referenceError(data, dim), tolerance: GPU_CHECK_TOLERANCE };
  } finally {
    await embedder.dispose().catch(() => undefined);
  }
}

/** The largest difference of the check texts' vectors (row-major, `dim` wide) from the reference; NaN or a
 * wrong width count as infinitely wrong. */
export function referenceError(data: Float32Array, dim: number): number {
  if (dim !== GPU_CHECK_VECTORS[0].length || data.length !== GPU_CHECK_VECTORS.length * dim) return Infinity;
  let maxError = 0;
  GPU_CHECK_VECTORS.forEach((row, i) => {
    row.forEach((value, j) => {
      const error = Math.abs(data[i * dim + j] - value);
      maxError = Math.max(maxError, Number.isNaN(error) ? Infinity : error);
    });
  });
  return maxError;
}
