/**
 * The app's embedder and embedding service in Node, with the committed tiny random BERT (fp32): batching and
 * sorting never change a text's vector or its place, cancellation, and the errors a user sees.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configureRuntime, longestFirst, TransformersEmbedder } from '../../src/models/embedder';
import { createEmbedService } from '../../src/models/embed-service';
import { splitRows } from '../../src/models/rows';

const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
configureRuntime({ localModelPath: MODELS });
const TINY = 'local:aerie-tiny-random';

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

  it('says plainly when a model is missing or is not a browser model', async () => {
    await expect(TransformersEmbedder.load('local:no-such-model')).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    await expect(TransformersEmbedder.load('openai:text-embedding-3-small')).rejects.toMatchObject({
      code: 'UNSUPPORTED_MODEL',
    });
  });
});

describe('embedding service', () => {
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
