/**
 * Language models Aerie can run in the browser for summaries and answers ("Built-in model"). A model is named
 * like an embedding model (embedding-presets.ts): a Hugging Face id (downloaded from huggingface.co once, then
 * cached) or `local:<folder>` for a model the app serves itself. Two runtimes:
 * - an ONNX model (any id that is not a GGUF file) runs on transformers.js: on WebGPU when the browser offers an
 *   adapter, in 4-bit weights (the GPU presets), otherwise on the CPU through WebAssembly, in 8-bit weights (the
 *   CPU preset);
 * - an id naming a GGUF file (`owner/repo/file.gguf`, `local:folder/file.gguf`; gguf.ts) runs on llama.cpp
 *   (@wllama/wllama): on WebGPU by the same rule as ONNX models where its WebGPU backend can run (it needs
 *   `shader-f16`), else in WebAssembly on the CPU. `npm run bench llm` measured it slower than ONNX Runtime Web
 *   for Aerie's work on the CPU (its prompt processing is about ten times slower, its generation about as fast),
 *   so no preset uses it.
 * No model code here: the page can import this without transformers.js or wllama.
 */
import { ggufQuant, isGgufModel, type LlamaCppSupport } from './gguf';
import { placementLabel, usesLabel, type DeviceUse, type ModelPlacement } from '../device';
import type { GpuSupport } from '../device';

/** Where generation runs: the GPU, the CPU through WebAssembly (browsers), or ONNX Runtime's CPU (Node). */
export type GenerationDevice = 'webgpu' | 'wasm' | 'cpu';

/**
 * Weights: q4f16 (4-bit blocks, fp16 activations; WebGPU with `shader-f16`), q4 (4-bit blocks, fp32
 * activations), q8 (8-bit, the WASM default), fp16, fp32.
 */
export type OnnxDtype = 'q4f16' | 'q4' | 'q8' | 'fp16' | 'fp32';

/** The weights: an ONNX dtype, or a GGUF file's quantisation as its name says (`q8_0`, `q4_k_m`; `ggufQuant`). */
export type GenerationDtype = OnnxDtype | (string & {});

/** What runs the model: transformers.js on ONNX Runtime, or llama.cpp in WebAssembly (wllama). */
export type GenerationRuntime = 'onnx' | 'llama.cpp';

/** The class of model a preset is; `auto` choices follow it. */
export type GeneratorTier = 'gpu' | 'cpu';

/** One entry of the model picker. */
export interface GeneratorPreset {
  /** The model string recorded in trees (a hub id, or `local:<folder>`). */
  id: string;
  label: string;
  /** Parameters, as people name the model's size ("0.5B"). */
  parameters: string;
  tier: GeneratorTier;
  /** Weights used on this tier, and the fallback for a GPU without `shader-f16`. */
  dtype: GenerationDtype;
  fallbackDtype?: GenerationDtype;
  /** Download size of `dtype`'s weights in MB (once; cached by the browser afterwards). */
  sizeMb: number;
  /** What to expect, for a person choosing. */
  description: string;
}

/** The preset for a browser with WebGPU: a 1.5B instruct model in 4-bit weights. */
export const GPU_PRESET_ID = 'onnx-community/Qwen2.5-1.5B-Instruct';
/**
 * The preset for every other browser: a 0.5B instruct model in 8-bit weights, on the CPU with ONNX Runtime Web
 * (measured faster for Aerie's summaries than llama.cpp in WebAssembly: `npm run bench llm`).
 */
export const CPU_PRESET_ID = 'onnx-community/Qwen2.5-0.5B-Instruct';
/** The committed random-weight Qwen2 of the tests (scripts/models/make_qwen2_random.py): writes gibberish. */
export const TEST_GENERATOR_ID = 'local:aerie-tiny-qwen2';
/**
 * The same random-weight Qwen2 as a GGUF file (scripts/models/make_qwen2_gguf.py), run by llama.cpp: the test
 * model of that runtime.
 */
export const TEST_GGUF_GENERATOR_ID = 'local:aerie-tiny-qwen2/aerie-tiny-qwen2-q8_0.gguf';

/** The presets shown in Settings; the first of each tier is that tier's default. */
export const GENERATOR_PRESETS: readonly GeneratorPreset[] = [
  {
    id: GPU_PRESET_ID,
    label: 'Qwen2.5 1.5B Instruct (GPU)',
    parameters: '1.5B',
    tier: 'gpu',
    dtype: 'q4f16',
    fallbackDtype: 'q4',
    sizeMb: 1220,
    description:
      'The best summaries and answers that run in a browser. Needs WebGPU (a recent Chrome or Edge with a ' +
      'graphics card). About 1.2 GB to download once.',
  },
  {
    id: 'onnx-community/Llama-3.2-1B-Instruct',
    label: 'Llama 3.2 1B Instruct (GPU)',
    parameters: '1B',
    tier: 'gpu',
    dtype: 'q4f16',
    fallbackDtype: 'q4',
    sizeMb: 1070,
    description:
      "Meta's small instruct model, a little faster than Qwen2.5 1.5B on the GPU. Needs WebGPU. About 1.1 GB.",
  },
  {
    id: CPU_PRESET_ID,
    label: 'Qwen2.5 0.5B Instruct (CPU)',
    parameters: '0.5B',
    tier: 'cpu',
    dtype: 'q8',
    sizeMb: 512,
    description:
      'Runs on any computer, without a graphics card. Plain, sometimes clumsy summaries, and slow: a few ' +
      'tokens per second on a laptop CPU, so a book-length document takes hours (Aerie measures this device ' +
      'and tells you before it starts). About 0.5 GB to download once.',
  },
];

/** Which model to run and how; `device`/`dtype` left out (or `auto`) are chosen by `resolveRuntime`. */
export interface GeneratorChoice {
  model: string;
  device?: GenerationDevice | 'auto';
  dtype?: GenerationDtype | 'auto';
}

/** A choice with the runtime, device and dtype settled. */
export interface ResolvedGeneratorChoice {
  model: string;
  device: GenerationDevice;
  dtype: GenerationDtype;
  runtime: GenerationRuntime;
  /** Why the runtime is not the one the model id asks for (e.g. llama.cpp is missing a browser feature). */
  note?: string;
  /** Why `auto` chose these weights, when not the best for the device (a GPU without `shader-f16`). */
  dtypeWhy?: string;
  /**
   * For an `auto` dtype, the weights to load instead, in order, when the model has no file of `dtype` (a model's
   * own files decide its precision): those `device` can run, best first.
   */
  dtypeFallbacks?: GenerationDtype[];
}

/** Said of 4-bit weights with fp32 activations chosen on WebGPU for a GPU without half-precision shaders. */
export const NO_SHADER_F16 = 'this GPU lacks shader-f16, which q4f16 needs';

/** The preset of a model id, if it is one. */
export function presetOf(model: string): GeneratorPreset | undefined {
  return GENERATOR_PRESETS.find((p) => p.id === model);
}

/**
 * The default preset for this browser: the GPU one when WebGPU has a (hardware) adapter, else the CPU one (the
 * browser's software fallback adapter is slower than WASM).
 */
export function defaultPreset(gpu: GpuSupport): GeneratorPreset {
  const id = gpu.adapter && !gpu.fallback ? GPU_PRESET_ID : CPU_PRESET_ID;
  return presetOf(id)!;
}

/** The dtype of 4-bit weights on this GPU: q4f16 with `shader-f16`, else q4 (fp32 activations). */
function gpuDtype(gpu: GpuSupport, preset: GeneratorPreset | undefined): GenerationDtype {
  if (gpu.f16) return preset?.tier === 'gpu' ? preset.dtype : 'q4f16';
  return preset?.fallbackDtype ?? 'q4';
}

/**
 * The ONNX weights an `auto` dtype may load on `device`, best first after `first`: on a GPU with `shader-f16`
 * 4-bit with half or full-precision activations, then half and full precision; on one without, 4-bit and full
 * precision (fp16 needs the feature); on the CPU 8-bit, 4-bit, then full precision.
 */
function autoDtypeFallbacks(
  first: GenerationDtype,
  device: GenerationDevice,
  gpu: GpuSupport,
): GenerationDtype[] {
  const order: GenerationDtype[] =
    device !== 'webgpu' ? ['q8', 'q4', 'fp32'] : gpu.f16 ? ['q4f16', 'q4', 'fp16', 'fp32'] : ['q4', 'fp32'];
  return order.filter((dtype) => dtype !== first);
}

const FALLBACK_ADAPTER_NOTE = (name: string) =>
  `the only WebGPU adapter is the browser's software fallback (${name}), slower than WASM`;

/**
 * Why llama.cpp's WebGPU backend cannot run on this adapter, as a sentence, or undefined when it can. Its backend
 * (ggml-webgpu) asks for a device with `shader-f16` and does not register one without it: llama.cpp would then
 * run every layer on the CPU while asked for the GPU (measured with SwiftShader, which lacks the feature).
 */
export function llamaCppWebGpuGap(gpu: Pick<GpuSupport, 'f16' | 'name'>): string | undefined {
  if (gpu.f16) return undefined;
  return `llama.cpp's WebGPU backend needs the shader-f16 feature, which WebGPU (${gpu.name}) lacks`;
}

/**
 * Where a GGUF model runs: an explicit `webgpu` is kept (the load checks the device and falls back to WASM,
 * saying why); `auto` takes WebGPU only on a hardware adapter with `shader-f16` (never the browser's software
 * fallback, as for ONNX models), else WASM with a note when an adapter was there; `wasm` and `cpu` are WASM
 * (llama.cpp runs only in a browser).
 */
function llamaCppDevice(
  requested: GeneratorChoice['device'],
  gpu: GpuSupport,
): { device: 'webgpu' | 'wasm'; note?: string } {
  if (requested === 'webgpu') return { device: 'webgpu' };
  if ((requested && requested !== 'auto') || !gpu.adapter) return { device: 'wasm' };
  if (gpu.fallback) return { device: 'wasm', note: FALLBACK_ADAPTER_NOTE(gpu.name) };
  const gap = llamaCppWebGpuGap(gpu);
  return gap ? { device: 'wasm', note: gap } : { device: 'webgpu' };
}

/**
 * Settles the runtime, device and dtype of a choice. A GGUF file runs on llama.cpp (device: `llamaCppDevice`; its
 * dtype is the file's quantisation); a browser that lacks what llama.cpp needs (`llamaCpp`) gets a `note` naming it,
 * and the load fails with it (there is no other runtime for a GGUF file). An ONNX model, `auto` device: WebGPU
 * when there is a hardware adapter (or `cpu` in Node, `isNode`), else WASM, with a `note` when the only adapter is
 * the browser's software fallback. `auto` dtype: the preset's (q4f16 or its
 * fallback on a GPU, q8 on the CPU); for any other model the same rule by device; on a GPU without `shader-f16`
 * `dtypeWhy` says so; `dtypeFallbacks` lists what to load when the model lacks that file. A CPU preset stays on the CPU
 * even with a GPU (the user chose it).
 */
export function resolveRuntime(
  choice: GeneratorChoice,
  gpu: GpuSupport,
  isNode = false,
  llamaCpp?: LlamaCppSupport,
): ResolvedGeneratorChoice {
  const preset = presetOf(choice.model);
  if (isGgufModel(choice.model)) {
    const { device, note } = llamaCppDevice(choice.device, gpu);
    const resolved = {
      model: choice.model,
      device,
      dtype: ggufQuant(choice.model),
      runtime: 'llama.cpp' as const,
    };
    if (llamaCpp && !llamaCpp.ok)
      return { ...resolved, note: `this browser lacks ${llamaCpp.missing.join(', ')}` };
    return note ? { ...resolved, note } : resolved;
  }
  let device: GenerationDevice;
  let note: string | undefined;
  if (choice.device && choice.device !== 'auto') device = choice.device;
  else if (isNode) device = 'cpu';
  else if (preset?.tier === 'cpu' || !gpu.adapter) device = 'wasm';
  else if (gpu.fallback) {
    device = 'wasm';
    note = FALLBACK_ADAPTER_NOTE(gpu.name);
  } else device = 'webgpu';
  let dtype: GenerationDtype;
  let dtypeWhy: string | undefined;
  let dtypeFallbacks: GenerationDtype[] | undefined;
  if (choice.dtype && choice.dtype !== 'auto') dtype = choice.dtype;
  else {
    if (device === 'webgpu') {
      dtype = gpuDtype(gpu, preset);
      if (!gpu.f16) dtypeWhy = NO_SHADER_F16;
    } else dtype = preset?.tier === 'cpu' ? preset.dtype : 'q8';
    dtypeFallbacks = autoDtypeFallbacks(dtype, device, gpu);
  }
  return {
    model: choice.model,
    device,
    dtype,
    runtime: 'onnx',
    ...(note ? { note } : {}),
    ...(dtypeWhy ? { dtypeWhy } : {}),
    ...(dtypeFallbacks ? { dtypeFallbacks } : {}),
  };
}

/**
 * How a loaded model runs, for people: its runtime, where (placement.ts) and its weights (and why, when `auto`
 * had to take lesser ones), e.g. "ONNX Runtime, WebGPU (google swiftshader), q4 (this GPU lacks shader-f16,
 * which q4f16 needs)" or "llama.cpp, WASM (2 threads, cross-origin isolated), q8_0". With `ranOn` (a reply's
 * record) a reply that moved mid-way names both devices and why.
 */
export function runtimeLabel(
  info: {
    runtime?: GenerationRuntime;
    device: string;
    dtype: string;
    dtypeWhy?: string;
    threads?: number;
    placement?: ModelPlacement;
  },
  ranOn?: readonly DeviceUse[],
): string {
  const runtime = info.runtime === 'llama.cpp' ? 'llama.cpp' : 'ONNX Runtime';
  const dtype = `${info.dtype}${info.dtypeWhy ? ` (${info.dtypeWhy})` : ''}`;
  if (ranOn && ranOn.length > 1) return `${runtime}, ${dtype}, ${usesLabel(ranOn, ['token', 'tokens'])}`;
  const where = info.placement
    ? placementLabel(info.placement)
    : `${info.device}${info.threads ? `, ${info.threads} thread${info.threads === 1 ? '' : 's'}` : ''}`;
  return `${runtime}, ${where}, ${dtype}`;
}

/** What a tree records as the writer of its summaries (`SummarizerInfo.model`), e.g. `builtin:…@q8`. */
export function builtinModelTag(choice: { model: string; dtype: GenerationDtype | 'auto' }): string {
  return `builtin:${choice.model}@${choice.dtype}`;
}

/** The model and dtype of a `builtinModelTag`, or undefined for any other model string. */
export function parseBuiltinModelTag(tag: string): { model: string; dtype: string } | undefined {
  const match = /^builtin:(.+)@([a-z0-9_]+)$/.exec(tag);
  return match ? { model: match[1], dtype: match[2] } : undefined;
}
