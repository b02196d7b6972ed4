/**
 * The optimisation sweep behind the embedding benchmark's settings (`AERIE_BENCH_EMBED_SWEEP=1 npm run bench
 * embed`; `AERIE_BENCH_EMBED_SWEEP=batch,workers` runs only the variants whose names contain one of those):
 * each variant of the app's WASM configuration (q8, every thread, DEFAULT_BATCH_SIZE, the ORT build the app
 * picks, transformers.js's session options) is timed beside the app's configuration itself, in alternating
 * rounds, on every other bench text. The figure is the sum over batches of each batch's fastest time across
 * passes and rounds: other work on a shared machine only adds time, so this is the least disturbed estimate
 * (a control, the app's configuration run again as a variant, shows how much the order of the variants moves
 * it).
 */
import { DEFAULT_BATCH_SIZE } from '../../src/models/embed';
import type { ModelChoice } from '../../src/models/embed';
import type { BenchRow } from '../lines';
import { ORT_BUILDS_PATH, type BrowserBench } from './embed-harness';
import type { PageRunConfig } from './embed-page';

/** Alternating rounds over all variants, and timed passes per variant and round. */
const ROUNDS = 2;
const REPEATS = 3;
/** Every SUBSAMPLE-th bench text (same mix of lengths, shorter sweep). */
const SUBSAMPLE = 2;
const MS_PER_S = 1000;

/** One variant: a name and what it changes in the page run's configuration. */
interface Variant {
  name: string;
  batchSize?: number;
  threads?: number;
  workers?: number;
  sentences?: boolean;
  /** Suffix of the ORT-web build, e.g. '' for ort-wasm-simd-threaded.{mjs,wasm}. */
  build?: string;
  sessionOptions?: Record<string, unknown>;
}

const VARIANTS: Variant[] = [
  { name: 'app configuration' },
  { name: 'the app configuration again (a control: how much the order of the variants moves a figure)' },
  { name: '1 thread', threads: 1 },
  { name: '2 workers × 1 thread (texts split)', threads: 1, workers: 2 },
  { name: 'sentence vectors too (as a build embeds its leaves)', sentences: true },
  { name: '2 workers × 1 thread, sentence vectors too', threads: 1, workers: 2, sentences: true },
  { name: 'batch 8', batchSize: 8 },
  { name: 'batch 32', batchSize: 32 },
  { name: 'batch 64', batchSize: 64 },
  { name: 'asyncify WASM build (what WebGPU needs)', build: '.asyncify' },
  { name: 'JSPI build', build: '.jspi' },
  { name: 'JSEP build', build: '.jsep' },
  {
    name: 'CPU memory arena + memory pattern',
    sessionOptions: { enableCpuMemArena: true, enableMemPattern: true },
  },
  {
    name: 'intra-op threads do not spin',
    sessionOptions: { extra: { session: { intra_op: { allow_spinning: '0' } } } },
  },
  { name: "graphOptimizationLevel 'extended'", sessionOptions: { graphOptimizationLevel: 'extended' } },
];

function configFor(
  variant: Variant,
  texts: string[],
  base: { choice: ModelChoice; modelsPath: string },
  origin: string,
): PageRunConfig {
  const batchSize = variant.batchSize ?? DEFAULT_BATCH_SIZE;
  const file = `${origin}${ORT_BUILDS_PATH}ort-wasm-simd-threaded${variant.build}`;
  return {
    texts,
    choice: base.choice,
    batchSize,
    repeats: REPEATS,
    warmupTexts: 2 * batchSize,
    workers: variant.workers,
    sentences: variant.sentences,
    worker: {
      modelsPath: base.modelsPath,
      threads: variant.threads,
      wasmFiles: variant.build === undefined ? undefined : { mjs: `${file}.mjs`, wasm: `${file}.wasm` },
      sessionOptions: variant.sessionOptions,
    },
  };
}

/**
 * Rows of chunks/s per variant against the app configuration measured in the same rounds.
 * @param only variants whose names contain one of these (default: all)
 */
export async function sweepRows(
  bench: BrowserBench,
  allTexts: string[],
  base: { choice: ModelChoice; modelsPath: string },
  only?: readonly string[],
): Promise<BenchRow[]> {
  const texts = allTexts.filter((_, i) => i % SUBSAMPLE === 0);
  const variants = VARIANTS.filter(
    (variant, v) => v === 0 || !only || only.some((part) => variant.name.includes(part)),
  );
  const bestMs = variants.map(() => Infinity);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [v, variant] of variants.entries()) {
      const result = await bench.run(configFor(variant, texts, base, bench.origin));
      bestMs[v] = Math.min(bestMs[v], result.bestBatchesMs);
    }
  }
  const rate = (ms: number) => (texts.length * MS_PER_S) / ms;
  const reference = rate(bestMs[0]);
  return variants.slice(1).map((variant, i) => ({
    name: `Sweep (${base.choice.dtype}, ${texts.length} chunks): ${variant.name}`,
    value: rate(bestMs[i + 1]),
    unit: 'chunks/s',
    reference,
    referenceLabel: 'the app configuration, same rounds',
    higherIsBetter: true,
  }));
}
