/**
 * The reference for `npm run bench llm`: native ONNX Runtime (onnxruntime-node, the CPU binary that ships in
 * the npm package transformers.js depends on; no Python) running the same ONNX file with a plain greedy loop and
 * a KV cache: one prefill over the prompt (logits of its last position only), then one step per new token.
 * No transformers.js in between, so it is the floor of what a generation costs on this CPU.
 */
import * as ort from 'onnxruntime-node';

/** One timed greedy generation. */
export interface NativeRun {
  /** Prompt processing and the first token's argmax, ms. */
  prefillMs: number;
  /** The remaining newTokens − 1 steps, ms. */
  decodeMs: number;
}

/** What the reference measured. */
export interface NativeTiming {
  runs: NativeRun[];
  /** The generated ids of the last run (to compare with the browser's text). */
  ids: number[];
  threads: number;
  version: string;
}

function int64(values: readonly number[], dims: number[]): ort.Tensor {
  return new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
}

function argmaxLast(logits: ort.Tensor): number {
  const data = logits.data as Float32Array;
  const vocab = logits.dims[logits.dims.length - 1];
  const offset = data.length - vocab;
  let best = 0;
  for (let i = 1; i < vocab; i++) if (data[offset + i] > data[offset + best]) best = i;
  return best;
}

/** Empty past tensors of every `past_key_values.*` input, shaped from the session's metadata. */
function emptyPast(session: ort.InferenceSession): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {};
  for (const meta of session.inputMetadata) {
    if (!meta.name.startsWith('past_key_values.') || !meta.isTensor) continue;
    const dims = meta.shape.map((d) => (typeof d === 'number' ? d : d === 'batch_size' ? 1 : 0));
    feeds[meta.name] = new ort.Tensor('float32', new Float32Array(0), dims);
  }
  return feeds;
}

async function greedy(
  session: ort.InferenceSession,
  promptIds: readonly number[],
  newTokens: number,
): Promise<{ run: NativeRun; ids: number[] }> {
  let past = emptyPast(session);
  let input = [...promptIds];
  let seen = 0;
  const ids: number[] = [];
  const started = performance.now();
  let firstAt = started;
  for (let step = 0; step < newTokens; step++) {
    const total = seen + input.length;
    const out = await session.run({
      input_ids: int64(input, [1, input.length]),
      attention_mask: int64(new Array<number>(total).fill(1), [1, total]),
      position_ids: int64(
        Array.from({ length: input.length }, (_, i) => seen + i),
        [1, input.length],
      ),
      num_logits_to_keep: int64([1], []),
      ...past,
    });
    const next = argmaxLast(out.logits);
    ids.push(next);
    past = {};
    for (const [name, value] of Object.entries(out)) {
      if (name.startsWith('present.')) past[name.replace('present.', 'past_key_values.')] = value;
    }
    seen = total;
    input = [next];
    if (step === 0) firstAt = performance.now();
  }
  const ended = performance.now();
  return { run: { prefillMs: firstAt - started, decodeMs: ended - firstAt }, ids };
}

/** What a native reference times: `repeats` greedy generations of `newTokens` tokens after `promptIds`. */
export interface NativeRequest {
  promptIds: readonly number[];
  newTokens: number;
  threads: number;
  repeats: number;
}

/** One greedy generation of `count` tokens after `ids`, timed. */
export type GreedyRun = (ids: readonly number[], count: number) => Promise<{ run: NativeRun; ids: number[] }>;

/** One untimed priming run on the prompt's first tokens, then `request.repeats` timed ones. */
export async function timeGreedyRuns(
  greedyRun: GreedyRun,
  request: NativeRequest,
): Promise<Pick<NativeTiming, 'runs' | 'ids'>> {
  await greedyRun(request.promptIds.slice(0, 8), 2);
  const runs: NativeRun[] = [];
  let ids: number[] = [];
  for (let r = 0; r < request.repeats; r++) {
    const result = await greedyRun(request.promptIds, request.newTokens);
    runs.push(result.run);
    ids = result.ids;
  }
  return { runs, ids };
}

/** Times `request` on `request.threads` intra-op threads (timeGreedyRuns). */
export async function timeNative(modelFile: string, request: NativeRequest): Promise<NativeTiming> {
  const { threads } = request;
  const session = await ort.InferenceSession.create(modelFile, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  try {
    const timed = await timeGreedyRuns((ids, count) => greedy(session, ids, count), request);
    return { ...timed, threads, version: ort.env.versions.node ?? 'unknown' };
  } finally {
    await session.release();
  }
}
