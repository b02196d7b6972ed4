/**
 * The WebGPU rows of `npm run bench embed` and `npm run bench llm`: what the browser's adapter is, and whether its
 * times are a speed. A WebGPU row names its adapter (as the app reports it: vendor, architecture, device) and
 * stands beside the WASM figure of the same run. On the browser's software fallback adapter (SwiftShader here:
 * Vulkan emulated on the CPU, `isFallbackAdapter`) the work still runs, as a check that the path works, but its
 * time is printed as NOT MEASURED as speed (not a gap: bench/gaps.ts), so the same command on a machine with a
 * GPU prints the real figure and ratio.
 */
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { GPU_CHECK_MODEL } from '../src/models/embed';
import type { GpuSupport } from '../src/models/device';
import { placementLabel, type DeviceFallback, type ModelPlacement } from '../src/models/device';
import { notMeasured, notMeasuredAsSpeed, type BenchLine } from './lines';

/** Adapters that are software rasterisers whatever flag they carry (Chromium's, Mesa's, Windows'). */
const SOFTWARE_ADAPTER = /swiftshader|llvmpipe|lavapipe|softpipe|microsoft basic render/i;

/**
 * Why this adapter's times are no GPU speed, or undefined for a hardware adapter: the browser's fallback flag,
 * or a name that is a known software rasteriser (in case a browser does not set the flag).
 */
export function softwareAdapterReason(gpu: GpuSupport): string | undefined {
  if (!gpu.adapter) return undefined;
  if (gpu.fallback) {
    return `${gpu.name} is the browser's software fallback adapter (isFallbackAdapter): WebGPU emulated on the CPU`;
  }
  if (SOFTWARE_ADAPTER.test(gpu.name)) {
    return `${gpu.name} is a software rasteriser (WebGPU emulated on the CPU), though not flagged as the fallback`;
  }
  return undefined;
}

/**
 * Makes the app's known-input check model (gpu-check.ts loads `GPU_CHECK_MODEL` before any model uses the
 * device) loadable from the bench's models folder, where the bench workers look for models: a link to the
 * committed copy in public/models. Without it the check fails and every WebGPU load falls back to WASM.
 */
export function linkGpuCheckModel(root: string, modelsDir: string): void {
  const folder = GPU_CHECK_MODEL.replace(/^local:/, '');
  const link = join(modelsDir, folder);
  if (!existsSync(link)) symlinkSync(join(root, 'public', 'models', folder), link, 'dir');
}

/** What a WebGPU check run in the bench page found: the adapter, and where the model loaded and ran. */
export interface WebGpuRun {
  /** The adapter the page's worker was offered (`probeWebGpu`). */
  gpu: GpuSupport;
  /** Where the model loaded. */
  placement: ModelPlacement;
  /** Why it loaded on the CPU although WebGPU was asked for. */
  fallback?: DeviceFallback;
  /** Where the timed work ran (all of it, by the service's own account), e.g. "WebGPU (nvidia ampere): 512 texts". */
  ranOn: string;
  /** Whether every piece of the work ran on WebGPU. */
  allOnGpu: boolean;
}

/** "WebGPU (google swiftshader)": the label of a row, from the adapter the page found. */
export function webGpuLabel(gpu: GpuSupport): string {
  return placementLabel({ device: 'webgpu', adapter: gpu.name });
}

/**
 * The line for a WebGPU configuration when its time cannot be a GPU speed, or undefined when the caller should
 * time it and print the figure beside WASM's:
 * - no adapter, or a model that did not (all) run on WebGPU (a fault moved it to WASM): a gap, NOT MEASURED;
 * - a software adapter: NOT MEASURED as speed, with what ran (`checked`: e.g. the agreement with WASM).
 */
export function webGpuVerdict(name: string, run: WebGpuRun, checked: string): BenchLine | undefined {
  if (!run.gpu.adapter) {
    return notMeasured(
      name,
      'this Chromium offers no WebGPU adapter (started with --enable-unsafe-webgpu, without --disable-gpu, on 127.0.0.1)',
    );
  }
  if (run.placement.device !== 'webgpu' || !run.allOnGpu) {
    const said = run.fallback && !run.ranOn.includes(run.fallback.message);
    const why = said ? `: ${run.fallback!.message}` : '';
    return notMeasured(name, `the model did not run on ${webGpuLabel(run.gpu)} but ${run.ranOn}${why}`);
  }
  const software = softwareAdapterReason(run.gpu);
  if (!software) return undefined;
  return notMeasuredAsSpeed(
    name,
    `${software}, so its time is no GPU speed. The path ran: ${run.ranOn}; ${checked}. ` +
      'On a machine with a GPU the same command prints the figure beside WASM.',
  );
}
