/**
 * A decoder's greedy path with the margin of each choice: the prompt and the tokens chosen so far are read whole
 * at every step (no KV cache, so nothing of the app's decode loop is reused), the last position's logits give the
 * next token (argmax) and its lead over the runner-up. Runs wherever transformers.js does: Node (onnxruntime-node)
 * for the fixture's search and unit test, a harness worker in the browser (WASM or WebGPU) for the agreement spec.
 */
import { Tensor, type PreTrainedModel } from '@huggingface/transformers';
import type { ChatMessage } from '../../src/core/chat';

/** tests/fixtures/models/aerie-tiny-qwen2.greedy.json, as scripts/models/find-greedy-prompt.ts writes it. */
export interface GreedyFixture {
  requiredMargin: number;
  messages: ChatMessage[];
  promptIds: number[];
  minMargin: number;
  paths: Record<'fp32' | 'q4', { greedyIds: number[]; margins: number[] }>;
}

/** One greedy step: the token chosen, its logit's lead over the second best, and the second best's id. */
export interface GreedyStep {
  token: number;
  margin: number;
  runnerUp: number;
}

/** The best and second best of `logits`: their indices and the gap between them. */
export function topTwo(logits: ArrayLike<number>): GreedyStep {
  let best = 0;
  let second = -1;
  for (let i = 1; i < logits.length; i++) {
    if (logits[i] > logits[best]) {
      second = best;
      best = i;
    } else if (second < 0 || logits[i] > logits[second]) second = i;
  }
  return { token: best, margin: logits[best] - logits[second], runnerUp: second };
}

const ids = (values: readonly number[]) =>
  new Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, values.length]);

/** The last position's logits for `tokens`, read whole. */
export async function lastLogits(model: PreTrainedModel, tokens: readonly number[]): Promise<Float32Array> {
  const out = (await model.forward({
    input_ids: ids(tokens),
    attention_mask: ids(new Array<number>(tokens.length).fill(1)),
    past_key_values: null,
    num_logits_to_keep: new Tensor('int64', BigInt64Array.from([1n]), []),
  })) as Record<string, Tensor>;
  const logits = out.logits;
  const width = logits.dims.at(-1)!;
  const data = logits.data as Float32Array;
  const last = data.slice(data.length - width);
  for (const tensor of Object.values(out)) tensor.dispose?.();
  return last;
}

/**
 * `steps` greedy steps after `promptIds` (stopping after `eos`, which is chosen like any token): each step's
 * choice and margin, and the first step's logits (to compare devices on).
 */
export async function greedyPath(
  model: PreTrainedModel,
  promptIds: readonly number[],
  steps: number,
  eos?: number,
): Promise<{ steps: GreedyStep[]; firstLogits: number[] }> {
  const path: GreedyStep[] = [];
  let firstLogits: number[] = [];
  const tokens = [...promptIds];
  for (let i = 0; i < steps; i++) {
    const logits = await lastLogits(model, tokens);
    if (i === 0) firstLogits = Array.from(logits);
    const step = topTwo(logits);
    path.push(step);
    tokens.push(step.token);
    if (step.token === eos) break;
  }
  return { steps: path, firstLogits };
}
