/**
 * The built-in model's speed in headless Chromium through the app's real path (page → comlink → generate worker
 * → generate service → one of the two runtimes, WASM, 2 threads, cross-origin isolated, under the app's strict
 * Content-Security-Policy), each beside its native twin on the same file, prompt, token count and thread count,
 * in the same run:
 * - ONNX: TransformersGenerator → transformers.js → ONNX Runtime Web, beside onnxruntime-node (llm-native.ts);
 * - GGUF: LlamaCppGenerator → @wllama/wllama (llama.cpp in WebAssembly), beside native llama.cpp
 *   (node-llama-cpp's CPU binaries when AERIE_NODE_LLAMA_CPP names a folder holding it; llm-native-llama.ts).
 * Then the summaries of a 78k-token document are projected for each, and the fastest CPU runtime is set against
 * today's path (ONNX q8) and the 30-minute goal. Last, the WebGPU rows (bench/llm-webgpu.ts): the q4 file on
 * WebGPU in a Chromium that offers an adapter, naming it, beside WASM's q4 run; NOT MEASURED as speed on a software
 * adapter.
 *
 * Model: random weights with exactly Qwen2.5-0.5B-Instruct's shapes (the CPU preset's architecture), in ONNX q8
 * and q4 (scripts/models/make_qwen2_random.py) and GGUF Q8_0 and Q4_0 (make_qwen2_gguf.py: the same weights),
 * generated into .bench-cache/ when missing. Its tokenizer is the test model's small BPE padded to Qwen's 151,936
 * ids, so the output layer costs what the real one costs.
 * Prompt: the paper's summarisation prompt over the start of the sample, about 512 model tokens (a typical
 * cluster); 64 new tokens. Each rate is the best of a few runs (other work on this shared machine only slows a
 * run down); the native runs happen before and after the browser's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import type { Plugin } from 'vite';
import { CHROMIUM_PATH, CHROMIUM_WEBGPU_ARGS } from '../e2e/support/chromium';
import { splitSentences } from '../src/core/text';
import { summaryMessages } from '../src/core/chat';
import type { ChatMessage } from '../src/core/chat';
import { estimateSummarySeconds, planSummaryWork, speedOf } from '../src/models/generate/generation-speed';
import { ROOT, startBrowserBench, type BrowserBench } from './browser/embed-harness';
import type { LlmPageConfig, LlmPageResult } from './browser/llm-page';
import { timeNative, type NativeRun, type NativeTiming } from './llm-native';
import { nodeLlamaCppEntry, timeNativeLlama } from './llm-native-llama';
import { WEBGPU_VARIANTS, webGpuLlmLines, type LlmWebGpuContext, type LlmWebGpuVariant } from './llm-webgpu';
import { wllamaAssets } from '../build/wllama-assets';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import { incompleteModel, runPython } from './support';
import { linkGpuCheckModel } from './webgpu';
import {
  BATCH_SIZES,
  batchPrompts,
  browserBatches,
  nativeBatches,
  promptEncoder,
  sameTexts,
  type BatchRun,
} from './llm-batch';

const MODELS_DIR = join(ROOT, '.bench-cache', 'models');
const MODELS_URL_PATH = '/.bench-cache/models/';
const MODEL_FOLDER = 'qwen2.5-0.5b-random';
const MODEL_ID = `local:${MODEL_FOLDER}`;
/** One runtime and weights file measured. */
interface Variant {
  /** Its name in `AERIE_BENCH_LLM` and in the rows. */
  id: string;
  runtime: 'onnx' | 'llama.cpp';
  dtype: string;
  /** The model id the app's generate service loads. */
  model: string;
  /** The weights file, relative to the model folder. */
  file: string;
  /** Timed runs (ONNX q4 and llama.cpp are measured once: each of their runs takes minutes in WASM here). */
  repeats: number;
  /** ONNX Runtime Web's build in the browser (default: the app's generate worker's). */
  ortBuild?: 'asyncify' | 'plain';
  /**
   * Whether the batch sizes of AERIE_BENCH_LLM_BATCH are swept (ONNX q8 only: the CPU preset's weights; q4
   * writes at a twentieth of native's rate in WASM here, so its sweep took most of the run and can never pick
   * the CPU runtime).
   */
  batched?: boolean;
  /** Its model folder under .bench-cache/models (default MODEL_FOLDER). */
  folder?: string;
  /**
   * Set on a graph the app does not load: measured only when AERIE_BENCH_LLM names it, never the app's runtime in
   * the verdict rows, and this text in its rows' labels.
   */
  notTheApp?: string;
}
/** The bench model's weights exported with attention that does not repeat key/value heads (same logits). */
const GROUPED_FOLDER = 'qwen2.5-0.5b-random-grouped';
const VARIANTS: Variant[] = [
  {
    id: 'onnx-q8',
    runtime: 'onnx',
    dtype: 'q8',
    model: MODEL_ID,
    file: 'onnx/model_quantized.onnx',
    repeats: 3,
    batched: true,
  },
  { id: 'onnx-q4', runtime: 'onnx', dtype: 'q4', model: MODEL_ID, file: 'onnx/model_q4.onnx', repeats: 1 },
  {
    id: 'onnx-q8-plain',
    runtime: 'onnx',
    dtype: 'q8',
    model: MODEL_ID,
    file: 'onnx/model_quantized.onnx',
    repeats: 1,
    ortBuild: 'plain',
    batched: true,
  },
  {
    id: 'onnx-q8-grouped',
    runtime: 'onnx',
    dtype: 'q8',
    model: `local:${GROUPED_FOLDER}`,
    file: 'onnx/model_quantized.onnx',
    repeats: 3,
    batched: true,
    folder: GROUPED_FOLDER,
    // What rewriting the attention of the hub's model would give.
    notTheApp: 'grouped attention (not the app’s graph)',
  },
  ...(['q8_0', 'q4_0'] as const).map((dtype) => ({
    id: `llama.cpp-${dtype}`,
    runtime: 'llama.cpp' as const,
    dtype,
    model: `${MODEL_ID}/model-${dtype}.gguf`,
    file: `model-${dtype}.gguf`,
    repeats: 1,
  })),
];
/**
 * `AERIE_BENCH_LLM=onnx-q8,llama.cpp-q8_0` measures only those; default all but the `notTheApp` ones, and the
 * WebGPU ones (`webgpu-q4`, `webgpu-llama.cpp-q8_0`).
 */
const CHOSEN = new Set(
  (
    process.env.AERIE_BENCH_LLM ??
    [...VARIANTS.filter((v) => !v.notTheApp), ...WEBGPU_VARIANTS].map((v) => v.id).join(',')
  ).split(','),
);
/** Today's path, the one the issue's 5× is measured against. */
const BASELINE = 'onnx-q8';
/** The issue's goal for the 78k-token document's summaries on 2 cores, minutes. */
const GOAL_MINUTES = 30;
const GOAL_SPEEDUP = 5;
const CONFIG_FILES = ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json'];
/** The ONNX file a WebGPU variant reads: the WASM variant's it stands beside. */
function webGpuFile(variant: LlmWebGpuVariant): { id: string; file: string } {
  return { id: variant.id, file: VARIANTS.find((v) => v.id === variant.wasm)!.file };
}
const MAKE_SCRIPTS = ['make_qwen2_random.py', 'make_qwen2_gguf.py'].map((f) =>
  join(ROOT, 'scripts', 'models', f),
);
const SOURCE_TEXT = join(ROOT, 'tests', 'fixtures', 'cinderella.txt');
/** Export of a 0.5B model and its quantisation take several minutes. */
const PYTHON_TIMEOUT_MS = 30 * 60 * 1000;

/** The prompt is grown sentence by sentence until it has this many model tokens (a typical cluster's prompt). */
const PROMPT_TOKENS = 512;
const NEW_TOKENS = 64;
/** New tokens of the WebGPU check generation, on a short prompt (a software adapter emulates the GPU on the CPU). */
const WEBGPU_CHECK_TOKENS = 2;
const THREADS = 2;
const TARGET_RATIO = 0.5;
/** The long document whose summaries are projected, in cl100k tokens, and its leaves' mean size. */
const DOCUMENT_TOKENS = 78_000;
const MEAN_LEAF_TOKENS = 85;
/** The Content-Security-Policy the app is served with (script, worker, connect and WebAssembly rules). */
const APP_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' blob:; worker-src 'self' blob:; connect-src 'self'; " +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data:";
const MS_PER_S = 1000;
const SECONDS_PER_MINUTE = 60;

/** Sends APP_CSP with every response, so the page and its workers run under it. */
function strictCsp(): Plugin {
  return {
    name: 'aerie-bench-csp',
    configureServer(server) {
      server.middlewares.use((_req, res, next) => {
        res.setHeader('Content-Security-Policy', APP_CSP);
        next();
      });
    },
  };
}

function skipped(reason: string): BenchLine[] {
  return [notMeasured('Built-in model generation (prompt processing and generation, every dtype)', reason)];
}

/** Makes sure the bench model exists; the reason when it is missing and cannot be generated. */
function ensureModel(): string | undefined {
  const folder = join(MODELS_DIR, MODEL_FOLDER);
  // The files the chosen variants read: the GGUF script (minutes) runs only for a llama.cpp variant.
  const needed = [
    ...CONFIG_FILES,
    ...[...VARIANTS.filter((v) => !v.folder), ...WEBGPU_VARIANTS.map(webGpuFile)]
      .filter((v) => CHOSEN.has(v.id))
      .map((v) => v.file),
  ];
  const missing = () => needed.filter((f) => !existsSync(join(folder, f)));
  const complete = () => missing().length === 0;
  if (complete()) return undefined;
  for (const script of MAKE_SCRIPTS) {
    const gguf = script.endsWith('gguf.py');
    if (!missing().some((f) => f.endsWith('.gguf') === gguf)) continue;
    console.log(
      `Generating ${folder} with ${script} (random weights, Qwen2.5-0.5B shapes; several minutes)…`,
    );
    const made = runPython([script, '--qwen2.5-0.5b', folder], PYTHON_TIMEOUT_MS);
    if ('reason' in made) return made.reason;
  }
  if (!complete()) return incompleteModel(folder, needed);
  for (const variant of VARIANTS.filter((v) => v.folder && CHOSEN.has(v.id))) {
    const own = join(MODELS_DIR, variant.folder!);
    const files = [...CONFIG_FILES, variant.file];
    if (files.every((f) => existsSync(join(own, f)))) continue;
    console.log(`Generating ${own} (${variant.id}; several minutes)…`);
    const made = runPython([MAKE_SCRIPTS[0], '--qwen2.5-0.5b', own, '--grouped'], PYTHON_TIMEOUT_MS);
    if ('reason' in made) return made.reason;
    if (!files.every((f) => existsSync(join(own, f)))) return incompleteModel(own, files);
  }
  return undefined;
}

/** The bench's prompt: its messages, their token ids, and the tokenizer's decoder (for the native ids). */
interface BenchPrompt {
  messages: ChatMessage[];
  /** The summary prompt over the first sentence alone (the WebGPU check generation). */
  short: ChatMessage[];
  ids: number[];
  decode: (ids: number[]) => string;
  /** Distinct summary prompts of about the same size, for the batched runs (llm-batch.ts). */
  batch: ChatMessage[][];
}

/** The summarisation prompt over the sample's first sentences, grown to PROMPT_TOKENS model tokens; its ids. */
async function benchPrompt(): Promise<BenchPrompt> {
  env.localModelPath = MODELS_DIR;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained(MODEL_FOLDER);
  const source = readFileSync(SOURCE_TEXT, 'utf8');
  const sentences = splitSentences(source).map(({ start, end }) =>
    source.slice(start, end).replace(/\s+/g, ' '),
  );
  const encode = (messages: ChatMessage[]) => {
    const text = tokenizer.apply_chat_template(messages, {
      tokenize: false,
      add_generation_prompt: true,
    }) as string;
    return tokenizer.encode(text, { add_special_tokens: false });
  };
  let taken = 1;
  let messages = summaryMessages(sentences.slice(0, taken));
  while (encode(messages).length < PROMPT_TOKENS && taken < sentences.length) {
    messages = summaryMessages([sentences.slice(0, ++taken).join(' ')]);
  }
  return {
    messages,
    short: summaryMessages(sentences.slice(0, 1)),
    ids: encode(messages),
    decode: (ids) => tokenizer.decode(ids, { skip_special_tokens: true }),
    batch: batchPrompts(ROOT, promptEncoder(tokenizer), Math.max(...BATCH_SIZES), PROMPT_TOKENS),
  };
}

const best = (values: number[]) => Math.max(...values);
const rate = (tokens: number, ms: number) => (tokens * MS_PER_S) / ms;

/** The ORT-web and wllama files the pages and workers fetched (from the bench server: /ort/, /wllama/). */
function runtimeFiles(bench: BrowserBench<LlmPageConfig, LlmPageResult>): string[] {
  const files = bench
    .requests()
    .filter((url) => /\/(ort|wllama)[/-]/.test(url) && /\.(mjs|wasm)(\?|$)/.test(url))
    .map((url) => new URL(url).pathname);
  return [...new Set(files)];
}

/** Where the first generated text differs: "identical", or the index of the first differing character. */
function textAgreement(ours: string, theirs: string, who = 'native'): string {
  if (ours === theirs) return `identical to ${who}`;
  let i = 0;
  while (i < ours.length && ours[i] === theirs[i]) i++;
  return `same as ${who} for ${i} of ${theirs.length} characters`;
}

/** What the rows of one variant need. */
interface Measured {
  variant: Variant;
  promptTokens: number;
  result: LlmPageResult;
  /** The native twin's timing, or why it could not run. */
  native: NativeTiming | { reason: string };
  sameText: string;
  /** The batched runs (ONNX only): in Chromium and natively, by batch size. */
  batches?: { browser: BatchRun[]; native: BatchRun[] };
}

/** The native twin of a variant: onnxruntime-node for ONNX, node-llama-cpp for GGUF (when installed). */
function nativeTimer(
  variant: Variant,
  prompt: BenchPrompt,
): (() => Promise<NativeTiming>) | { reason: string } {
  const file = join(MODELS_DIR, variant.folder ?? MODEL_FOLDER, variant.file);
  const request = {
    promptIds: prompt.ids,
    newTokens: NEW_TOKENS,
    threads: THREADS,
    repeats: variant.repeats,
  };
  if (variant.runtime === 'onnx') return () => timeNative(file, request);
  const found = nodeLlamaCppEntry();
  if ('reason' in found) return found;
  return () => timeNativeLlama(found.entry, file, request);
}

/** One variant natively, then in the browser page (a fresh worker) with the same prompt and token count. */
async function measure(
  bench: BrowserBench<LlmPageConfig, LlmPageResult>,
  prompt: BenchPrompt,
  variant: Variant,
): Promise<Measured> {
  const timeIt = nativeTimer(variant, prompt);
  // Native runs before and after the browser's, so a change of load on this shared machine hits both sides.
  const before = typeof timeIt === 'function' ? await timeIt() : undefined;
  const result = await bench.run({
    choice: { model: variant.model, device: 'wasm', dtype: variant.dtype },
    messages: prompt.messages,
    newTokens: NEW_TOKENS,
    repeats: variant.repeats,
    worker: {
      modelsPath: MODELS_URL_PATH,
      threads: THREADS,
      ...(variant.ortBuild ? { ortBuild: variant.ortBuild } : {}),
    },
  });
  if (!result.pageCrossOriginIsolated || !result.load.crossOriginIsolated) {
    throw new Error('The bench page is not cross-origin isolated: check COOP/COEP in vite.config.ts.');
  }
  if (result.load.info.runtime !== variant.runtime) {
    throw new Error(`${variant.id} ran on ${result.load.info.runtime}: ${result.load.info.note ?? ''}`);
  }
  const after = typeof timeIt === 'function' ? await timeIt() : undefined;
  const native: Measured['native'] =
    before && after ? { ...after, runs: [...before.runs, ...after.runs] } : (timeIt as { reason: string });
  const promptTokens = prompt.ids.length;
  for (const r of result.runs) {
    if (r.promptTokens !== promptTokens || r.completionTokens !== NEW_TOKENS) {
      throw new Error(
        `${variant.id}: the browser generated ${r.completionTokens} tokens after ${r.promptTokens}; expected ${NEW_TOKENS} after ${promptTokens}.`,
      );
    }
  }
  let batches: Measured['batches'];
  if (variant.runtime === 'onnx' && variant.batched === true && BATCH_SIZES.length > 0) {
    const batchVariant = {
      choice: { model: variant.model, device: 'wasm' as const, dtype: variant.dtype },
      prompts: prompt.batch,
      newTokens: NEW_TOKENS,
      threads: THREADS,
      modelsPath: MODELS_URL_PATH,
      ...(variant.ortBuild ? { ortBuild: variant.ortBuild } : {}),
    };
    console.log(`Measuring ${variant.id} batched (${BATCH_SIZES.join(', ')} at a time), natively…`);
    const nativeRuns = await nativeBatches(batchVariant, MODELS_DIR);
    console.log(`…and in Chromium`);
    batches = { native: nativeRuns, browser: await browserBatches(bench, batchVariant) };
  }
  return {
    variant,
    promptTokens,
    result,
    native,
    sameText:
      'reason' in native ? 'not compared' : textAgreement(result.runs[0].text, prompt.decode(native.ids)),
    ...(batches ? { batches } : {}),
  };
}

/** Best prefill and decoding rates of generations, tokens/s. */
function bestRates(
  runs: readonly {
    promptTokens: number;
    completionTokens: number;
    timing: { prefillMs: number; decodeMs: number };
  }[],
) {
  return {
    prefill: best(runs.map((r) => speedOf(r).prefillTokensPerSecond)),
    decode: best(runs.map((r) => speedOf(r).decodeTokensPerSecond)),
  };
}

/** The 78k-token document's summary work (the app's plan: ~180 summaries, 100-token budget). */
const WORK = planSummaryWork(Math.round(DOCUMENT_TOKENS / MEAN_LEAF_TOKENS), DOCUMENT_TOKENS);

/**
 * Minutes of WORK at the given rates (a real Qwen2.5 tokenizer writes English in about as many tokens as
 * cl100k): prompts read one at a time, summaries written `batch.rows` at a time where given (each layer's
 * summaries together, as the build asks for them: `decodeSeconds`).
 */
function projectedMinutes(
  rates: { prefill: number; decode: number },
  promptTokens: number,
  batch?: { rows: number; decode: number },
): number {
  const sample = {
    prefillTokensPerSecond: rates.prefill,
    decodeTokensPerSecond: rates.decode,
    batch: batch
      ? { rows: batch.rows, decodeTokensPerSecond: batch.decode }
      : { rows: 1, decodeTokensPerSecond: rates.decode },
    modelTokensPerToken: 1,
    promptTokens,
    completionTokens: NEW_TOKENS,
    seconds: 0,
  };
  return estimateSummarySeconds(WORK, sample) / SECONDS_PER_MINUTE;
}

function nativeRates(m: Measured): { prefill: number; decode: number } | undefined {
  if ('reason' in m.native) return undefined;
  return {
    prefill: best(m.native.runs.map((r) => rate(m.promptTokens, r.prefillMs))),
    decode: best(m.native.runs.map((r) => rate(NEW_TOKENS - 1, r.decodeMs))),
  };
}

/** What ran: runtime, weights, threads. */
function labelOf(m: Measured): string {
  const engine = m.variant.runtime === 'onnx' ? 'transformers.js + ONNX Runtime Web' : 'llama.cpp (wllama)';
  const build = m.variant.ortBuild ? ` (${m.variant.ortBuild} build)` : '';
  const graph = m.variant.notTheApp ? `, ${m.variant.notTheApp}` : '';
  return `${engine}${build}, random ${m.variant.dtype}${graph}, WASM ${m.result.load.info.threads} threads`;
}

function rowsOf(m: Measured): BenchRow[] {
  const { promptTokens, result, native, variant } = m;
  const runs = result.runs;
  const ours = bestRates(runs);
  const reference = nativeRates(m);
  // A native twin that could not run is a missing reference (bench/gaps.ts), never a figure.
  const referenceMissing = 'reason' in native ? native.reason : undefined;
  const referenceLabel =
    'reason' in native
      ? native.reason
      : variant.runtime === 'onnx'
        ? `onnxruntime-node ${native.version}, ${native.threads} threads, same file`
        : `${native.version}, ${native.threads} threads, same file`;
  const label = labelOf(m);
  const nativeRuns = (f: (r: NativeRun) => string) =>
    'reason' in native ? [] : [`native runs ${native.runs.map(f).join('/')}`];
  return [
    {
      name: `Prompt processing (${promptTokens}-token summary prompt), ${label}`,
      value: ours.prefill,
      unit: 'tokens/s',
      higherIsBetter: true,
      reference: reference?.prefill,
      referenceLabel,
      referenceMissing,
      target: TARGET_RATIO,
      note: [
        `crossOriginIsolated=${result.pageCrossOriginIsolated}`,
        'strict CSP',
        `model load ${(result.loadMs / MS_PER_S).toFixed(1)} s`,
        `browser runs ${runs.map((r) => speedOf(r).prefillTokensPerSecond.toFixed(0)).join('/')}`,
        ...nativeRuns((r) => rate(promptTokens, r.prefillMs).toFixed(0)),
      ].join(', '),
    },
    {
      name: `Generation (${NEW_TOKENS} new tokens, KV cache), ${label}`,
      value: ours.decode,
      unit: 'tokens/s',
      higherIsBetter: true,
      reference: reference?.decode,
      referenceLabel,
      referenceMissing,
      target: TARGET_RATIO,
      note: [
        `greedy text ${m.sameText}`,
        `browser runs ${runs.map((r) => speedOf(r).decodeTokensPerSecond.toFixed(2)).join('/')}`,
        ...nativeRuns((r) => rate(NEW_TOKENS - 1, r.decodeMs).toFixed(2)),
      ].join(', '),
    },
    {
      name: `Projected time of the ${WORK.summaries} summaries of a ${DOCUMENT_TOKENS / 1000}k-token document (${WORK.promptTokens} prompt + ${WORK.outputTokens} summary tokens), ${label}`,
      value: projectedMinutes(ours, promptTokens),
      unit: 'min',
      higherIsBetter: false,
      reference: reference && projectedMinutes(reference, promptTokens),
      referenceLabel,
      referenceMissing,
    },
  ];
}

/** Bytes of key/value cache per position of one row of the bench model (24 layers × 2 × 2 heads × 64 × fp32). */
const CACHE_BYTES_PER_POSITION = 24 * 2 * 2 * 64 * 4;
const BYTES_PER_MB = 1024 * 1024;

/** The projected minutes of a batched run (prompts at its own reading rate; the lone rate from its 1 row run). */
function batchMinutes(runs: readonly BatchRun[], run: BatchRun, promptTokens: number): number {
  const alone = runs.find((r) => r.rows === 1) ?? run;
  return projectedMinutes({ prefill: run.prefill, decode: alone.decode }, promptTokens, {
    rows: run.rows,
    decode: run.decode,
  });
}

/** The batched rows of a variant: each batch size's writing rate and projection, beside native's. */
function batchRowsOf(m: Measured, label: string): BenchRow[] {
  if (!m.batches) return [];
  const { browser, native } = m.batches;
  const aloneBrowser = browser.find((r) => r.rows === 1);
  const aloneNative = native.find((r) => r.rows === 1);
  const baseRss = aloneBrowser?.rssMb;
  return browser.flatMap((run) => {
    const twin = native.find((r) => r.rows === run.rows);
    const referenceLabel = `the same generator on onnxruntime-node, ${run.rows} at a time, same file`;
    // A batch size the native run did not measure is a missing reference (bench/gaps.ts), never a figure.
    const referenceMissing = twin ? undefined : `onnxruntime-node measured no run of ${run.rows} at a time`;
    const cacheMb = (run.rows * (m.promptTokens + NEW_TOKENS) * CACHE_BYTES_PER_POSITION) / BYTES_PER_MB;
    const same =
      run.rows > 1 && aloneBrowser
        ? `texts identical to one at a time: ${sameTexts(run, aloneBrowser)} of ${run.rows} (native ${twin && aloneNative ? `${sameTexts(twin, aloneNative)} of ${run.rows}` : 'n/a'})`
        : `${run.texts.length} prompts one at a time`;
    const memory =
      run.rssMb !== undefined
        ? `renderer RSS ${run.rssMb.toFixed(0)} MB${baseRss !== undefined && run.rows > 1 ? ` (+${(run.rssMb - baseRss).toFixed(0)} over 1 at a time)` : ''}`
        : 'renderer RSS unknown';
    return [
      {
        name: `Generation, ${run.rows} summaries at a time (${m.promptTokens}-token prompts, ${NEW_TOKENS} new tokens each, all rows counted), ${label}`,
        value: run.decode,
        unit: 'tokens/s',
        higherIsBetter: true,
        reference: twin?.decode,
        referenceLabel,
        referenceMissing,
        note: [
          `prompt reading ${run.prefill.toFixed(0)} tokens/s (native ${twin ? twin.prefill.toFixed(0) : 'n/a'})`,
          same,
          memory,
          `KV cache of the batch ${cacheMb.toFixed(0)} MB`,
        ].join(', '),
      },
      {
        name: `Projected time of the ${WORK.summaries} summaries of a ${DOCUMENT_TOKENS / 1000}k-token document, ${run.rows} at a time, ${label}`,
        value: batchMinutes(browser, run, m.promptTokens),
        unit: 'min',
        higherIsBetter: false,
        reference: twin ? batchMinutes(native, twin, m.promptTokens) : undefined,
        referenceLabel,
        referenceMissing,
      },
    ];
  });
}

/** The fastest CPU runtime against today's path (ONNX q8 in WASM) and the issue's goal, both in minutes. */
function verdictRows(all: readonly Measured[]): BenchRow[] {
  // A graph the app does not load is never its runtime.
  const measured = all.filter((m) => !m.variant.notTheApp);
  const minutes = (m: Measured) => projectedMinutes(bestRates(m.result.runs), m.promptTokens);
  const baseline = measured.find((m) => m.variant.id === BASELINE);
  const options = measured.flatMap((m) => [
    { id: `${m.variant.id}, one at a time`, minutes: minutes(m), measured: m },
    ...(m.batches?.browser ?? [])
      .filter((run) => run.rows > 1)
      .map((run) => ({
        id: `${m.variant.id}, ${run.rows} at a time`,
        minutes: batchMinutes(m.batches!.browser, run, m.promptTokens),
        measured: m,
      })),
  ]);
  const fastest = [...options].sort((a, b) => a.minutes - b.minutes)[0];
  if (!fastest) return [];
  const name = `Summaries of the ${DOCUMENT_TOKENS / 1000}k-token document, fastest CPU runtime (${fastest.id})`;
  const rows: BenchRow[] = [
    {
      name: `${name} vs the ${GOAL_MINUTES}-minute goal`,
      value: fastest.minutes,
      unit: 'min',
      higherIsBetter: false,
      reference: GOAL_MINUTES,
      referenceLabel: 'the goal on 2 cores',
      target: 1,
    },
  ];
  if (baseline && fastest.id !== `${BASELINE}, one at a time`) {
    rows.push({
      name: `${name} vs today's path (${BASELINE}, one at a time) in the same run`,
      value: fastest.minutes,
      unit: 'min',
      higherIsBetter: false,
      reference: minutes(baseline),
      referenceLabel: `${BASELINE} in Chromium`,
      target: 1 / GOAL_SPEEDUP,
      note: fivefoldFloor(measured, minutes(baseline) / GOAL_SPEEDUP),
    });
  }
  return rows;
}

/**
 * What bounds the 5× goal from below, from this run's own rates: the minutes that reading the document's prompts
 * alone takes at the fastest prompt rate measured, and writing its summaries alone at the fastest writing rate
 * (any runtime, any batch size), in Chromium and natively, beside the minutes 5× would allow. In the page either
 * one above the allowance rules 5× out whatever the other does.
 */
function fivefoldFloor(measured: readonly Measured[], allowed: number): string {
  type Rate = { rows: number; rate: number };
  const fastest = (rates: Rate[]) =>
    rates.reduce<Rate | undefined>((a, r) => (a && a.rate >= r.rate ? a : r), undefined);
  const browserRuns = measured.flatMap((m) => [
    { rows: 1, ...bestRates(m.result.runs) },
    ...(m.batches?.browser ?? []),
  ]);
  const nativeRuns = measured.flatMap((m) => {
    const alone = nativeRates(m);
    return [...(alone ? [{ rows: 1, ...alone }] : []), ...(m.batches?.native ?? [])];
  });
  const minutes = (tokens: number, r: Rate) => tokens / r.rate / SECONDS_PER_MINUTE;
  const part = (
    what: 'reading' | 'writing',
    where: string,
    runs: { rows: number; prefill: number; decode: number }[],
  ) => {
    const tokens = what === 'reading' ? WORK.promptTokens : WORK.outputTokens;
    const best = fastest(
      runs.map((r) => ({ rows: r.rows, rate: what === 'reading' ? r.prefill : r.decode })),
    );
    if (!best) return `${what} unmeasured ${where}`;
    const rows = what === 'writing' ? `, ${best.rows} at a time` : '';
    return `${what} ${minutes(tokens, best).toFixed(1)} min ${where} (${best.rate.toFixed(0)} tokens/s${rows})`;
  };
  return (
    `${GOAL_SPEEDUP}× would be ${allowed.toFixed(1)} min; alone, at the fastest rates this run measured: ` +
    `${part('reading', 'in Chromium', browserRuns)}, ${part('writing', 'in Chromium', browserRuns)}; ` +
    `${part('reading', 'natively', nativeRuns)}, ${part('writing', 'natively', nativeRuns)}`
  );
}

/**
 * Generation in Chromium (WASM, 2 threads) through each runtime and weights file beside its native twin, each
 * one's projection of a long document's summaries, and the fastest against today's path and the goal.
 */
export async function benchLlm(): Promise<BenchLine[]> {
  if (!existsSync(CHROMIUM_PATH)) return skipped(`no Chromium at ${CHROMIUM_PATH} (set AERIE_CHROMIUM)`);
  const missing = ensureModel();
  if (missing) return skipped(missing);
  const prompt = await benchPrompt();
  let bench: BrowserBench<LlmPageConfig, LlmPageResult> | undefined;
  const measured: Measured[] = [];
  try {
    bench = await startLlmBench();
    for (const variant of VARIANTS.filter((v) => CHOSEN.has(v.id))) {
      console.log(`Measuring ${variant.id}…`);
      measured.push(await measure(bench, prompt, variant));
    }
    bench.assertLocalOnly();
    console.log(`Runtime files fetched by the workers: ${runtimeFiles(bench).join(', ')}`);
  } finally {
    await bench?.close();
  }
  const gpuLines = await webGpuLlmLines(
    webGpuContext(prompt, measured),
    WEBGPU_VARIANTS.filter((v) => CHOSEN.has(v.id)),
  );
  return [
    ...measured.flatMap((m) => [...rowsOf(m), ...batchRowsOf(m, labelOf(m))]),
    ...verdictRows(measured),
    ...gpuLines,
  ];
}

/** The bench server with the app's CSP and llama.cpp files, and Chromium (with `chromiumArgs` when given). */
function startLlmBench(chromiumArgs?: string[]): Promise<BrowserBench<LlmPageConfig, LlmPageResult>> {
  return startBrowserBench<LlmPageConfig, LlmPageResult>({
    pagePath: '/bench/browser/llm.html',
    entries: ['bench/browser/llm.html', 'bench/browser/llm-bench.worker.ts'],
    cacheDir: join(ROOT, '.bench-cache', 'vite-llm'),
    plugins: [strictCsp(), wllamaAssets()],
    ...(chromiumArgs ? { chromiumArgs } : {}),
  });
}

/** What the WebGPU rows need: this run's prompt, model and WASM variants. */
function webGpuContext(prompt: BenchPrompt, measured: readonly Measured[]): LlmWebGpuContext {
  return {
    start: () => {
      linkGpuCheckModel(ROOT, MODELS_DIR);
      return startLlmBench(CHROMIUM_WEBGPU_ARGS);
    },
    model: MODEL_ID,
    modelsPath: MODELS_URL_PATH,
    messages: prompt.messages,
    promptTokens: prompt.ids.length,
    newTokens: NEW_TOKENS,
    checkMessages: prompt.short,
    checkTokens: WEBGPU_CHECK_TOKENS,
    wasm(id) {
      const m = measured.find((x) => x.variant.id === id);
      if (!m) return undefined;
      const rates = bestRates(m.result.runs);
      return {
        label: labelOf(m),
        ...rates,
        minutes: projectedMinutes(rates, m.promptTokens),
        text: m.result.runs[0].text,
      };
    },
    project: projectedMinutes,
    agreement: (ours, theirs) => textAgreement(ours, theirs, 'WASM'),
    work: `the ${WORK.summaries} summaries of a ${DOCUMENT_TOKENS / 1000}k-token document`,
  };
}
