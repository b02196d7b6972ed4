/**
 * A load that fails keeps the model loaded before it (issue 44): the app warms the offline model while a
 * document waits, the build then asks for the default hub model, finds the hub unreachable and falls back to the
 * offline model — which must still be there, not loaded a second time.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createEmbedService } from '../../../src/models/embed/embed-service';
import type { ModelLoadProgress } from '../../../src/models/files';
import { OFFLINE_MODEL_ID } from '../../../src/models/embed/embedding-presets';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const GLOVE = { model: OFFLINE_MODEL_ID, dtype: 'q8' as const };
const MISSING = { model: 'local:no-such-model', dtype: 'q8' as const };
const TINY = { model: 'local:aerie-tiny-random', dtype: 'fp32' as const };

it('a failed load leaves the previous model loaded; a successful one replaces it', async () => {
  const service = createEmbedService({ localModelPath: MODELS }, false);
  const first: ModelLoadProgress[] = [];
  await service.load(GLOVE, (p) => first.push(p));
  expect(first.length).toBeGreaterThan(0);

  await expect(service.load(MISSING)).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
  expect((await service.info())?.model).toBe(OFFLINE_MODEL_ID);
  const again: ModelLoadProgress[] = [];
  await service.load(GLOVE, (p) => again.push(p));
  // Still loaded: no file was read again.
  expect(again).toEqual([]);
  expect((await service.embed(['a question'], GLOVE)).dim).toBe(100);

  // A load that succeeds replaces it (and the offline model is loaded anew when asked for again).
  await service.load(TINY);
  expect((await service.info())?.model).toBe(TINY.model);
  const reloaded: ModelLoadProgress[] = [];
  await service.load(GLOVE, (p) => reloaded.push(p));
  expect(reloaded.length).toBeGreaterThan(0);
});
