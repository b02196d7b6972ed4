/**
 * Where a model ran, said to people and kept with a tree: on WebGPU (which adapter) or on the CPU through
 * WebAssembly (how many threads, cross-origin isolated or not), or ONNX Runtime's native CPU in Node. No model
 * code here: the page, the build worker and storage import it.
 */

/** Where one model runs. */
export type ModelPlacement =
  | { device: 'webgpu'; adapter: string }
  | { device: 'wasm'; threads: number; isolated: boolean }
  | { device: 'cpu' };

/** Why a model runs on the CPU although WebGPU was chosen or could be used (`GpuFault`'s kind and sentence). */
export interface DeviceFallback {
  kind: GpuFaultKind;
  /** A sentence naming the cause ("The GPU was lost (destroyed) …"). */
  message: string;
}

/** What stopped WebGPU from being used, or made the app leave it. */
export type GpuFaultKind =
  /** The browser's only adapter is its software fallback (e.g. SwiftShader): `auto` runs on the CPU instead. */
  | 'fallback-adapter'
  /** `requestDevice` failed. */
  | 'request-device'
  /** The device was lost (driver reset, another tab, `destroy`). */
  | 'device-lost'
  /** The GPU ran out of memory. */
  | 'out-of-memory'
  /** A validation or internal WebGPU error: an operator this adapter cannot run. */
  | 'gpu-error'
  /** The known-input check got other numbers than the CPU's. */
  | 'wrong-numbers'
  /** Loading or running the model on WebGPU failed otherwise (the error's message says how). */
  | 'failed';

/** Work a model did on one placement: texts embedded, summaries written, tokens generated. */
export interface DeviceUse {
  placement: ModelPlacement;
  count: number;
  /** Why it ran here instead of on WebGPU (set on the CPU use that replaced it). */
  fallback?: DeviceFallback;
}

/** "WebGPU (google swiftshader)", "WASM (2 threads, cross-origin isolated)", "CPU (native)". */
export function placementLabel(placement: ModelPlacement): string {
  if (placement.device === 'webgpu') return `WebGPU (${placement.adapter || 'unnamed adapter'})`;
  if (placement.device === 'cpu') return 'CPU (native)';
  const threads = `${placement.threads} thread${placement.threads === 1 ? '' : 's'}`;
  return `WASM (${threads}, ${placement.isolated ? 'cross-origin isolated' : 'not isolated'})`;
}

/** True when both say the same place. */
export function samePlacement(a: ModelPlacement, b: ModelPlacement): boolean {
  return placementLabel(a) === placementLabel(b);
}

/**
 * `uses` with `count` more on `placement` (added to its entry, or a new entry at the end keeping `fallback`).
 * Returns a new list.
 */
export function addUse(
  uses: readonly DeviceUse[],
  placement: ModelPlacement,
  count: number,
  fallback?: DeviceFallback,
): DeviceUse[] {
  const at = uses.findIndex((u) => samePlacement(u.placement, placement));
  if (at < 0) return [...uses, { placement, count, ...(fallback ? { fallback } : {}) }];
  return uses.map((u, i) => (i === at ? { ...u, count: u.count + count } : u));
}

/** Both lists' uses, merged by placement (first list's order first). */
export function mergeUses(a: readonly DeviceUse[], b: readonly DeviceUse[]): DeviceUse[] {
  return b.reduce((uses, u) => addUse(uses, u.placement, u.count, u.fallback), [...a]);
}

/**
 * One line for people: "WebGPU (google swiftshader): 40 texts; then WASM (2 threads, cross-origin isolated): 62
 * texts (the GPU was lost …)". `unit` names what was counted, singular and plural; a device that has done nothing
 * yet is named without a count.
 */
export function usesLabel(uses: readonly DeviceUse[], unit: readonly [string, string]): string {
  return uses
    .map((u, i) => {
      const count =
        u.count > 0 ? `: ${u.count.toLocaleString('en-US')} ${u.count === 1 ? unit[0] : unit[1]}` : '';
      const why = u.fallback ? ` (${u.fallback.message})` : '';
      return `${i > 0 ? 'then ' : ''}${placementLabel(u.placement)}${count}${why}`;
    })
    .join('; ');
}
