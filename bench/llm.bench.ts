/**
 * The built-in model's speed in headless Chromium through the app's real path (page → comlink → generate worker
 * → generate service → TransformersGenerator → transformers.js → ONNX Runtime Web, WASM, 2 threads, cross-origin
 * isolated, under the app's strict Content-Security-Policy), beside native ONNX Runtime (onnxruntime-node,
 * bench/llm-native.ts) on the same ONNX file, prompt, token count and thread count, in the same run.
 *
 * Model: random weights with exactly Qwen2.5-0.5B-Instruct's shapes (the WASM preset's architecture; q8, as the
 * preset runs), generated into .bench-cache/ by scripts/models/make_qwen2_random.py when missing. Its tokenizer
 * is the test model's small BPE padded to Qwen's 151,936 ids, so the output layer costs what the real one costs.
 * Prompt: the paper's summarisation prompt over the start of the sample, about 512 model tokens (a typical
 * cluster); 64 new tokens. Each rate is the best of a few runs (other work on this shared machine only slows a
 * run down); the native runs happen before and after the browser's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import type { Plugin } from 'vite';
import { CHROMIUM_PATH } from '../e2e/support/chromium';
import { splitSentences } from '../src/core/chunk';
import { summaryMessages } from '../src/llm/prompts';
import type { ChatMessage } from '../src/llm/types';
import { estimateSummarySeconds, planSummaryWork, speedOf } from '../src/models/generation-speed';
import { ROOT, startBrowserBench, type BrowserBench } from './browser/embed-harness';
import type { LlmPageConfig, LlmPageResult } from './browser/llm-page';
import { timeNative, type NativeTiming } from './llm-native';
import { notMeasured, type BenchLine, type BenchRow } from './report';
import { incompleteModel, runPython } from './support';

const MODELS_DIR = join(ROOT, '.bench-cache', 'models');
const MODELS_URL_PATH = '/.bench-cache/models/';
const MODEL_FOLDER = 'qwen2.5-0.5b-random';
const MODEL_ID = `local:${MODEL_FOLDER}`;
/**
 * The dtypes measured: the CPU preset's q8 by default; `AERIE_BENCH_LLM_DTYPES=q8,q4` adds q4 (4-bit blocks, the
 * weights of the GPU tier's files), which was measured about 5× slower than q8 in WASM here: that is why the CPU
 * preset runs q8.
 */
type Dtype = 'q8' | 'q4';
const DTYPES: Dtype[] = (process.env.AERIE_BENCH_LLM_DTYPES ?? 'q8')
  .split(',')
  .map((d) => d.trim())
  .filter((d): d is Dtype => d === 'q8' || d === 'q4');
const DTYPE_FILES: Record<Dtype, string> = { q8: 'onnx/model_quantized.onnx', q4: 'onnx/model_q4.onnx' };
const MODEL_FILES = [
  'config.json',
  'generation_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  ...Object.values(DTYPE_FILES),
];
const MAKE_MODEL_SCRIPT = join(ROOT, 'scripts', 'models', 'make_qwen2_random.py');
const SOURCE_TEXT = join(ROOT, 'tests', 'fixtures', 'cinderella.txt');
/** Export of a 0.5B model and its quantisation take several minutes. */
const PYTHON_TIMEOUT_MS = 30 * 60 * 1000;

/** The prompt is grown sentence by sentence until it has this many model tokens (a typical cluster's prompt). */
const PROMPT_TOKENS = 512;
const NEW_TOKENS = 64;
const REPEATS = 3;
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
  const complete = () => MODEL_FILES.every((f) => existsSync(join(folder, f)));
  if (complete()) return undefined;
  console.log(`Generating ${folder} (random weights, Qwen2.5-0.5B shapes, q8; several minutes)…`);
  const made = runPython([MAKE_MODEL_SCRIPT, '--qwen2.5-0.5b', folder], PYTHON_TIMEOUT_MS);
  if ('reason' in made) return made.reason;
  return complete() ? undefined : incompleteModel(folder, MODEL_FILES);
}

/** The bench's prompt: its messages, their token ids, and the tokenizer's decoder (for the native ids). */
interface BenchPrompt {
  messages: ChatMessage[];
  ids: number[];
  decode: (ids: number[]) => string;
}

/** The summarisation prompt over the sample's first sentences, grown to PROMPT_TOKENS model tokens; its ids. */
async function benchPrompt(): Promise<{
  messages: ChatMessage[];
  ids: number[];
  decode: (ids: number[]) => string;
}> {
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
    ids: encode(messages),
    decode: (ids) => tokenizer.decode(ids, { skip_special_tokens: true }),
  };
}

const best = (values: number[]) => Math.max(...values);
const rate = (tokens: number, ms: number) => (tokens * MS_PER_S) / ms;

/** The ORT-web files the pages and workers fetched (they must be the asyncify build on /ort/). */
function ortFiles(bench: BrowserBench<LlmPageConfig, LlmPageResult>): string[] {
  const files = bench
    .requests()
    .filter((url) => /\/ort[/-]/.test(url) && /\.(mjs|wasm)(\?|$)/.test(url))
    .map((url) => new URL(url).pathname);
  return [...new Set(files)];
}

/** Where the first generated text differs: "identical", or the index of the first differing character. */
function textAgreement(ours: string, native: string): string {
  if (ours === native) return 'identical to native';
  let i = 0;
  while (i < ours.length && ours[i] === native[i]) i++;
  return `same as native for ${i} of ${native.length} characters`;
}

/** What the rows of one dtype need. */
interface Measured {
  dtype: Dtype;
  promptTokens: number;
  result: LlmPageResult;
  native: NativeTiming;
  sameText: string;
}

/** One dtype natively, then in the browser page (a fresh worker) with the same prompt and token count. */
async function measure(
  bench: BrowserBench<LlmPageConfig, LlmPageResult>,
  prompt: BenchPrompt,
  dtype: Dtype,
): Promise<Measured> {
  const timeIt = () =>
    timeNative(join(MODELS_DIR, MODEL_FOLDER, DTYPE_FILES[dtype]), prompt.ids, NEW_TOKENS, THREADS, REPEATS);
  // Native runs before and after the browser's, so a change of load on this shared machine hits both sides.
  const before = await timeIt();
  const result = await bench.run({
    choice: { model: MODEL_ID, device: 'wasm', dtype },
    messages: prompt.messages,
    newTokens: NEW_TOKENS,
    repeats: REPEATS,
    worker: { modelsPath: MODELS_URL_PATH, threads: THREADS },
  });
  if (!result.pageCrossOriginIsolated || !result.load.crossOriginIsolated) {
    throw new Error('The bench page is not cross-origin isolated: check COOP/COEP in vite.config.ts.');
  }
  const after = await timeIt();
  const native: NativeTiming = { ...after, runs: [...before.runs, ...after.runs] };
  const promptTokens = prompt.ids.length;
  for (const r of result.runs) {
    if (r.promptTokens !== promptTokens || r.completionTokens !== NEW_TOKENS) {
      throw new Error(
        `The browser generated ${r.completionTokens} tokens after ${r.promptTokens}; expected ${NEW_TOKENS} after ${promptTokens}.`,
      );
    }
  }
  return {
    dtype,
    promptTokens,
    result,
    native,
    sameText: textAgreement(result.runs[0].text, prompt.decode(native.ids)),
  };
}

function rowsOf(m: Measured): BenchRow[] {
  const { promptTokens, result, native } = m;
  const runs = result.runs;
  const ours = {
    prefill: best(runs.map((r) => speedOf(r).prefillTokensPerSecond)),
    decode: best(runs.map((r) => speedOf(r).decodeTokensPerSecond)),
  };
  const reference = {
    prefill: best(native.runs.map((r) => rate(promptTokens, r.prefillMs))),
    decode: best(native.runs.map((r) => rate(NEW_TOKENS - 1, r.decodeMs))),
  };
  const referenceLabel = `onnxruntime-node ${native.version}, ${native.threads} threads, same file`;
  const label = `Qwen2.5-0.5B shapes, random ${m.dtype}, WASM ${result.load.ortThreads} threads`;
  const rows: BenchRow[] = [
    {
      name: `Prompt processing (${promptTokens}-token summary prompt), ${label}`,
      value: ours.prefill,
      unit: 'tokens/s',
      higherIsBetter: true,
      reference: reference.prefill,
      referenceLabel,
      target: TARGET_RATIO,
      note: [
        `crossOriginIsolated=${result.pageCrossOriginIsolated}`,
        'strict CSP',
        `model load ${(result.loadMs / MS_PER_S).toFixed(1)} s`,
        `browser runs ${runs.map((r) => speedOf(r).prefillTokensPerSecond.toFixed(0)).join('/')}`,
        `native runs ${native.runs.map((r) => rate(promptTokens, r.prefillMs).toFixed(0)).join('/')}`,
      ].join(', '),
    },
    {
      name: `Generation (${NEW_TOKENS} new tokens, KV cache), ${label}`,
      value: ours.decode,
      unit: 'tokens/s',
      higherIsBetter: true,
      reference: reference.decode,
      referenceLabel,
      target: TARGET_RATIO,
      note: [
        `greedy text ${m.sameText}`,
        `browser runs ${runs.map((r) => speedOf(r).decodeTokensPerSecond.toFixed(2)).join('/')}`,
        `native runs ${native.runs.map((r) => rate(NEW_TOKENS - 1, r.decodeMs).toFixed(2)).join('/')}`,
      ].join(', '),
    },
  ];
  // A real Qwen2.5 tokenizer writes English in about as many tokens as cl100k: counts are taken as equal.
  const work = planSummaryWork(Math.round(DOCUMENT_TOKENS / MEAN_LEAF_TOKENS), DOCUMENT_TOKENS);
  const sample = (prefill: number, decode: number) => ({
    prefillTokensPerSecond: prefill,
    decodeTokensPerSecond: decode,
    modelTokensPerToken: 1,
    promptTokens,
    completionTokens: NEW_TOKENS,
    seconds: 0,
  });
  rows.push({
    name: `Projected time of the ${work.summaries} summaries of a ${DOCUMENT_TOKENS / 1000}k-token document (${work.promptTokens} prompt + ${work.outputTokens} summary tokens), ${label}`,
    value: estimateSummarySeconds(work, sample(ours.prefill, ours.decode)) / SECONDS_PER_MINUTE,
    unit: 'min',
    higherIsBetter: false,
    reference: estimateSummarySeconds(work, sample(reference.prefill, reference.decode)) / SECONDS_PER_MINUTE,
    referenceLabel,
  });
  return rows;
}

/**
 * Generation in Chromium (WASM, 2 threads) beside onnxruntime-node for each dtype the CPU tier could use, and a
 * long document's projected summary time.
 */
export async function benchLlm(): Promise<BenchLine[]> {
  if (!existsSync(CHROMIUM_PATH)) return skipped(`no Chromium at ${CHROMIUM_PATH} (set AERIE_CHROMIUM)`);
  const missing = ensureModel();
  if (missing) return skipped(missing);
  const prompt = await benchPrompt();
  let bench: BrowserBench<LlmPageConfig, LlmPageResult> | undefined;
  const measured: Measured[] = [];
  try {
    bench = await startBrowserBench<LlmPageConfig, LlmPageResult>({
      pagePath: '/bench/browser/llm.html',
      entries: ['bench/browser/llm.html', 'bench/browser/llm-bench.worker.ts'],
      cacheDir: join(ROOT, '.bench-cache', 'vite-llm'),
      plugins: [strictCsp()],
    });
    for (const dtype of DTYPES) measured.push(await measure(bench, prompt, dtype));
    bench.assertLocalOnly();
    console.log(`ONNX Runtime files fetched by the workers: ${ortFiles(bench).join(', ')}`);
  } finally {
    await bench?.close();
  }
  return measured.flatMap(rowsOf);
}
