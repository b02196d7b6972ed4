/**
 * The cross-encoder reranker through transformers.js in Node (src/models/embed/reranker.ts), against what ONNX
 * Runtime computed in Python for the committed random-weight model (scripts/models/make_cross_encoder_random.py,
 * tests/fixtures/models/aerie-tiny-cross.expected.json): the same pair tokens (token types 0 for the question, 1
 * for the passage) and the same logits, in fp32 and q8 (q8 within the fixture's measured tolerance, which holds
 * on every CPU and fails the fp32 file and a broken graph). Its scores mean nothing; the wiring is what is tested.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import {
  configureRuntime,
  createEmbedService,
  CrossEncoder,
  RERANK_QUESTION_CHARS,
} from '../../../src/models/embed';
import { TEST_RERANKER_ID } from '../../../src/models/embed/reranker-presets';
import { brokenCopy, maxDifference, type Q8Check } from '../../support/q8-check';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const FOLDER = `${MODELS}aerie-tiny-cross/`;

interface Expected {
  tolerance: { fp32: number; q8: number };
  sha256: Record<string, string>;
  pairs: [string, string][];
  tokenIds: number[][];
  tokenTypes: number[][];
  logits: { fp32: number[]; q8: number[] };
  q8Check: Q8Check;
}
const expected = JSON.parse(
  readFileSync(new URL('../../fixtures/models/aerie-tiny-cross.expected.json', import.meta.url), 'utf8'),
) as Expected;

describe('the committed test cross-encoder', () => {
  it('is the model the fixture was computed from', () => {
    for (const [file, hash] of Object.entries(expected.sha256)) {
      expect(
        createHash('sha256')
          .update(readFileSync(FOLDER + file))
          .digest('hex'),
        file,
      ).toBe(hash);
    }
  });

  it('tokenises pairs as Python did: [CLS] question [SEP] passage [SEP], types 0 then 1', async () => {
    configureRuntime({ localModelPath: MODELS });
    env.allowLocalModels = true;
    const tokenizer = await AutoTokenizer.from_pretrained('aerie-tiny-cross');
    expected.pairs.forEach(([question, passage], i) => {
      const encoded = tokenizer(question, { text_pair: passage });
      expect(Array.from(encoded.input_ids.data as BigInt64Array, Number)).toEqual(expected.tokenIds[i]);
      expect(Array.from(encoded.token_type_ids!.data as BigInt64Array, Number)).toEqual(
        expected.tokenTypes[i],
      );
    });
  });

  /** Each fixture pair scored alone (a batch of one), as the fixture was computed. */
  async function pairScores(encoder: CrossEncoder): Promise<number[]> {
    const scores = await Promise.all(expected.pairs.map(([q, p]) => encoder.score(q, [p])));
    return scores.map((s) => s[0]);
  }

  it.each(['fp32', 'q8'] as const)('gives ONNX Runtime’s logits in %s, one batch', async (dtype) => {
    configureRuntime({ localModelPath: MODELS });
    const encoder = await CrossEncoder.load(TEST_RERANKER_ID, { dtype });
    // Every pair here shares its question, as a reranker's batch does; the fixture's pairs do not, so each
    // is scored alone and the batch of the first two (one question) is checked against them too.
    expect(maxDifference(await pairScores(encoder), expected.logits[dtype])).toBeLessThanOrEqual(
      expected.tolerance[dtype],
    );
    if (dtype === 'fp32') {
      const [question] = expected.pairs[0];
      const both = await encoder.score(question, [expected.pairs[0][1], expected.pairs[1][1]]);
      expect(Math.abs(both[0] - expected.logits.fp32[0])).toBeLessThan(expected.tolerance.fp32);
      expect(Math.abs(both[1] - expected.logits.fp32[1])).toBeLessThan(expected.tolerance.fp32);
    }
    await encoder.dispose();
  });

  it('the q8 check fails the fp32 file and a graph with its classifier weights reversed', async () => {
    const { tolerance, broken } = expected.q8Check;
    expect(tolerance).toBe(expected.tolerance.q8);
    configureRuntime({ localModelPath: MODELS });
    const fp32 = await CrossEncoder.load(TEST_RERANKER_ID, { dtype: 'fp32' });
    expect(maxDifference(await pairScores(fp32), expected.logits.q8)).toBeGreaterThan(tolerance);
    await fp32.dispose();
    configureRuntime({ localModelPath: brokenCopy(MODELS, 'aerie-tiny-cross', expected.q8Check) });
    try {
      const wrong = await CrossEncoder.load(TEST_RERANKER_ID, { dtype: 'q8' });
      const missed = maxDifference(await pairScores(wrong), expected.logits.q8);
      expect(missed).toBeGreaterThan(3 * tolerance);
      expect(missed).toBeCloseTo(broken.difference, 4);
      await wrong.dispose();
    } finally {
      configureRuntime({ localModelPath: MODELS });
    }
  });

  it('cuts a 10,000-character question so the passage is still read', async () => {
    configureRuntime({ localModelPath: MODELS });
    const encoder = await CrossEncoder.load(TEST_RERANKER_ID, { dtype: 'fp32' });
    const long = 'why '.repeat(2500);
    const passages = ['Cinderella lost her glass slipper.', 'The king held a ball.'];
    const cut = await encoder.score(long.slice(0, RERANK_QUESTION_CHARS), passages);
    const scores = await encoder.score(long, passages);
    expect(Array.from(scores)).toEqual(Array.from(cut));
    expect(scores[0]).not.toBe(scores[1]);
    await encoder.dispose();
  });
});

describe('the embedding service reranks beside its embedding model', () => {
  it('loads the reranker once and scores passages in order; a missing model says so', async () => {
    const service = createEmbedService({ localModelPath: MODELS }, false);
    const choice = { model: TEST_RERANKER_ID, dtype: 'fp32' as const };
    const info = await service.loadReranker(choice);
    expect(info).toMatchObject({ model: TEST_RERANKER_ID, dtype: 'fp32', device: 'cpu' });
    const [question, passage] = expected.pairs[2];
    const scores = await service.rerank(question, [passage], choice);
    expect(Math.abs(scores[0] - expected.logits.fp32[2])).toBeLessThan(expected.tolerance.fp32);
    await expect(
      service.rerank(question, [passage], { model: 'local:no-such-reranker' }),
    ).rejects.toMatchObject({
      code: 'LOAD_FAILED',
      message: expect.stringContaining('The reranker model "local:no-such-reranker" could not be loaded'),
    });
    // A failed load is forgotten: the test model still loads and scores afterwards.
    expect((await service.rerank(question, [passage], choice))[0]).toBe(scores[0]);
  });
});
