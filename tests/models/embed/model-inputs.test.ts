/**
 * The model's inputs built from our ids (`batchInputs`) are the tensors transformers.js's tokenizer call builds
 * for the feature-extraction pipeline (`tokenizer(texts, { padding: true, truncation: true })`), number for
 * number: on a novel's paragraphs in the build's batches (longest first, 16 at a time), with texts past the
 * model's length (cut), padding on either side, a pad id other than 0, and with and without token types.
 * `meanOfStates` is transformers.js's `mean_pooling`, bit for bit.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mean_pooling, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random';
import { longestFirst } from '../../../src/models/embed';
import { batchInputs, meanOfStates } from '../../../src/models/embed/model-inputs';
import { WordPieceEncoder } from '../../../src/models/embed/wordpiece';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const BOOKS = fileURLToPath(new URL('../../fixtures/books/', import.meta.url));

function files(model: string) {
  const read = (file: string) => JSON.parse(readFileSync(`${MODELS}${model}/${file}`, 'utf8'));
  return { json: read('tokenizer.json'), config: read('tokenizer_config.json') };
}

/** Persuasion's paragraphs in the build's batches: longest first by tokens, 16 at a time. */
function bookBatches(encoder: WordPieceEncoder): string[][] {
  const texts = readFileSync(`${BOOKS}persuasion.txt`, 'utf8')
    .split(/\n\s*\n/)
    .filter((p) => p.trim().length > 0);
  const order = longestFirst(texts.map((text) => encoder.encode(text)!.length));
  const batches: string[][] = [];
  for (let i = 0; i < order.length; i += 16) batches.push(order.slice(i, i + 16).map((j) => texts[j]));
  return batches;
}

/** Each tensor's dims and numbers, to compare. */
function plain(inputs: Record<string, Tensor>) {
  return Object.fromEntries(
    Object.entries(inputs).map(([key, t]) => [
      key,
      { dims: t.dims, data: Array.from(t.data as BigInt64Array) },
    ]),
  );
}

describe('batchInputs', () => {
  it('builds the tensors the pipeline’s tokenizer call builds, on a whole novel in the build’s batches', () => {
    // The tiny model cuts at 128 tokens: the novel's long paragraphs are cut. Its class gives token types.
    const tiny = files('aerie-tiny-random');
    const variants = [
      { config: tiny.config, types: true, batches: Infinity },
      // The other rules on the novel's longest paragraphs.
      { config: { ...tiny.config, padding_side: 'left' }, types: true, batches: 8 },
      { config: { ...tiny.config, pad_token: '[MASK]' }, types: false, batches: 8 },
      {
        config: { ...tiny.config, padding_side: 'left', pad_token: '[MASK]', model_max_length: 64 },
        types: false,
        batches: 8,
      },
    ];
    for (const { config, types, batches } of variants) {
      const encoder = WordPieceEncoder.fromTokenizerJson(tiny.json, config)!;
      const tokenizer = new PreTrainedTokenizer(tiny.json, config);
      tokenizer.return_token_type_ids = types;
      let cut = 0;
      for (const batch of bookBatches(encoder).slice(0, batches)) {
        const encoded = batch.map((text) => encoder.encode(text)!);
        cut += encoded.filter((ids) => ids.length > tokenizer.model_max_length).length;
        const ours = batchInputs(
          encoded.map((ids) => ({ ids, typeIds: encoder.typeIds(ids.length) })),
          tokenizer,
        )!;
        const theirs = tokenizer(batch, { padding: true, truncation: true }) as unknown as Record<
          string,
          Tensor
        >;
        expect(plain(ours)).toEqual(plain(theirs));
        expect('token_type_ids' in ours).toBe(types);
      }
      expect(cut).toBeGreaterThan(50);
    }
  });

  it('leaves a tokenizer without a pad token to transformers.js', () => {
    const tiny = files('aerie-tiny-random');
    const tokenizer = new PreTrainedTokenizer(tiny.json, { ...tiny.config, pad_token: null });
    expect(batchInputs([{ ids: [2, 3], typeIds: [0, 0] }], tokenizer)).toBeUndefined();
  });
});

describe('meanOfStates', () => {
  it('is transformers.js’s mean_pooling, bit for bit, padded rows and a non-finite padded state included', () => {
    const random = seededRandom(44);
    const [rows, width, dim] = [5, 13, 24];
    const states = new Float32Array(rows * width * dim).map(() => (random() - 0.5) * 1e3 * random());
    const lengths = [13, 1, 7, 12, 4];
    const mask = new BigInt64Array(rows * width);
    lengths.forEach((n, i) => mask.fill(1n, i * width, i * width + n));
    // A padded position holding infinity: the mask's zero times it is NaN in both.
    states[(1 * width + 5) * dim + 3] = Infinity;
    const s = new Tensor('float32', states, [rows, width, dim]);
    const m = new Tensor('int64', mask, [rows, width]);
    const ours = meanOfStates(s, m);
    const theirs = mean_pooling(s, m);
    expect(ours.dims).toEqual(theirs.dims);
    expect(Array.from(ours.data as Float32Array)).toEqual(Array.from(theirs.data as Float32Array));
    expect(Number.isNaN((ours.data as Float32Array)[1 * dim + 3])).toBe(true);
  });
});
