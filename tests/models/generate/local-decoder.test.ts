/**
 * The committed random-weight Qwen2 (public/models/aerie-tiny-qwen2) runs through transformers.js in Node from
 * local files only, and computes what Python computed for the same files (tests/fixtures/models/
 * aerie-tiny-qwen2.expected.json, written by scripts/models/make_qwen2_random.py): the tokenizer's ids and chat
 * template (Hugging Face transformers), the logits of fp32 (torch's Qwen2ForCausalLM, an independent
 * implementation) and of q8 and q4 (ONNX Runtime in Python on the same files; q8 within the fixture's measured
 * tolerance, which holds on every CPU and still fails the fp32 file and a broken graph), the same logits through
 * the KV cache one token at a time, and torch's greedy continuation.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  DynamicCache,
  env,
  Tensor,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { brokenCopy, maxDifference, type Q8Check } from '../../support/q8-check';

const MODELS_DIR = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const NAME = 'aerie-tiny-qwen2';
type Dtype = 'fp32' | 'q8' | 'q4';

/** The fixture, as make_qwen2_random.py writes it. */
interface ExpectedDecoder {
  tolerance: Record<Dtype, number>;
  sha256: Record<string, string>;
  specialTokens: Record<string, number>;
  texts: string[];
  textIds: number[][];
  messages: { role: 'system' | 'user'; content: string }[];
  promptText: string;
  promptIds: number[];
  decodeSteps: number;
  greedyIds: number[];
  logits: Record<Dtype, number[]>;
  logitsLast3: number[][];
  q8Check: Q8Check;
}

const expected = JSON.parse(
  readFileSync(new URL(`../../fixtures/models/${NAME}.expected.json`, import.meta.url), 'utf8'),
) as ExpectedDecoder;

const ids = (values: readonly number[]) =>
  new Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, values.length]);
const scalar = (value: number) => new Tensor('int64', BigInt64Array.from([BigInt(value)]), []);

/**
 * Runs `pieces` of the prompt through the model in turn, carrying the KV cache as generation does; returns the
 * logits of the last run (its last `keep` positions; 0 = all).
 */
async function forwardInPieces(model: PreTrainedModel, pieces: number[][], keep: number): Promise<Tensor> {
  let cache: DynamicCache | null = null;
  let seen = 0;
  let logits: Tensor | undefined;
  for (const piece of pieces) {
    seen += piece.length;
    const out = (await model.forward({
      input_ids: ids(piece),
      attention_mask: ids(new Array<number>(seen).fill(1)),
      past_key_values: cache,
      num_logits_to_keep: scalar(keep),
    })) as Record<string, Tensor>;
    const past: Record<string, Tensor> = {};
    for (const [name, value] of Object.entries(out)) {
      if (name.startsWith('present')) past[name.replace('present', 'past_key_values')] = value;
    }
    cache = new DynamicCache(past);
    logits = out.logits;
  }
  return logits!;
}

let tokenizer: PreTrainedTokenizer;
const models = new Map<Dtype, Promise<PreTrainedModel>>();
function model(dtype: Dtype): Promise<PreTrainedModel> {
  if (!models.has(dtype))
    models.set(dtype, AutoModelForCausalLM.from_pretrained(NAME, { dtype, device: 'cpu' }));
  return models.get(dtype)!;
}

beforeAll(async () => {
  env.localModelPath = MODELS_DIR;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  tokenizer = await AutoTokenizer.from_pretrained(NAME);
});

describe(`${NAME} against its Python fixture`, () => {
  it('is the model the fixture was computed from (file hashes)', () => {
    for (const [file, sha] of Object.entries(expected.sha256)) {
      const actual = createHash('sha256')
        .update(readFileSync(`${MODELS_DIR}${NAME}/${file}`))
        .digest('hex');
      expect(actual, file).toBe(sha);
    }
  });

  it('tokenises like Hugging Face transformers (bytes, unicode, special tokens in text)', () => {
    expected.texts.forEach((text, i) => {
      expect(tokenizer.encode(text, { add_special_tokens: false })).toEqual(expected.textIds[i]);
      expect(tokenizer.decode(expected.textIds[i])).toBe(text);
    });
  });

  it('applies the ChatML template like transformers and ends with the assistant header', () => {
    const text = tokenizer.apply_chat_template(expected.messages, {
      tokenize: false,
      add_generation_prompt: true,
    }) as string;
    expect(text).toBe(expected.promptText);
    expect(text.endsWith('<|im_start|>assistant\n')).toBe(true);
    const encoded = tokenizer(text, { add_special_tokens: false }) as { input_ids: Tensor };
    expect(Array.from(encoded.input_ids.data as BigInt64Array, Number)).toEqual(expected.promptIds);
  });

  for (const dtype of ['fp32', 'q8', 'q4'] as const) {
    it(`gives Python's last-position logits for the prompt (${dtype})`, async () => {
      const logits = await forwardInPieces(await model(dtype), [expected.promptIds], 1);
      expect(logits.dims).toEqual([1, 1, expected.logits[dtype].length]);
      expect(maxDifference(logits.data as Float32Array, expected.logits[dtype])).toBeLessThanOrEqual(
        expected.tolerance[dtype],
      );
    });
  }

  it('the q8 check fails the fp32 file and a graph with its last quantised matrix reversed', async () => {
    const { tolerance, broken } = expected.q8Check;
    expect(tolerance).toBe(expected.tolerance.q8);
    const fp32 = await forwardInPieces(await model('fp32'), [expected.promptIds], 1);
    expect(maxDifference(fp32.data as Float32Array, expected.logits.q8)).toBeGreaterThan(tolerance);
    env.localModelPath = brokenCopy(MODELS_DIR, NAME, expected.q8Check);
    try {
      const wrong = await AutoModelForCausalLM.from_pretrained(NAME, { dtype: 'q8', device: 'cpu' });
      const logits = await forwardInPieces(wrong, [expected.promptIds], 1);
      const missed = maxDifference(logits.data as Float32Array, expected.logits.q8);
      expect(missed).toBeGreaterThan(3 * tolerance);
      expect(missed).toBeCloseTo(broken.difference, 1);
      await wrong.dispose();
    } finally {
      env.localModelPath = MODELS_DIR;
    }
  });

  it("gives torch's logits through the KV cache, one token at a time (fp32)", async () => {
    const { promptIds, decodeSteps } = expected;
    const cut = promptIds.length - decodeSteps;
    const pieces = [promptIds.slice(0, cut), ...promptIds.slice(cut).map((id) => [id])];
    const logits = await forwardInPieces(await model('fp32'), pieces, 1);
    expect(maxDifference(logits.data as Float32Array, expected.logits.fp32)).toBeLessThanOrEqual(
      expected.tolerance.fp32,
    );
  });

  it('keeps every position when asked (num_logits_to_keep = 0 after a cache)', async () => {
    const { promptIds } = expected;
    const cut = promptIds.length - 3;
    const logits = await forwardInPieces(
      await model('fp32'),
      [promptIds.slice(0, cut), promptIds.slice(cut)],
      0,
    );
    const vocab = expected.logits.fp32.length;
    expect(logits.dims).toEqual([1, 3, vocab]);
    const data = logits.data as Float32Array;
    expected.logitsLast3.forEach((row, i) =>
      expect(maxDifference(data.subarray(i * vocab, (i + 1) * vocab), row)).toBeLessThanOrEqual(
        expected.tolerance.fp32,
      ),
    );
  });

  it('continues the prompt greedily with its KV cache exactly as torch does (fp32)', async () => {
    const out = (await (
      await model('fp32')
    ).generate({
      ...(tokenizer(expected.promptText, { add_special_tokens: false }) as object),
      max_new_tokens: expected.greedyIds.length,
      do_sample: false,
    })) as Tensor;
    const all = Array.from(out.data as BigInt64Array, Number);
    expect(all.slice(expected.promptIds.length)).toEqual(expected.greedyIds);
    const special = new Set(Object.values(expected.specialTokens));
    expect(expected.greedyIds.some((id) => special.has(id))).toBe(false);
  });
});
