/**
 * A batch's model inputs from token ids already made: what transformers.js's tokenizer call
 * (`tokenizer(texts, { padding: true, truncation: true })`, as its feature-extraction pipeline calls it) builds
 * from the same ids, so that the model sees the same tensors when the ids come from our own encoder
 * (wordpiece.ts). tests/models/embed/model-inputs.test.ts compares the two on batches of a book's leaves.
 *
 * The rule, transformers.js 4's: every text is padded (with the pad token's id; 0 in the mask and the types) on
 * the tokenizer's padding side to the batch's longest, and cut to the model's `model_max_length` when longer.
 */
import { Tensor } from '@huggingface/transformers';

/** What of the tokenizer the inputs depend on (the fields of transformers.js's `PreTrainedTokenizer`). */
export interface PaddingRule {
  pad_token_id?: number | null;
  padding_side: string;
  model_max_length: number;
  /** Whether the tokenizer gives the model `token_type_ids`. */
  return_token_type_ids: boolean;
}

/** One text's token ids and their types (all special tokens included). */
export interface TextIds {
  ids: ArrayLike<number>;
  typeIds: ArrayLike<number>;
}

/** The model inputs of a batch: `input_ids`, `attention_mask` and, when the tokenizer gives them, `token_type_ids`. */
export type ModelInputs = Record<string, Tensor>;

/**
 * The batch's inputs for `texts` (in batch order), padded and cut as transformers.js does; undefined when the
 * tokenizer has no pad token (transformers.js's own call then decides what happens).
 */
export function batchInputs(texts: readonly TextIds[], rule: PaddingRule): ModelInputs | undefined {
  const pad = rule.pad_token_id;
  if (typeof pad !== 'number' || texts.length === 0) return undefined;
  let longest = 0;
  for (const text of texts) longest = Math.max(longest, text.ids.length);
  const width = Math.min(longest, rule.model_max_length);
  const left = rule.padding_side !== 'right';
  const ids = new BigInt64Array(texts.length * width);
  const mask = new BigInt64Array(texts.length * width);
  const types = rule.return_token_type_ids ? new BigInt64Array(texts.length * width) : undefined;
  texts.forEach((text, row) => {
    const length = Math.min(text.ids.length, width);
    // Padding on the left moves the text to the row's end; padding zeros are already in place.
    const at = row * width + (left ? width - length : 0);
    if (left && pad !== 0) ids.fill(BigInt(pad), row * width, at);
    else if (!left && pad !== 0) ids.fill(BigInt(pad), at + length, (row + 1) * width);
    for (let j = 0; j < length; j++) {
      ids[at + j] = BigInt(text.ids[j]);
      mask[at + j] = 1n;
      if (types) types[at + j] = BigInt(text.typeIds[j]);
    }
  });
  const dims = [texts.length, width];
  const inputs: ModelInputs = {
    input_ids: new Tensor('int64', ids, dims),
    attention_mask: new Tensor('int64', mask, dims),
  };
  if (types) inputs.token_type_ids = new Tensor('int64', types, dims);
  return inputs;
}

/**
 * The mean of each text's token states over its attention mask: transformers.js's `mean_pooling` in the same
 * arithmetic (each state times its mask value, summed in token order in a double, divided by the mask's sum),
 * so the same numbers bit for bit, without converting the mask's 64-bit integers once per number (that
 * conversion was most of its time: 0.37 s of a 1,288-leaf book's pass in Node).
 */
export function meanOfStates(states: Tensor, mask: Tensor): Tensor {
  const [rows, width, dim] = states.dims;
  const data = states.data as Float32Array;
  const weights = Float64Array.from(mask.data as BigInt64Array, Number);
  const out = new (data.constructor as Float32ArrayConstructor)(rows * dim);
  for (let i = 0; i < rows; i++) {
    let count = 0;
    for (let j = 0; j < width; j++) count += weights[i * width + j];
    const base = i * width * dim;
    for (let k = 0; k < dim; k++) {
      let sum = 0;
      for (let j = 0; j < width; j++) sum += data[base + k + j * dim] * weights[i * width + j];
      out[i * dim + k] = sum / count;
    }
  }
  return new Tensor(states.type, out, [rows, dim]);
}
