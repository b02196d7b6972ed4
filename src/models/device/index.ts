/**
 * The device room: where a browser model runs. The WebGPU probe (webgpu), the worker's one checked GPU device and
 * its faults (gpu-device), loading on WebGPU with the move to the CPU when the GPU fails (placed), the
 * placement records a tree and the page show (placement), and the runtime settings of a worker (browser-runtime).
 * No model code and no model package: the page imports this door without loading transformers.js or wllama.
 */
export * from './browser-runtime';
export * from './gpu-device';
export * from './placed';
export * from './placement';
export * from './webgpu';
