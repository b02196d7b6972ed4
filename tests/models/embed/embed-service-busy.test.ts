/**
 * A question asked while a build embeds with another model (issue 25, bad input): the service must not swap the
 * model out from under the build's calls in flight. The question is refused with BUSY and a sentence; the
 * build's call finishes; once nothing is in flight, the other model loads.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createEmbedService } from '../../../src/models/embed';
import { OFFLINE_MODEL_ID } from '../../../src/models/embed/embedding-presets';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const TINY = { model: 'local:aerie-tiny-random', dtype: 'fp32' as const };
const GLOVE = { model: OFFLINE_MODEL_ID, dtype: 'q8' as const };

it('refuses another model while a call is in flight, then loads it', async () => {
  const service = createEmbedService({ localModelPath: MODELS }, false);
  const texts = Array.from({ length: 200 }, (_, i) => `Sentence number ${i} of the build's leaves.`);
  const build = service.embed(texts, TINY, { batchSize: 8 });
  await expect(service.embed(['Who is the heroine?'], GLOVE)).rejects.toMatchObject({
    code: 'BUSY',
    message: expect.stringContaining('Try again when the build has finished'),
  });
  // The same model is shared, not refused.
  const sameModel = await service.embed(['Who is the heroine?'], TINY);
  const rows = await build;
  expect(rows.data.length).toBe(texts.length * rows.dim);
  expect(sameModel.dim).toBe(rows.dim);
  const question = await service.embed(['Who is the heroine?'], GLOVE);
  expect(question.dim).toBe(100);
});
