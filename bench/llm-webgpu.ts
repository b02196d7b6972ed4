/**
 * The WebGPU rows of `npm run bench llm` (bench/webgpu.ts says how they are judged): the built-in model's bench
 * weights on WebGPU (device `webgpu`, as Settings' choice) in a Chromium that offers an adapter, beside the WASM
 * run of the same file in the same run. A short check generation first names the adapter and proves the path;
 * on a GPU the bench prompt is then timed as the WASM variants are (prompt processing, generation, the projected
 * summaries of a long document); on the browser's software fallback adapter (SwiftShader here) the line is NOT
 * MEASURED as speed, with what ran. The same for llama.cpp (wllama's WebGPU backend) with a GGUF file; its backend
 * needs `shader-f16`, so on an adapter without it (SwiftShader) the row is NOT MEASURED as speed with where it ran.
 */
import type { ChatMessage } from '../src/core/chat';
import { speedOf } from '../src/models/generate/generation-speed';
import { llamaCppWebGpuGap } from '../src/models/generate/generator-presets';
import { mergeUses, usesLabel, type DeviceUse } from '../src/models/device';
import type { BrowserBench } from './browser/embed-harness';
import type { LlmPageConfig, LlmPageResult } from './browser/llm-page';
import { notMeasuredAsSpeed, type BenchLine, type BenchRow } from './lines';
import { webGpuLabel, webGpuVerdict, type WebGpuRun } from './webgpu';

/** One weights file on WebGPU, and the WASM variant of bench/llm.bench.ts it stands beside. */
export interface LlmWebGpuVariant {
  /** Its name in `AERIE_BENCH_LLM` and in the rows. */
  id: string;
  dtype: string;
  /** The id of the WASM variant with the same file. */
  wasm: string;
  repeats: number;
  /** A GGUF file of the bench model's folder, run by llama.cpp (model `<model>/<gguf>`); unset: ONNX. */
  gguf?: string;
}

/**
 * The GPU preset's weights where the adapter lacks `shader-f16` (q4; the bench model has no q4f16 file), beside
 * WASM's run of the same file.
 */
export const WEBGPU_VARIANTS: LlmWebGpuVariant[] = [
  { id: 'webgpu-q4', dtype: 'q4', wasm: 'onnx-q4', repeats: 1 },
  // llama.cpp's Q8_0 file on WebGPU beside its WASM run: where `auto` would put a GGUF model on a GPU.
  { id: 'webgpu-llama.cpp-q8_0', dtype: 'q8_0', wasm: 'llama.cpp-q8_0', repeats: 1, gguf: 'model-q8_0.gguf' },
];

/** Rates (tokens/s) and what a WASM variant of this run wrote: what a WebGPU row stands beside. */
export interface LlmTwin {
  label: string;
  prefill: number;
  decode: number;
  /** Its projected minutes for the long document. */
  minutes: number;
  /** Its first greedy text on the bench prompt. */
  text: string;
}

/** What the WebGPU rows need from the section. */
export interface LlmWebGpuContext {
  /** Starts the bench server and a Chromium that offers a WebGPU adapter (the caller's plugins, CSP). */
  start(): Promise<BrowserBench<LlmPageConfig, LlmPageResult>>;
  model: string;
  modelsPath: string;
  /** The bench prompt (timed on a GPU), and its token count. */
  messages: ChatMessage[];
  promptTokens: number;
  newTokens: number;
  /** A short prompt for the check generation (any adapter: a software one takes minutes for the bench prompt). */
  checkMessages: ChatMessage[];
  checkTokens: number;
  /** The WASM variant `id` as measured in this run, if it was. */
  wasm(id: string): LlmTwin | undefined;
  /** Projected minutes of the long document's summaries at these rates. */
  project(rates: { prefill: number; decode: number }, promptTokens: number): number;
  /** "identical", or how far two greedy texts agree. */
  agreement(ours: string, theirs: string): string;
  /** The long document's summaries, for the projected row's name. */
  work: string;
}

/** Where a page run's model loaded and its tokens were written, as bench/webgpu.ts judges it. */
function webGpuRunOf(result: LlmPageResult): WebGpuRun {
  const { info, gpu } = result.load;
  const ranOn = result.runs.reduce<DeviceUse[]>((uses, r) => mergeUses(uses, r.ranOn ?? []), []);
  return {
    gpu,
    placement: info.placement,
    ...(info.fallback ? { fallback: info.fallback } : {}),
    ranOn: usesLabel(ranOn, ['token', 'tokens']),
    allOnGpu: ranOn.length > 0 && ranOn.every((u) => u.placement.device === 'webgpu'),
  };
}

const best = (values: number[]) => Math.max(...values);

/** One variant: the check generation, then (on a GPU) the timed runs and their rows. */
async function measureVariant(
  bench: BrowserBench<LlmPageConfig, LlmPageResult>,
  ctx: LlmWebGpuContext,
  variant: LlmWebGpuVariant,
): Promise<BenchLine[]> {
  const choice = variant.gguf
    ? { model: `${ctx.model}/${variant.gguf}`, device: 'webgpu' as const }
    : { model: ctx.model, device: 'webgpu' as const, dtype: variant.dtype };
  const worker = { modelsPath: ctx.modelsPath, webgpu: true };
  const check = await bench.run({
    choice,
    messages: ctx.checkMessages,
    newTokens: ctx.checkTokens,
    repeats: 1,
    worker,
  });
  const run = webGpuRunOf(check);
  const device = run.gpu.adapter ? webGpuLabel(run.gpu) : 'WebGPU';
  const engine = variant.gguf ? 'llama.cpp (wllama)' : 'transformers.js + ONNX Runtime Web';
  const label = `${engine}, random ${variant.dtype}, ${device}`;
  const checked = check.runs[0];
  const name = `Prompt processing and generation (${ctx.promptTokens}-token summary prompt, ${ctx.newTokens} new tokens), ${label}`;
  const gap = variant.gguf && run.gpu.adapter ? llamaCppWebGpuGap(run.gpu) : undefined;
  if (gap) {
    // The hardware here, not a gap: llama.cpp ran on the CPU instead (the app says so too).
    return [
      notMeasuredAsSpeed(
        name,
        `${gap}, so llama.cpp cannot run there: it ran on ${run.ranOn}. On a GPU with shader-f16 the same ` +
          'command prints the figure beside WASM.',
      ),
    ];
  }
  const verdict = webGpuVerdict(
    name,
    run,
    `a ${checked.promptTokens}-token prompt and ${checked.completionTokens} new tokens written in ` +
      `${((checked.timing.prefillMs + checked.timing.decodeMs) / 1000).toFixed(0)} s of CPU emulation ` +
      `(model load ${(check.loadMs / 1000).toFixed(0)} s)`,
  );
  if (verdict) return [verdict];
  const result = await bench.run({
    choice,
    messages: ctx.messages,
    newTokens: ctx.newTokens,
    repeats: variant.repeats,
    worker,
  });
  const timed = webGpuRunOf(result);
  const moved = webGpuVerdict(`Generation, ${label}`, timed, 'the timed runs');
  if (moved) return [moved];
  const speeds = result.runs.map((r) => speedOf(r));
  const ours = {
    prefill: best(speeds.map((s) => s.prefillTokensPerSecond)),
    decode: best(speeds.map((s) => s.decodeTokensPerSecond)),
  };
  const twin = ctx.wasm(variant.wasm);
  const reference = twin
    ? { referenceLabel: `${twin.label}, this run` }
    : {
        referenceMissing: `${variant.wasm} (WASM, same file) was not measured in this run (AERIE_BENCH_LLM)`,
      };
  const facts = [
    `ran on ${timed.ranOn}`,
    `shader-f16 ${run.gpu.f16 ? 'yes' : 'no'}`,
    `model load ${(result.loadMs / 1000).toFixed(1)} s`,
  ];
  const row = (name: string, value: number, referenceValue: number | undefined, unit: string): BenchRow => ({
    name,
    value,
    unit,
    higherIsBetter: unit !== 'min',
    ...(twin ? { reference: referenceValue } : {}),
    ...reference,
  });
  return [
    {
      ...row(
        `Prompt processing (${ctx.promptTokens}-token summary prompt), ${label}`,
        ours.prefill,
        twin?.prefill,
        'tokens/s',
      ),
      note: facts.join(', '),
    },
    {
      ...row(
        `Generation (${ctx.newTokens} new tokens, KV cache), ${label}`,
        ours.decode,
        twin?.decode,
        'tokens/s',
      ),
      note: `greedy text ${twin ? ctx.agreement(result.runs[0].text, twin.text) : 'not compared'} (WASM)`,
    },
    row(`Projected time of ${ctx.work}, ${label}`, ctx.project(ours, ctx.promptTokens), twin?.minutes, 'min'),
  ];
}

/** The WebGPU lines of the chosen variants, in one Chromium that offers an adapter. */
export async function webGpuLlmLines(
  ctx: LlmWebGpuContext,
  variants: readonly LlmWebGpuVariant[],
): Promise<BenchLine[]> {
  if (!variants.length) return [];
  const bench = await ctx.start();
  try {
    const lines: BenchLine[] = [];
    for (const variant of variants) {
      console.log(`Measuring ${variant.id} (WebGPU)…`);
      lines.push(...(await measureVariant(bench, ctx, variant)));
    }
    bench.assertLocalOnly();
    return lines;
  } finally {
    await bench.close();
  }
}
