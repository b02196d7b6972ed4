/**
 * Loads in one worker run one after another (`loadEachDtype`): each sets transformers.js's global local/remote
 * switches, which every file of a load in flight reads. Fake loads stand in for transformers.js's `pipeline`.
 */
import { env } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { loadEachDtype } from '../../../src/models/embed/embedder';

describe('loadEachDtype with fake loads', () => {
  it("keeps a local model's switches for all of its load while a hub model's load is asked for", async () => {
    const seen: string[] = [];
    /** A FAKE load: notes the switches when it starts and again a few macrotasks later, as file fetches do. */
    const fakeLoad = (label: string) => async () => {
      const start = `${env.allowLocalModels}/${env.allowRemoteModels}`;
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`${label}: ${start} → ${env.allowLocalModels}/${env.allowRemoteModels}`);
      return label;
    };
    // The warm-up's offline model, then a build that tries the hub model first.
    const local = loadEachDtype('local:aerie-glove-100d', { device: 'wasm' }, 'model', fakeLoad('local'));
    const hub = loadEachDtype('Xenova/all-MiniLM-L6-v2', { device: 'wasm' }, 'model', fakeLoad('hub'));
    expect((await local).loaded).toBe('local');
    expect((await hub).loaded).toBe('hub');
    expect(seen).toEqual(['local: true/false → true/false', 'hub: false/true → false/true']);
  });

  it('goes on with the next load after one fails', async () => {
    const failing = loadEachDtype('local:aerie-glove-100d', { device: 'wasm' }, 'model', async () => {
      throw new TypeError('Failed to fetch');
    });
    const next = loadEachDtype('local:aerie-glove-100d', { device: 'wasm' }, 'model', async () => 'loaded');
    await expect(failing).rejects.toThrow();
    expect((await next).loaded).toBe('loaded');
  });
});
