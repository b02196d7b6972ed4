/**
 * A build's documents are chunked while its embedding model loads (src/pipeline/early-chunks.ts): checked
 * through a SPY on the cl100k tokenizer (the real one underneath), with the offline GloVe model, the extractive
 * summariser and a FAKE IndexedDB (fake-indexeddb).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { chunkTextAsync, sentenceSpans } from '../../src/core/text';
import { createEmbedService } from '../../src/models/embed';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { createBuildService } from '../../src/pipeline/build-service';
import { startChunking } from '../../src/pipeline/early-chunks';
import type { BuildRequest } from '../../src/protocol/build';
import { loadTree } from '../../src/storage';
import { openFixture } from '../support/storage-fixture';

const tokenizer = vi.hoisted(() => ({ calls: [] as string[] }));
vi.mock(import('gpt-tokenizer/encoding/cl100k_base'), async (original) => {
  const real = await original();
  return {
    ...real,
    countTokens: (...args: Parameters<typeof real.countTokens>) => {
      tokenizer.calls.push(String(args[0]));
      return real.countTokens(...args);
    },
  };
});

const cinderella = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');
const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
const embedService = createEmbedService({ localModelPath: MODELS }, false);
const CHUNK_TOKENS = 100;
/** The book under a first sentence of its own: sentences are counted once per module, and the test above chunks the book. */
const story = `A story told again in a test. ${cinderella}`;
/** Whether a text's first sentence has been counted (the chunker counts every sentence as it measures it). */
const firstSentenceCounted = (text: string) => {
  const [first] = sentenceSpans(text);
  return tokenizer.calls.includes(text.slice(first.start, first.end));
};

describe('chunks begun while the model loads', () => {
  it('the chunker hands back the chunks begun at the start, the same as chunked then, with their progress', async () => {
    const other = 'A second document. It is short.';
    tokenizer.calls.length = 0;
    const chunker = startChunking([cinderella, cinderella, other], CHUNK_TOKENS);
    await vi.waitFor(() => expect(firstSentenceCounted(cinderella)).toBe(true));
    const progress: number[] = [];
    const early = await chunker(cinderella, { maxTokens: CHUNK_TOKENS, onProgress: (d) => progress.push(d) });
    expect(early).toEqual(await chunkTextAsync(cinderella, { maxTokens: CHUNK_TOKENS }));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBeGreaterThan(cinderella.length / 2);
    // Another budget than the one begun with: chunked then, with that budget.
    expect(await chunker(other, { maxTokens: 5 })).toEqual(await chunkTextAsync(other, { maxTokens: 5 }));
  });

  it('a build chunks its document before its embedding model has loaded, and the tree is the one built after', async () => {
    const { db } = await openFixture({ empty: true });
    let countedDuringLoad: boolean | undefined;
    const slowLoad: typeof embedService = {
      ...embedService,
      load: async (...args) => {
        // The load waits (as a worker's fetches and compile do) until the build worker has chunked, or gives up.
        countedDuringLoad = await vi
          .waitFor(() => expect(firstSentenceCounted(story)).toBe(true), { timeout: 5000 })
          .then(
            () => true,
            () => false,
          );
        return embedService.load(...args);
      },
    };
    const request = (buildId: string): BuildRequest => ({
      buildId,
      title: 'Cinderella',
      documents: [{ id: 'cinderella', name: 'cinderella.txt', text: story }],
      params: { chunkTokens: CHUNK_TOKENS },
      embedding: { kind: 'browser', model: OFFLINE_MODEL_ID, dtype: 'q8' },
      summarizer: { kind: 'extractive' },
    });
    tokenizer.calls.length = 0;
    await createBuildService({ embedService: slowLoad, openDb: async () => db, channel: null }).build(
      request('early'),
    );
    expect(countedDuringLoad).toBe(true);

    // The same document built with the model already loaded: the same tree, node for node.
    await createBuildService({ embedService, openDb: async () => db, channel: null }).build(request('after'));
    const [early, after] = [await loadTree(db, 'early'), await loadTree(db, 'after')];
    const shape = (t: typeof early) => t.nodes.map((n) => ({ ...n, embedding: Array.from(n.embedding) }));
    expect(early.nodes.length).toBeGreaterThan(20);
    expect(shape(early)).toEqual(shape(after));
  });
});
