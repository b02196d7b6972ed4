/**
 * The known-input check's reference is the committed tiny BERT's fixture (rows 0, 2 and 4, fp32), and the same
 * texts embedded on this CPU by the app's embedder pass it far within its tolerance; a wrong vector, NaN or a
 * wrong width fail it. (The check itself runs on WebGPU in the browser: e2e/webgpu-faults.spec.ts.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  configureRuntime,
  TransformersEmbedder,
  GPU_CHECK_TOLERANCE,
  referenceError,
  GPU_CHECK_MODEL,
  GPU_CHECK_TEXTS,
  GPU_CHECK_VECTORS,
} from '../../../src/models/embed';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/models/aerie-tiny-random.expected.json', import.meta.url), 'utf8'),
) as { texts: string[]; embeddings: { fp32: number[][] } };

describe('the known-input check', () => {
  it('uses rows of the tiny model’s Python fixture', () => {
    expect(GPU_CHECK_MODEL).toBe('local:aerie-tiny-random');
    expect(GPU_CHECK_TEXTS).toEqual([0, 2, 4].map((i) => fixture.texts[i]));
    expect(GPU_CHECK_VECTORS).toEqual([0, 2, 4].map((i) => fixture.embeddings.fp32[i]));
  });

  it('passes a correct device (this CPU) by far, and fails wrong numbers, NaN and a wrong width', async () => {
    configureRuntime({ localModelPath: MODELS });
    const embedder = await TransformersEmbedder.load(GPU_CHECK_MODEL, { dtype: 'fp32', device: 'cpu' });
    const { data, dim } = await embedder.embed([...GPU_CHECK_TEXTS]);
    await embedder.dispose();
    const error = referenceError(data, dim);
    expect(error).toBeLessThan(GPU_CHECK_TOLERANCE / 100);
    const wrong = data.slice();
    wrong[5] += 0.01;
    expect(referenceError(wrong, dim)).toBeGreaterThan(GPU_CHECK_TOLERANCE);
    wrong[5] = NaN;
    expect(referenceError(wrong, dim)).toBe(Infinity);
    expect(referenceError(data.subarray(0, dim * 2), dim)).toBe(Infinity);
  });
});
