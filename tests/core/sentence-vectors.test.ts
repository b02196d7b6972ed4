/** The memory of sentence vectors that come with node embeddings, with a FAKE detailed embedder. */
import { describe, expect, it } from 'vitest';
import { createSentenceMemory, type DetailedEmbedFn } from '../../src/core/sentence-vectors';

/** A FAKE detailed embedder: a text's vector is [length]; its sentences' vectors [i] per '.'-ended piece. */
function fakeDetailed(): DetailedEmbedFn & { calls: string[][] } {
  const calls: string[][] = [];
  const fn = (async (texts: string[]) => {
    calls.push(texts);
    return {
      vectors: texts.map((t) => Float32Array.of(t.length)),
      sentences: texts.map((t) =>
        t.startsWith('?')
          ? undefined
          : t
              .split('.')
              .slice(0, -1)
              .map((_, i) => Float32Array.of(i)),
      ),
    };
  }) as DetailedEmbedFn & { calls: string[][] };
  fn.calls = calls;
  return fn;
}

describe('createSentenceMemory', () => {
  it('returns the vectors it embedded and later the sentence vectors of those texts without a new pass', async () => {
    const detailed = fakeDetailed();
    const memory = createSentenceMemory(detailed);
    const vectors = await memory.embed(['A. B.', 'C.']);
    expect(vectors.map((v) => v[0])).toEqual([5, 2]);
    const sentences = await memory.source.sentencesOf(['C.', 'A. B.']);
    expect(sentences.map((list) => list?.map((v) => v[0]))).toEqual([[0], [0, 1]]);
    expect(detailed.calls).toEqual([['A. B.', 'C.']]);
  });

  it('embeds each unseen text once to get its sentences, and passes on texts that have none', async () => {
    const detailed = fakeDetailed();
    const memory = createSentenceMemory(detailed);
    await memory.embed(['A.']);
    const sentences = await memory.source.sentencesOf(['A.', 'D. E.', '?x', 'D. E.']);
    expect(sentences.map((list) => list?.length)).toEqual([1, 2, undefined, 2]);
    expect(detailed.calls).toEqual([['A.'], ['D. E.', '?x']]);
    // Known now, including the text without sentence vectors.
    await memory.source.sentencesOf(['?x', 'D. E.']);
    expect(detailed.calls.length).toBe(2);
  });

  it('forgets everything when full, then embeds again what it is asked', async () => {
    const detailed = fakeDetailed();
    const memory = createSentenceMemory(detailed, 2);
    await memory.embed(['A.', 'B.']);
    await memory.embed(['C.']);
    await memory.source.sentencesOf(['A.']);
    expect(detailed.calls).toEqual([['A.', 'B.'], ['C.'], ['A.']]);
  });
});
