/**
 * The app's embedder and embedding service in Node, with the committed tiny random BERT (fp32): batching and
 * sorting never change a text's vector or its place, cancellation, and the errors a user sees.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import {
  env,
  pipeline,
  PreTrainedTokenizer,
  type FeatureExtractionPipeline,
} from '@huggingface/transformers';
import { sentenceSpans } from '../../../src/core/text';
import {
  classifyLoadError,
  configureRuntime,
  longestFirst,
  TransformersEmbedder,
  createEmbedService,
} from '../../../src/models/embed';
import { resolveEmbeddingDtype } from '../../../src/models/embed/embedding-presets';
import { splitRows, splitSentenceRows } from '../../../src/models/embed/rows';
import { WordPieceEncoder } from '../../../src/models/embed/wordpiece';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
configureRuntime({ localModelPath: MODELS });
const TINY = 'local:aerie-tiny-random';
const GENESIS = fileURLToPath(new URL('../../fixtures/books/genesis.txt', import.meta.url));

const TEXTS = [
  'Short.',
  'A somewhat longer sentence about the prince and the golden slipper at the palace.',
  'Cinderella',
  'The stepmother gave her the dirtiest work: carrying water, lighting fires, cooking and washing all day long.',
  'Two pigeons sat in the hazel tree.',
];

describe('longestFirst', () => {
  it('orders indices by length, longest first, ties in input order', () => {
    expect(longestFirst([3, 9, 3, 1, 9])).toEqual([1, 4, 0, 2, 3]);
    expect(longestFirst([])).toEqual([]);
  });
});

describe('TransformersEmbedder (tiny random BERT, fp32)', () => {
  it('gives every text the vector it gets alone, in input order, whatever the batch size', async () => {
    const embedder = await TransformersEmbedder.load(TINY, { dtype: 'fp32' });
    expect(embedder.info).toMatchObject({ model: TINY, dtype: 'fp32', device: 'cpu' });
    const alone = await Promise.all(TEXTS.map(async (t) => splitRows(await embedder.embed([t]))[0]));
    for (const batchSize of [1, 2, 16]) {
      const rows = splitRows(await embedder.embed(TEXTS, { batchSize }));
      expect(rows.length).toBe(TEXTS.length);
      rows.forEach((row, i) => {
        expect(row.length).toBe(embedder.info.dim);
        for (let d = 0; d < row.length; d++) expect(Math.abs(row[d] - alone[i][d])).toBeLessThan(1e-5);
      });
    }
  });

  it('reports progress per batch and stops between batches when aborted', async () => {
    const embedder = await TransformersEmbedder.load(TINY, { dtype: 'fp32' });
    const seen: number[] = [];
    await embedder.embed(TEXTS, { batchSize: 2, onProgress: (done) => seen.push(done) });
    expect(seen).toEqual([2, 4, 5]);
    const signal = { aborted: false };
    const pending = embedder.embed(TEXTS, {
      batchSize: 1,
      signal,
      onProgress: () => {
        signal.aborted = true;
      },
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('tokenises a text once, with our encoder: its order, its batches and its pass reuse its ids (SPIES on both tokenizers)', async () => {
    const embedder = await TransformersEmbedder.load(TINY, { dtype: 'fp32' });
    expect(embedder.ownTokenizer).toBe(true);
    const ours = vi.spyOn(WordPieceEncoder.prototype, 'encode');
    const theirs = vi.spyOn(PreTrainedTokenizer.prototype, 'encode');
    try {
      const wholeTexts = (spy: typeof ours | typeof theirs) =>
        spy.mock.calls.filter(([text]) => TEXTS.includes(text as string)).length;
      const counts = embedder.tokenCounts(TEXTS);
      expect(wholeTexts(ours)).toBe(TEXTS.length);
      expect(embedder.batches(TEXTS, 2).flat().sort()).toEqual([0, 1, 2, 3, 4]);
      const rows = splitRows(await embedder.embed(TEXTS, { batchSize: 2 }));
      expect(wholeTexts(ours)).toBe(TEXTS.length);
      expect(wholeTexts(theirs)).toBe(0);
      // The counts and the vectors are those of a fresh embedder.
      const fresh = await TransformersEmbedder.load(TINY, { dtype: 'fp32' });
      expect(fresh.tokenCounts(TEXTS)).toEqual(counts);
      splitRows(await fresh.embed(TEXTS, { batchSize: 2 })).forEach((row, i) =>
        row.forEach((x, d) => expect(x).toBeCloseTo(rows[i][d], 6)),
      );
    } finally {
      ours.mockRestore();
      theirs.mockRestore();
    }
  });

  it('gives the pipeline’s own vectors, bit for bit, on a book’s chapters (tiny fp32, GloVe q8)', async () => {
    const chapters = readFileSync(GENESIS, 'utf8')
      .split(/\n\s*\n/)
      .filter((p) => p.trim().length > 0);
    // One text holds an added token: transformers.js tokenises its batch itself, and the vector is the same.
    const texts = [...chapters.slice(0, 24), ...TEXTS, 'A text with [SEP] inside it, and more words after.'];
    for (const [model, dtype] of [
      ['aerie-tiny-random', 'fp32'],
      ['aerie-glove-100d', 'q8'],
    ] as const) {
      const embedder = await TransformersEmbedder.load(`local:${model}`, { dtype });
      expect(embedder.ownTokenizer).toBe(true);
      const ours = await embedder.embed(texts);
      env.allowLocalModels = true;
      const extractor = (await pipeline('feature-extraction', model, {
        dtype,
        device: 'cpu',
      })) as FeatureExtractionPipeline;
      for (const batch of embedder.batches(texts)) {
        const theirs = await extractor(
          batch.map((i) => texts[i]),
          { pooling: 'mean', normalize: true },
        );
        const data = theirs.data as Float32Array;
        batch.forEach((textIndex, row) =>
          expect(ours.data.subarray(textIndex * ours.dim, (textIndex + 1) * ours.dim)).toEqual(
            data.subarray(row * ours.dim, (row + 1) * ours.dim),
          ),
        );
      }
      await extractor.dispose();
      await embedder.dispose();
    }
  });

  it('says plainly when a model is missing or is not a browser model', async () => {
    await expect(TransformersEmbedder.load('local:no-such-model')).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    await expect(TransformersEmbedder.load('openai:text-embedding-3-small')).rejects.toMatchObject({
      code: 'UNSUPPORTED_MODEL',
    });
  });
});

/** Mean of token-state rows [from, to) of a single text's pass, unit length: the definition, written plainly. */
async function meanOfTokens(
  extractor: FeatureExtractionPipeline,
  text: string,
  from: number,
  to: number,
): Promise<number[]> {
  const states = await extractor([text], { pooling: 'none', normalize: false });
  const [, , dim] = states.dims;
  const data = states.data as Float32Array;
  const mean = Array.from({ length: dim }, (_, k) => {
    let sum = 0;
    for (let j = from; j < to; j++) sum += data[j * dim + k];
    return sum / (to - from);
  });
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
}

describe('TransformersEmbedder sentence vectors from the same pass (tiny random BERT, fp32)', () => {
  const MIXED = [
    'The prince searched the kingdom. He found the slipper fitted her foot! Then they were married.',
    'One sentence only, about the hazel tree on the grave',
    TEXTS[3],
    'Two birds sat there. They sang.',
  ];

  it('gives the same text vectors as without them, and one unit vector per sentence of each text', async () => {
    const embedder = await TransformersEmbedder.load(TINY, { dtype: 'fp32' });
    const plain = splitRows(await embedder.embed(MIXED));
    const batch = await embedder.embed(MIXED, { sentences: true, batchSize: 3 });
    splitRows(batch).forEach((row, i) => {
      for (let d = 0; d < row.length; d++) expect(Math.abs(row[d] - plain[i][d])).toBeLessThan(1e-6);
    });
    const perText = splitSentenceRows(batch.sentences!);
    expect(perText.map((list) => list?.length)).toEqual(MIXED.map((t) => sentenceSpans(t).length));
    expect(perText.map((list) => list?.length)).toEqual([3, 1, 1, 2]);
    for (const list of perText) for (const v of list!) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it("a sentence's vector is the mean of its own tokens' states in its text, whatever the batch pads", async () => {
    const embedder = await TransformersEmbedder.load(TINY, { dtype: 'fp32' });
    env.allowLocalModels = true;
    const extractor = (await pipeline('feature-extraction', 'aerie-tiny-random', {
      dtype: 'fp32',
      device: 'cpu',
    })) as FeatureExtractionPipeline;
    const perText = splitSentenceRows((await embedder.embed(MIXED, { sentences: true })).sentences!);
    // Text 0: [CLS] s1 s2 s3 [SEP]; each sentence's tokens counted alone.
    const text = MIXED[0];
    const lengths = sentenceSpans(text).map(
      (s) => extractor.tokenizer.encode(text.slice(s.start, s.end), { add_special_tokens: false }).length,
    );
    let at = 1;
    for (let k = 0; k < lengths.length; k++) {
      const expected = await meanOfTokens(extractor, text, at, at + lengths[k]);
      at += lengths[k];
      perText[0]![k].forEach((x, d) => expect(Math.abs(x - expected[d])).toBeLessThan(1e-5));
    }
    await extractor.dispose();
  });
});

describe('precision per device', () => {
  it('"auto" loads 8-bit weights on the CPU (WASM, Node) and full ones on WebGPU; an explicit dtype is kept', () => {
    expect(resolveEmbeddingDtype('auto', 'wasm')).toBe('q8');
    expect(resolveEmbeddingDtype('auto', 'cpu')).toBe('q8');
    expect(resolveEmbeddingDtype('auto', 'webgpu')).toBe('fp32');
    for (const device of ['wasm', 'cpu', 'webgpu'] as const) {
      expect(resolveEmbeddingDtype('q8', device)).toBe('q8');
      expect(resolveEmbeddingDtype('fp32', device)).toBe('fp32');
      expect(resolveEmbeddingDtype(undefined, device)).toBe('q8');
    }
  });

  it('the service settles a choice without loading it, and a model loaded as "auto" serves its settled dtype', async () => {
    const service = createEmbedService({ localModelPath: MODELS }, false);
    expect(await service.settle({ model: TINY, dtype: 'auto' })).toEqual({ device: 'cpu', dtype: 'q8' });
    expect(await service.settle({ model: TINY, dtype: 'fp32' })).toEqual({ device: 'cpu', dtype: 'fp32' });
    expect(await service.info()).toBeUndefined();
    const info = await service.load({ model: TINY, dtype: 'auto' });
    expect(info.dtype).toBe('q8');
    const loads = vi.spyOn(TransformersEmbedder, 'load');
    try {
      // The build embeds with the settled dtype: the same model, not a second load.
      const rows = await service.embed(TEXTS, { model: TINY, dtype: 'q8' });
      expect(rows.data.length).toBe(TEXTS.length * info.dim);
      expect(loads).not.toHaveBeenCalled();
      // Another dtype is another model.
      await service.embed(TEXTS, { model: TINY, dtype: 'fp32' });
      expect(loads).toHaveBeenCalledTimes(1);
    } finally {
      loads.mockRestore();
    }
  });
});

describe('embedding service', () => {
  it('counts each text’s tokens as the model does (its own wordpieces and special tokens)', async () => {
    const service = createEmbedService({ localModelPath: MODELS }, false);
    const choice = { model: TINY, dtype: 'fp32' as const };
    const lengths = await service.lengths(TEXTS, choice);
    // The model's own tokenizer, independently: [CLS] … [SEP].
    env.localModelPath = MODELS;
    env.allowLocalModels = true;
    const extractor = (await pipeline('feature-extraction', 'aerie-tiny-random', {
      dtype: 'fp32',
    })) as FeatureExtractionPipeline;
    expect(lengths).toEqual(TEXTS.map((t) => extractor.tokenizer.encode(t).length));
    expect(lengths[0]).toBeLessThan(lengths[3]);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(3);
    await extractor.dispose();
  });

  it('forgets a failed load so the next call retries, and cancels only calls in flight', async () => {
    const service = createEmbedService({ localModelPath: MODELS }, false);
    await expect(service.load({ model: 'local:no-such-model' })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    const info = await service.load({ model: TINY, dtype: 'fp32' });
    expect(info.dim).toBeGreaterThan(0);
    // A cancel for a request that is not running must not poison a later call with the same id.
    service.cancel('build-1');
    const batch = await service.embed(TEXTS, { model: TINY, dtype: 'fp32' }, { requestId: 'build-1' });
    expect(splitRows(batch).length).toBe(TEXTS.length);
  });
});

describe('classifyLoadError', () => {
  it('calls a network failure of a hub model an unreachable hub (the build may then fall back)', () => {
    expect(classifyLoadError(new TypeError('Failed to fetch'), 'Xenova/m').code).toBe('HUB_UNREACHABLE');
    expect(classifyLoadError(new Error('getaddrinfo ENOTFOUND huggingface.co'), 'Xenova/m').code).toBe(
      'HUB_UNREACHABLE',
    );
  });

  it('never calls a self-hosted model’s failure an unreachable hub: it is a load failure with its message', () => {
    const error = classifyLoadError(new TypeError('Failed to fetch'), 'local:m', false);
    expect(error.code).toBe('LOAD_FAILED');
    expect(error.message).toContain('Failed to fetch');
    expect(classifyLoadError(new Error('404 not found'), 'local:m', false).code).toBe('MODEL_NOT_FOUND');
  });
});
