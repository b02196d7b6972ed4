/**
 * Embedding throughput in headless Chromium through the app's real path (page → comlink → embedding worker →
 * TransformersEmbedder → transformers.js → ONNX Runtime Web, WASM), beside native ONNX Runtime (Python,
 * bench/embed-native.py) on the same ONNX file, texts, batches, dtype and thread count, in the same run.
 *
 * Model: random weights with exactly multi-qa-MiniLM-L6-cos-v1's architecture
 * (scripts/models/make_minilm_random.py, generated into .bench-cache/ when missing). Texts: 512 chunks of at
 * most 100 cl100k tokens (chunkText, as the app cuts documents: whole sentences, so 82 tokens on average) of
 * tests/fixtures/cinderella.txt and seeded sentence shuffles of it. Target: browser ≥ 0.5 × native. Each
 * figure is the fastest of a few passes, since other work on this shared 2-core machine only ever slows a pass
 * down; the browser rows also print the sum of each batch's fastest time ("per-batch best").
 *
 * Then WebGPU (bench/webgpu.ts): a second Chromium that offers an adapter embeds one batch with each dtype on
 * WebGPU (device `webgpu`, as Settings' choice), which names the adapter and checks the first vector against
 * WASM's. On a GPU the texts are then timed as above and printed beside the WASM figure of the same dtype from
 * this run (the app's thread count); on the browser's software fallback adapter (SwiftShader here) the row is
 * NOT MEASURED as speed, with what ran.
 *
 * `AERIE_BENCH_EMBED_SWEEP=1` adds the optimisation sweep of bench/browser/embed-sweep.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { CHROMIUM_PATH, CHROMIUM_WEBGPU_ARGS } from '../e2e/support/chromium';
import { chunkText, splitSentences, countTokens } from '../src/core/text';
import { seededRandom } from '../src/core/random';
import { DEFAULT_BATCH_SIZE, longestFirst } from '../src/models/embed';
import { usesLabel } from '../src/models/device';
import type { EmbeddingDtype } from '../src/models/embed';
import { ROOT, startBrowserBench, type BrowserBench } from './browser/embed-harness';
import type { PageRunResult } from './browser/embed-page';
import { sweepRows } from './browser/embed-sweep';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import { incompleteModel, runPython, shuffled, type PythonRun } from './support';
import { linkGpuCheckModel, webGpuLabel, webGpuVerdict, type WebGpuRun } from './webgpu';

/** Folder of the bench models, and its URL path on the bench server (which serves the repository root). */
export const MODELS_DIR = join(ROOT, '.bench-cache', 'models');
const MODELS_URL_PATH = '/.bench-cache/models/';
export const MODEL_FOLDER = 'minilm-random';
/** The model string the app would use for a self-hosted model in that folder. */
const MODEL_ID = `local:${MODEL_FOLDER}`;
const MODEL_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
];
const MAKE_MODEL_SCRIPT = join(ROOT, 'scripts', 'models', 'make_minilm_random.py');
const NATIVE_SCRIPT = join(ROOT, 'bench', 'embed-native.py');
const SOURCE_TEXT = join(ROOT, 'tests', 'fixtures', 'cinderella.txt');

/** Chunks embedded per pass, and their size limit (the paper's leaf size). */
const TEXT_COUNT = 512;
const CHUNK_TOKENS = 100;
const TEXT_SEED = 20240512;
/** Timed passes per configuration (the fastest counts), unless the budget runs out first. */
const REPEATS = 5;
/** No further browser pass starts once a configuration's passes took this long (keeps the run under ~10 min). */
const PASS_BUDGET_MS = 75_000;
/** Untimed batches before timing (allocations, V8's tier-up of the hot WASM functions). */
const WARMUP_BATCHES = 4;
const TARGET_RATIO = 0.5;
const DTYPES: EmbeddingDtype[] = ['q8', 'fp32'];
/** The long document whose embedding time is projected, in cl100k tokens. */
const DOCUMENT_TOKENS = 78_000;
/** Generating the model (torch export + quantisation) and one native timing may each take minutes. */
const PYTHON_TIMEOUT_MS = 10 * 60 * 1000;
const MS_PER_S = 1000;

/** `count` chunks of at most CHUNK_TOKENS tokens: the fixture, then seeded shuffles of its sentences. */
export function benchChunks(count = TEXT_COUNT): string[] {
  const source = readFileSync(SOURCE_TEXT, 'utf8');
  const sentences = splitSentences(source).map(({ start, end }) =>
    source.slice(start, end).replace(/\s+/g, ' '),
  );
  const random = seededRandom(TEXT_SEED);
  const texts: string[] = [];
  for (let variant = 0; texts.length < count; variant++) {
    const text = (variant === 0 ? sentences : shuffled(sentences, random)).join(' ');
    for (const chunk of chunkText(text, { maxTokens: CHUNK_TOKENS })) texts.push(chunk.text);
  }
  return texts.slice(0, count);
}

/**
 * The bench chunks in the order TransformersEmbedder embeds them (longest first in the model's tokens), so
 * the native reference, which keeps the given order, forms the same batches; and their mean wordpieces.
 */
export async function benchTexts(): Promise<{ texts: string[]; meanWordpieces: number }> {
  const chunks = benchChunks();
  env.localModelPath = MODELS_DIR;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained(MODEL_FOLDER);
  const lengths = chunks.map((text) => tokenizer.encode(text).length);
  const meanWordpieces = lengths.reduce((sum, n) => sum + n, 0) / lengths.length;
  return { texts: longestFirst(lengths).map((i) => chunks[i]), meanWordpieces };
}

/** Runs a Python script of the bench (model generation, native timing). */
function runBenchPython(args: string[]): PythonRun {
  return runPython(args, PYTHON_TIMEOUT_MS);
}

/** Makes sure the bench model exists; the reason when it is missing and cannot be generated. */
export function ensureBenchModel(): string | undefined {
  const folder = join(MODELS_DIR, MODEL_FOLDER);
  const complete = () => MODEL_FILES.every((f) => existsSync(join(folder, f)));
  if (complete()) return undefined;
  console.log(`Generating ${folder} (random MiniLM-L6, fp32 + q8)…`);
  const made = runBenchPython([MAKE_MODEL_SCRIPT, folder]);
  if ('reason' in made) return made.reason;
  return complete() ? undefined : incompleteModel(folder, MODEL_FILES);
}

/** What bench/embed-native.py prints (the fields used here). */
interface NativeTiming {
  chunksPerSecond: number;
  runsChunksPerSecond: number[];
  onnxruntime: string;
}

function timeNative(
  textsFile: string,
  dtype: EmbeddingDtype,
  threads: number,
  vectorsFile: string,
): NativeTiming | string {
  const run = runBenchPython([
    NATIVE_SCRIPT,
    ...['--model', join(MODELS_DIR, MODEL_FOLDER), '--texts', textsFile, '--dtype', dtype],
    ...['--batch-size', String(DEFAULT_BATCH_SIZE), '--threads', String(threads)],
    ...['--repeats', String(REPEATS), '--save', vectorsFile],
  ]);
  return 'reason' in run ? run.reason : (JSON.parse(run.stdout) as NativeTiming);
}

/** Largest absolute difference between two vectors of the same length. */
function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

/** Largest absolute difference between the browser's embedding of the first text and the native one. */
function firstRowDifference(result: PageRunResult, vectorsFile: string): number {
  const bytes = readFileSync(vectorsFile);
  return maxDifference(result.first, new Float32Array(bytes.buffer, bytes.byteOffset, result.dim));
}

const rate = (count: number, ms: number): number => (count * MS_PER_S) / ms;
const threadsLabel = (n: number): string => `${n} thread${n > 1 ? 's' : ''}`;

function skipped(reason: string): BenchLine[] {
  return [notMeasured('Embedding throughput, MiniLM-L6 random, WASM (every dtype and thread count)', reason)];
}

/** What every configuration shares: the server and browser, the texts (and their file for Python). */
interface Session {
  bench: BrowserBench;
  texts: string[];
  textsFile: string;
  dir: string;
  meanWordpieces: number;
  meanTokens: number;
}

/**
 * One configuration in the browser, then natively with the same dtype and the thread count ORT-web used: the
 * throughput row and the projected-document row.
 * @param threads WASM threads; undefined is the app's own choice (every core when cross-origin isolated).
 */
async function measure(
  session: Session,
  dtype: EmbeddingDtype,
  threads: number | undefined,
): Promise<{ rows: [BenchRow, BenchRow]; result: PageRunResult }> {
  const { bench, texts } = session;
  const result = await bench.run({
    texts,
    choice: { model: MODEL_ID, dtype, device: 'wasm' },
    batchSize: DEFAULT_BATCH_SIZE,
    repeats: REPEATS,
    budgetMs: PASS_BUDGET_MS,
    warmupTexts: WARMUP_BATCHES * DEFAULT_BATCH_SIZE,
    worker: { modelsPath: MODELS_URL_PATH, threads },
  });
  if (!result.pageCrossOriginIsolated) {
    throw new Error('The bench page is not cross-origin isolated: check COOP/COEP in vite.config.ts.');
  }
  const ortThreads = result.workers[0].ortThreads;
  const ours = rate(texts.length, Math.min(...result.runsMs));
  const vectorsFile = join(session.dir, `native-${dtype}-${ortThreads}.f32`);
  const native = timeNative(session.textsFile, dtype, ortThreads, vectorsFile);
  const label = `${dtype}, ${threadsLabel(ortThreads)}`;
  const facts = [
    `crossOriginIsolated=${result.pageCrossOriginIsolated}`,
    `browser runs ${result.runsMs.map((ms) => rate(texts.length, ms).toFixed(1)).join('/')}`,
    // The least disturbed estimate; not the ratio's figure, since the native script reports whole passes.
    `per-batch best ${rate(texts.length, result.bestBatchesMs).toFixed(1)}`,
    `${(100 * result.ortShare).toFixed(0)}% in ORT session.run`,
  ];
  const documentChunks = Math.round(DOCUMENT_TOKENS / session.meanTokens);
  const row: BenchRow = {
    name: `Embed ${texts.length} chunks (${session.meanWordpieces.toFixed(0)} wordpieces), MiniLM-L6 random, WASM ${label}, batch ${DEFAULT_BATCH_SIZE}`,
    value: ours,
    unit: 'chunks/s',
    higherIsBetter: true,
  };
  const documentRow: BenchRow = {
    name: `Projected time to embed a ${DOCUMENT_TOKENS / 1000}k-token document (${documentChunks} chunks of ${session.meanTokens.toFixed(0)} tokens), WASM ${label}`,
    value: documentChunks / ours,
    unit: 's',
    higherIsBetter: false,
  };
  if (typeof native === 'string') {
    const referenceMissing = `native ONNX Runtime (bench/embed-native.py): ${native}`;
    return {
      rows: [
        { ...row, referenceMissing, note: facts.join(', ') },
        { ...documentRow, referenceMissing },
      ],
      result,
    };
  }
  facts.push(
    `native runs ${native.runsChunksPerSecond.join('/')}`,
    `max |Δ| of the first vector ${firstRowDifference(result, vectorsFile).toExponential(1)}`,
  );
  const referenceLabel = `native ONNX Runtime ${native.onnxruntime} (Python), ${threadsLabel(ortThreads)}`;
  return {
    rows: [
      {
        ...row,
        reference: native.chunksPerSecond,
        referenceLabel,
        target: TARGET_RATIO,
        note: facts.join(', '),
      },
      { ...documentRow, reference: documentChunks / native.chunksPerSecond, referenceLabel },
    ],
    result,
  };
}

/** The WASM figure a WebGPU row stands beside: the same dtype at the app's thread count, in this run. */
interface WasmFigure {
  dtype: EmbeddingDtype;
  chunksPerSecond: number;
  threads: number;
  /** Its embedding of the first text. */
  first: number[];
}

/** Where a page run's model loaded and its texts ran, as bench/webgpu.ts judges it. */
function webGpuRunOf(result: PageRunResult): WebGpuRun {
  const info = result.workers[0];
  return {
    gpu: info.gpu,
    placement: info.placement,
    ...(info.fallback ? { fallback: info.fallback } : {}),
    ranOn: usesLabel(result.ranOn, ['text', 'texts']),
    allOnGpu: result.ranOn.length > 0 && result.ranOn.every((u) => u.placement.device === 'webgpu'),
  };
}

/**
 * One dtype on WebGPU (`bench` offers an adapter): a check batch that names the adapter and compares the first
 * vector with WASM's, then, on a GPU, the timed passes beside `wasm`; on a software adapter NOT MEASURED as speed.
 */
async function measureWebGpu(bench: BrowserBench, session: Session, wasm: WasmFigure): Promise<BenchLine> {
  const { texts } = session;
  const choice = { model: MODEL_ID, dtype: wasm.dtype, device: 'webgpu' } as const;
  const worker = { modelsPath: MODELS_URL_PATH };
  const batchSize = DEFAULT_BATCH_SIZE;
  const check = await bench.run({
    texts: texts.slice(0, batchSize),
    choice,
    batchSize,
    worker,
    repeats: 1,
    warmupTexts: 0,
  });
  const run = webGpuRunOf(check);
  const device = run.gpu.adapter ? webGpuLabel(run.gpu) : 'WebGPU';
  const name = `Embed ${texts.length} chunks (${session.meanWordpieces.toFixed(0)} wordpieces), MiniLM-L6 random, ${device} ${wasm.dtype}, batch ${batchSize}`;
  const agreement = `the first vector's max |Δ| from WASM's ${maxDifference(check.first, wasm.first).toExponential(1)}`;
  const verdict = webGpuVerdict(name, run, `${agreement} (one batch, not timed as speed)`);
  if (verdict) return verdict;
  const result = await bench.run({
    texts,
    choice,
    batchSize,
    worker,
    repeats: REPEATS,
    budgetMs: PASS_BUDGET_MS,
    warmupTexts: WARMUP_BATCHES * batchSize,
  });
  const timed = webGpuRunOf(result);
  const moved = webGpuVerdict(name, timed, agreement);
  if (moved) return moved;
  return {
    name,
    value: rate(texts.length, Math.min(...result.runsMs)),
    unit: 'chunks/s',
    higherIsBetter: true,
    reference: wasm.chunksPerSecond,
    referenceLabel: `WASM ${wasm.dtype}, ${threadsLabel(wasm.threads)}, this run`,
    note: [
      `ran on ${timed.ranOn}`,
      `shader-f16 ${run.gpu.f16 ? 'yes' : 'no'}`,
      `browser runs ${result.runsMs.map((ms) => rate(texts.length, ms).toFixed(1)).join('/')}`,
      `per-batch best ${rate(texts.length, result.bestBatchesMs).toFixed(1)}`,
      agreement,
    ].join(', '),
  };
}

/** Each dtype on WebGPU, in a Chromium that offers an adapter, beside its WASM figure of this run. */
async function webGpuLines(session: Omit<Session, 'bench'>, wasm: WasmFigure[]): Promise<BenchLine[]> {
  linkGpuCheckModel(ROOT, MODELS_DIR);
  const bench = await startBrowserBench({ chromiumArgs: CHROMIUM_WEBGPU_ARGS });
  try {
    const lines: BenchLine[] = [];
    for (const figure of wasm) lines.push(await measureWebGpu(bench, { ...session, bench }, figure));
    bench.assertLocalOnly();
    return lines;
  } finally {
    await bench.close();
  }
}

/** Browser vs native throughput for each dtype at 1 thread and at all threads, and projected document times. */
export async function benchEmbed(): Promise<BenchLine[]> {
  if (!existsSync(CHROMIUM_PATH)) return skipped(`no Chromium at ${CHROMIUM_PATH} (set AERIE_CHROMIUM)`);
  const missing = ensureBenchModel();
  if (missing) return skipped(missing);
  const { texts, meanWordpieces } = await benchTexts();
  const meanTokens = texts.reduce((sum, t) => sum + countTokens(t), 0) / texts.length;
  const dir = mkdtempSync(join(tmpdir(), 'aerie-embed-'));
  let bench: BrowserBench | undefined;
  try {
    const textsFile = join(dir, 'texts.json');
    writeFileSync(textsFile, JSON.stringify(texts));
    bench = await startBrowserBench();
    const session: Session = { bench, texts, textsFile, dir, meanWordpieces, meanTokens };
    const rows: BenchRow[] = [];
    const projections: BenchRow[] = [];
    const wasm: WasmFigure[] = [];
    for (const dtype of DTYPES) {
      for (const threads of [1, undefined]) {
        const { rows: measured, result } = await measure(session, dtype, threads);
        rows.push(measured[0]);
        projections.push(measured[1]);
        if (threads === undefined) {
          const ortThreads = result.workers[0].ortThreads;
          wasm.push({ dtype, chunksPerSecond: measured[0].value, threads: ortThreads, first: result.first });
        }
      }
    }
    if (process.env.AERIE_BENCH_EMBED_SWEEP) {
      const choice = { model: MODEL_ID, dtype: 'q8', device: 'wasm' } as const;
      const only =
        process.env.AERIE_BENCH_EMBED_SWEEP === '1'
          ? undefined
          : process.env.AERIE_BENCH_EMBED_SWEEP.split(',');
      rows.push(...(await sweepRows(bench, texts, { choice, modelsPath: MODELS_URL_PATH }, only)));
    }
    bench.assertLocalOnly();
    console.log(
      `All ${bench.requestCount()} requests of the pages and their workers went to ${bench.origin}.`,
    );
    await bench.close();
    bench = undefined;
    const gpuLines = await webGpuLines({ texts, textsFile, dir, meanWordpieces, meanTokens }, wasm);
    return [...rows, ...gpuLines, ...projections];
  } finally {
    await bench?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
