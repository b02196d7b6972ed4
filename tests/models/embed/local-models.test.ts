/**
 * The committed models load through transformers.js from local files only, and give the embeddings Python's
 * ONNX Runtime gives for the same files (fixtures written by scripts/models/make_*.py). The tiny model's q8
 * tolerance is measured by its generator (scripts/models/q8_check.py): it holds on every CPU's int8 kernels, and
 * the fp32 file or a graph with a weight matrix reversed fail it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { brokenCopy, type Q8Check } from '../../support/q8-check';

const MODELS_DIR = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const TINY = 'aerie-tiny-random';
const GLOVE = 'aerie-glove-100d';
/** How far from 1 a normalised float32 vector's length may be. */
const UNIT_NORM_TOLERANCE = 1e-5;

type Dtype = 'fp32' | 'q8';

/** tests/fixtures/models/<model>.expected.json, as scripts/models/common.py writes it. */
interface ExpectedEmbeddings {
  model: string;
  dim: number;
  tolerance: Partial<Record<Dtype, number>>;
  sha256: Record<string, string>;
  texts: string[];
  tokenIds: number[][];
  embeddings: Partial<Record<Dtype, number[][]>>;
  q8Check?: Q8Check;
}

function readExpected(model: string): ExpectedEmbeddings {
  const url = new URL(`../../fixtures/models/${model}.expected.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as ExpectedEmbeddings;
}

const loaded = new Map<string, Promise<FeatureExtractionPipeline>>();

/** One pipeline per model and dtype, shared by the tests (loading is the slow part). */
function extractor(model: string, dtype: Dtype): Promise<FeatureExtractionPipeline> {
  const key = `${model}:${dtype}`;
  let p = loaded.get(key);
  if (!p) {
    p = pipeline('feature-extraction', model, { dtype }) as Promise<FeatureExtractionPipeline>;
    loaded.set(key, p);
  }
  return p;
}

/** Mean-pooled, normalised embeddings of `texts` (one batch), as rows. */
async function embed(
  model: string,
  dtype: Dtype,
  texts: string[],
): Promise<{ rows: Float32Array[]; dim: number }> {
  const out = await (await extractor(model, dtype))(texts, { pooling: 'mean', normalize: true });
  const [n, dim] = out.dims;
  const data = out.data as Float32Array;
  expect(n).toBe(texts.length);
  const rows = Array.from({ length: n }, (_, i) => data.subarray(i * dim, (i + 1) * dim));
  return { rows, dim };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function maxAbsDiff(a: Float32Array, b: number[]): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

beforeAll(() => {
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = MODELS_DIR;
});

describe.each([
  { model: TINY, dtypes: ['fp32', 'q8'] as Dtype[] },
  { model: GLOVE, dtypes: ['q8'] as Dtype[] },
])('$model', ({ model, dtypes }) => {
  const expected = readExpected(model);

  it('is the model the fixture was computed from (no stale fixture)', () => {
    for (const [file, hash] of Object.entries(expected.sha256)) {
      const actual = createHash('sha256')
        .update(readFileSync(`${MODELS_DIR}${model}/${file}`))
        .digest('hex');
      expect(actual, file).toBe(hash);
    }
  });

  it('tokenises and truncates like the Python reference', async () => {
    const { tokenizer } = await extractor(model, dtypes[0]);
    // The call the feature-extraction pipeline makes.
    const enc = tokenizer(expected.texts, { padding: true, truncation: true });
    const [n, width] = enc.input_ids.dims;
    const ids = enc.input_ids.data as BigInt64Array;
    const mask = enc.attention_mask.data as BigInt64Array;
    const rows = Array.from({ length: n }, (_, i) => {
      const row: number[] = [];
      for (let j = 0; j < width; j++) if (mask[i * width + j] === 1n) row.push(Number(ids[i * width + j]));
      return row;
    });
    expect(rows).toEqual(expected.tokenIds);
  });

  it.each(dtypes)('loads as %s from local files and matches the Python embeddings', async (dtype) => {
    const { rows, dim } = await embed(model, dtype, expected.texts);
    expect(dim).toBe(expected.dim);
    const want = expected.embeddings[dtype]!;
    const tolerance = expected.tolerance[dtype]!;
    rows.forEach((row, i) => {
      expect(row.every(Number.isFinite), expected.texts[i]).toBe(true);
      expect(Math.abs(Math.sqrt(dot(row, row)) - 1)).toBeLessThan(UNIT_NORM_TOLERANCE);
      expect(maxAbsDiff(row, want[i]), expected.texts[i]).toBeLessThanOrEqual(tolerance);
    });
  });
});

describe(`${TINY}'s q8 check still fails a wrong model`, () => {
  const expected = readExpected(TINY);
  const check = expected.q8Check!;
  /** The largest difference of any embedding of the fixture's batch from the q8 fixture. */
  const missed = (rows: Float32Array[]) =>
    Math.max(...rows.map((row, i) => maxAbsDiff(row, expected.embeddings.q8![i])));

  it('the fp32 file misses the q8 fixture by more than the tolerance', async () => {
    expect(check.tolerance).toBe(expected.tolerance.q8);
    const { rows } = await embed(TINY, 'fp32', expected.texts);
    expect(missed(rows)).toBeGreaterThan(check.tolerance);
  });

  it('a graph with its last quantised weight matrix reversed misses it by far', async () => {
    env.localModelPath = brokenCopy(MODELS_DIR, TINY, check);
    try {
      const wrong = (await pipeline('feature-extraction', TINY, {
        dtype: 'q8',
      })) as FeatureExtractionPipeline;
      const out = await wrong(expected.texts, { pooling: 'mean', normalize: true });
      const data = out.data as Float32Array;
      const dim = out.dims[1];
      const rows = expected.texts.map((_, i) => data.subarray(i * dim, (i + 1) * dim));
      expect(missed(rows)).toBeGreaterThan(3 * check.tolerance);
      expect(missed(rows)).toBeCloseTo(check.broken.difference, 4);
      await wrong.dispose();
    } finally {
      env.localModelPath = MODELS_DIR;
    }
  });
});

describe('remote models disabled', () => {
  it('rejects a model that is not on disk instead of fetching it', async () => {
    // Without the network a hub fetch would fail too; the message shows it was never attempted.
    await expect(pipeline('feature-extraction', 'aerie-no-such-model', { dtype: 'q8' })).rejects.toThrow(
      /allowRemoteModels=false.*not found locally/,
    );
  });
});

describe(`${GLOVE} semantics`, () => {
  /** (text, closer, farther): the first must be closer (cosine) to the second than to the third. */
  const RANKINGS: [string, string, string][] = [
    ['Cinderella lost her glass slipper on the palace stairs.', 'shoe', 'tax law'],
    ['The king held a ball for his son.', 'royal dance party', 'computer software'],
    ['The fairy godmother turned a pumpkin into a golden coach.', 'magic spell', 'football match'],
    [
      'The stepmother made her scrub the floors every day.',
      'household chores and cleaning',
      'stock market prices',
    ],
    ['The doctor prescribed antibiotics for the infection.', 'medicine and illness', 'mountain hiking'],
    ['The striker scored twice in the second half.', 'soccer game goals', 'piano concerto'],
  ];

  it.each(RANKINGS)('%s is closer to "%s" than to "%s"', async (text, closer, farther) => {
    const { rows } = await embed(GLOVE, 'q8', [text, closer, farther]);
    expect(dot(rows[0], rows[1])).toBeGreaterThan(dot(rows[0], rows[2]));
  });

  it('finds each paraphrase among the others', async () => {
    const pairs: [string, string][] = [
      ['The ship sank during a violent storm at sea.', 'A vessel went down in rough weather on the ocean.'],
      [
        'She bought fresh vegetables at the market.',
        'At the grocery stall she purchased carrots and tomatoes.',
      ],
      ['The train was delayed by snow on the tracks.', 'Winter weather made the railway service late.'],
      [
        'He broke his leg while skiing in the mountains.',
        'A skiing accident left him with a fractured bone.',
      ],
      ['The wedding took place in a small church.', 'They were married in a little chapel.'],
    ];
    const { rows: queries } = await embed(
      GLOVE,
      'q8',
      pairs.map((p) => p[0]),
    );
    const { rows: docs } = await embed(
      GLOVE,
      'q8',
      pairs.map((p) => p[1]),
    );
    queries.forEach((q, i) => {
      const scores = docs.map((d) => dot(q, d));
      expect(scores.indexOf(Math.max(...scores)), pairs[i][0]).toBe(i);
    });
  });

  it('embeds a text without content words to a finite unit vector (no 0/0)', async () => {
    const { rows } = await embed(GLOVE, 'q8', ['It was the one that is.', 'of the and']);
    for (const row of rows) {
      expect(row.every(Number.isFinite)).toBe(true);
      expect(Math.abs(Math.sqrt(dot(row, row)) - 1)).toBeLessThan(UNIT_NORM_TOLERANCE);
    }
  });
});
