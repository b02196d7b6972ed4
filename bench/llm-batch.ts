/**
 * The batched half of `npm run bench llm`: summaries asked for all at once, as a build asks for them, written
 * `rows` at a time by the app's generate service (the decode scheduler), in Chromium and natively (the same
 * TransformersGenerator on onnxruntime-node, same file), for each batch size of `AERIE_BENCH_LLM_BATCH`
 * (default 1,2,4,8,16). Each batch size is a fresh page and worker, so the renderer's memory after the run is
 * the model's plus that batch's. Texts are compared with the same prompts written one at a time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { splitSentences } from '../src/core/text';
import { summaryMessages } from '../src/core/chat';
import type { ChatMessage } from '../src/core/chat';
import { configureRuntime } from '../src/models/embed';
import type { GenerationResult, GeneratorChoice } from '../src/models/generate';
import { TransformersGenerator } from '../src/models/generate';
import type { BrowserBench } from './browser/embed-harness';
import type { LlmPageConfig, LlmPageResult } from './browser/llm-page';

/** Batch sizes swept; 1 is the reference (one summary at a time through the same path). */
export const BATCH_SIZES = (process.env.AERIE_BENCH_LLM_BATCH ?? '1,2,4,8,16')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
/** Distinct summary prompts: enough for the largest batch. */
const PROMPT_SOURCE = join('tests', 'fixtures', 'books', 'pride-and-prejudice.txt');
/** Where the windows start in the book (past its front matter). */
const SOURCE_OFFSET_SENTENCES = 200;
const MS_PER_S = 1000;
const KB_PER_MB = 1024;

/** What one batch size measured (browser or native). */
export interface BatchRun {
  rows: number;
  /** Prompt tokens per second (each prompt read alone). */
  prefill: number;
  /** Tokens per second written by the batch, every row counted (decoding steps only). */
  decode: number;
  /** Each prompt's text, in order. */
  texts: string[];
  /** The renderer processes' resident memory after the run, worker alive (browser only), MB. */
  rssMb?: number;
}

/**
 * `count` summary prompts over consecutive windows of the book, each grown sentence by sentence to `tokens`
 * model tokens (the app's prompt: summaryMessages), as a layer of ~6-leaf clusters would ask.
 */
export function batchPrompts(
  root: string,
  encode: (messages: ChatMessage[]) => number,
  count: number,
  tokens: number,
): ChatMessage[][] {
  const source = readFileSync(join(root, PROMPT_SOURCE), 'utf8');
  const sentences = splitSentences(source).map(({ start, end }) =>
    source.slice(start, end).replace(/\s+/g, ' '),
  );
  const prompts: ChatMessage[][] = [];
  let next = SOURCE_OFFSET_SENTENCES;
  while (prompts.length < count && next < sentences.length) {
    let taken = 1;
    let messages = summaryMessages([sentences.slice(next, next + taken).join(' ')]);
    while (encode(messages) < tokens && next + taken < sentences.length) {
      messages = summaryMessages([sentences.slice(next, next + ++taken).join(' ')]);
    }
    prompts.push(messages);
    next += taken;
  }
  return prompts;
}

/** Token counts of the chat-templated prompt, as the generator counts them. */
export function promptEncoder(tokenizer: PreTrainedTokenizer): (messages: ChatMessage[]) => number {
  return (messages) =>
    tokenizer.encode(
      tokenizer.apply_chat_template(messages, { tokenize: false, add_generation_prompt: true }) as string,
      { add_special_tokens: false },
    ).length;
}

/** Rates of results written together: prompts per second of their own reading, tokens per second of steps. */
function summarise(rows: number, results: readonly GenerationResult[]): Omit<BatchRun, 'rssMb'> {
  let promptTokens = 0;
  let prefillMs = 0;
  let steps = 0;
  let stepMs = 0;
  for (const r of results) {
    promptTokens += r.promptTokens;
    prefillMs += r.timing.prefillMs;
    steps += r.completionTokens - 1;
    stepMs += r.timing.decodeShareMs ?? r.timing.decodeMs;
  }
  return {
    rows,
    prefill: (promptTokens * MS_PER_S) / prefillMs,
    decode: (steps * MS_PER_S) / stepMs,
    texts: results.map((r) => r.text),
  };
}

/** Resident memory of this process's Chromium renderers (its descendants with `--type=renderer`), MB. */
export function rendererRssMb(): number | undefined {
  const parents = new Map<number, number>();
  const renderers = new Set<number>();
  let procs: string[];
  try {
    procs = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const rss = new Map<number, number>();
  for (const name of procs) {
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const vmRss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      parents.set(Number(name), ppid);
      rss.set(Number(name), vmRss);
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=renderer'))
        renderers.add(Number(name));
    } catch {
      // The process ended meanwhile.
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p))
      if (p === process.pid) return true;
    return false;
  };
  let kb = 0;
  for (const pid of renderers) if (descends(pid)) kb += rss.get(pid) ?? 0;
  return kb > 0 ? kb / KB_PER_MB : undefined;
}

/** What both sides need for one variant. */
export interface BatchVariant {
  choice: GeneratorChoice;
  prompts: ChatMessage[][];
  newTokens: number;
  threads: number;
  modelsPath: string;
  ortBuild?: 'asyncify' | 'plain';
}

/** Every batch size in the browser: a fresh page each, all prompts of the batch asked for at once. */
export async function browserBatches(
  bench: BrowserBench<LlmPageConfig, LlmPageResult>,
  variant: BatchVariant,
): Promise<BatchRun[]> {
  const runs: BatchRun[] = [];
  for (const rows of BATCH_SIZES) {
    let rssMb: number | undefined;
    // One at a time, every prompt is written (the texts every batch is compared with); batched, the first `rows`.
    const prompts = rows === 1 ? variant.prompts : variant.prompts.slice(0, rows);
    const result = await bench.run(
      {
        choice: variant.choice,
        messages: prompts[0],
        newTokens: variant.newTokens,
        repeats: 0,
        worker: {
          modelsPath: variant.modelsPath,
          threads: variant.threads,
          batchSize: rows,
          ...(variant.ortBuild ? { ortBuild: variant.ortBuild } : {}),
        },
        batchPrompts: prompts,
      },
      { beforeClose: async () => void (rssMb = rendererRssMb()) },
    );
    runs.push({ ...summarise(rows, result.batch!.results), ...(rssMb ? { rssMb } : {}) });
    console.log(`  ${rows} at a time: ${runs.at(-1)!.decode.toFixed(1)} tokens/s written`);
  }
  return runs;
}

/** Every batch size natively: the app's TransformersGenerator on onnxruntime-node, same file and prompts. */
export async function nativeBatches(variant: BatchVariant, localModelPath: string): Promise<BatchRun[]> {
  configureRuntime({ localModelPath });
  const generator = await TransformersGenerator.load(
    { model: variant.choice.model, device: 'cpu', dtype: variant.choice.dtype as 'q8' },
    { batchSize: Math.max(...BATCH_SIZES) },
  );
  const ask = (messages: ChatMessage[]) =>
    generator.generate(messages, { maxNewTokens: variant.newTokens, batch: true });
  try {
    await generator.generate(variant.prompts[0], { maxNewTokens: 2 });
    const runs: BatchRun[] = [];
    for (const rows of BATCH_SIZES) {
      const results: GenerationResult[] = [];
      if (rows === 1) for (const p of variant.prompts) results.push(await ask(p));
      else results.push(...(await Promise.all(variant.prompts.slice(0, rows).map(ask))));
      runs.push(summarise(rows, results));
    }
    return runs;
  } finally {
    await generator.dispose();
  }
}

/** How many of a batch's texts are the texts the same prompts got one at a time. */
export function sameTexts(run: BatchRun, alone: BatchRun): number {
  return run.texts.filter((text, i) => text === alone.texts[i]).length;
}
