/**
 * The extractive summariser on hand-worked examples: a FAKE embedder maps each sentence to a chosen 2-d
 * vector, so the centrality of every sentence (cosine to the mean of the unit vectors) is known on paper and
 * the expected summaries below follow from it, not from running the code.
 */
import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { countTokens } from '../../src/core/text/tokens';
import type { EmbedFn } from '../../src/core/types';

/** A FAKE embedder: a fixed vector per sentence text; records the texts it was asked to embed. */
function tableEmbedder(table: Record<string, number[]>): EmbedFn & { calls: string[][] } {
  const calls: string[][] = [];
  const embed = (async (texts: string[]) => {
    calls.push(texts);
    return texts.map((t) => {
      const v = table[t];
      if (!v) throw new Error(`no vector for ${JSON.stringify(t)}`);
      return Float32Array.from(v);
    });
  }) as EmbedFn & { calls: string[][] };
  embed.calls = calls;
  return embed;
}

// Four sentences of five cl100k tokens each. As unit vectors at angles 90°, 11.3°, 0° and −5.7°, their mean
// points at 20.2°, so the angular distances are fox 69.8°, cat 8.9°, dog 20.2°, cow 25.9°: central first,
// the order is cat, dog, cow, fox (input order would be fox, cat, dog, cow).
const FOX = 'The fox ran away.';
const CAT = 'The cat sat down.';
const DOG = 'The dog lay down.';
const COW = 'The cow stood up.';
const VECTORS: Record<string, number[]> = {
  [FOX]: [0, 1],
  [CAT]: [1, 0.2],
  [DOG]: [1, 0],
  [COW]: [1, -0.1],
};
const FIVE = 5;

describe('createExtractiveSummarizer (FAKE table embedder, hand-worked centrality)', () => {
  it('the sentences are five tokens each and a join costs nothing (the premise of the cases below)', () => {
    for (const s of [FOX, CAT, DOG, COW]) expect(countTokens(s)).toBe(FIVE);
    expect(countTokens(`${CAT} ${DOG}`)).toBe(2 * FIVE);
  });

  it('keeps the most central sentences, not the first ones', async () => {
    const summarize = createExtractiveSummarizer(tableEmbedder(VECTORS));
    const texts = [`${FOX} ${CAT}`, `${DOG} ${COW}`];
    expect(await summarize(texts, { maxTokens: FIVE })).toBe(CAT);
    expect(await summarize(texts, { maxTokens: 2 * FIVE })).toBe(`${CAT} ${DOG}`);
    expect(await summarize(texts, { maxTokens: 3 * FIVE + 2 })).toBe(`${CAT} ${DOG} ${COW}`);
    expect(await summarize(texts, { maxTokens: 4 * FIVE })).toBe(`${FOX} ${CAT} ${DOG} ${COW}`);
  });

  it('prints the chosen sentences in their original order, whatever their rank', async () => {
    const summarize = createExtractiveSummarizer(tableEmbedder(VECTORS));
    // Ranked cat, dog, cow, fox; in the text dog comes first and cat last.
    const texts = [`${DOG} ${FOX}`, `${COW} ${CAT}`];
    expect(await summarize(texts, { maxTokens: 2 * FIVE })).toBe(`${DOG} ${CAT}`);
    expect(await summarize(texts, { maxTokens: 3 * FIVE })).toBe(`${DOG} ${COW} ${CAT}`);
  });

  it('skips a sentence that does not fit and takes a less central one that does', async () => {
    const long = 'The old grey horse walked slowly home.'; // 8 tokens, the second most central
    const summarize = createExtractiveSummarizer(
      tableEmbedder({ [FOX]: [0, 1], [CAT]: [1, 0.2], [long]: [1, 0], [COW]: [1, -0.1] }),
    );
    expect(countTokens(long)).toBe(8);
    // Budget 12: cat (5) fits, the horse (8) would make 13, cow (5) makes 10; fox would make 15.
    expect(await summarize([`${FOX} ${CAT} ${long} ${COW}`], { maxTokens: 12 })).toBe(`${CAT} ${COW}`);
  });

  it('does not depend on the length of the embedding vectors', async () => {
    const scaled = Object.fromEntries(
      Object.entries(VECTORS).map(([text, v], i) => [text, v.map((x) => x * [1e-3, 7, 300, 0.5][i])]),
    );
    const summarize = createExtractiveSummarizer(tableEmbedder(scaled));
    expect(await summarize([`${FOX} ${CAT} ${DOG} ${COW}`], { maxTokens: 2 * FIVE })).toBe(`${CAT} ${DOG}`);
  });

  it('does not depend on the length of each vector, even when one is a thousand times the others', async () => {
    // Centrality is a cosine: the fox's long vector must not pull the mean towards it (as summing the raw
    // vectors would, making the fox the most central sentence).
    const scaled = { ...VECTORS, [FOX]: VECTORS[FOX].map((x) => x * 1000) };
    const summarize = createExtractiveSummarizer(tableEmbedder(scaled));
    expect(await summarize([`${FOX} ${CAT} ${DOG} ${COW}`], { maxTokens: 2 * FIVE })).toBe(`${CAT} ${DOG}`);
  });

  it('of two equally central sentences that are not the most central, takes the earlier one', async () => {
    // Fox and cow share one vector, cat points between them and is the most central; one more sentence fits
    // beside cat: of the tied fox and cow, the one that comes first in the text.
    const tied = { [FOX]: [1, 0], [CAT]: [1, 1], [COW]: [1, 0], [DOG]: [0, 1] };
    const summarize = createExtractiveSummarizer(tableEmbedder(tied));
    // Mean direction (3,2): cat 11.3°, fox and cow 33.7°, dog 56.3°.
    expect(await summarize([`${COW} ${CAT} ${FOX} ${DOG}`], { maxTokens: 2 * FIVE })).toBe(`${COW} ${CAT}`);
    expect(await summarize([`${FOX} ${DOG} ${CAT} ${COW}`], { maxTokens: 2 * FIVE })).toBe(`${FOX} ${CAT}`);
  });

  it('drops the least central chosen sentence when joining makes the text a token too long', async () => {
    // A sentence starting with a digit does not merge with the joining space: "X! 8 …" costs one more token
    // than its parts, so three sentences that fit one by one (3 × 5 = 15) need 17 tokens once joined.
    const a = '7 cats sat down!';
    const b = '8 dogs lay down?';
    const c = '9 cows stood up.';
    for (const s of [a, b, c]) expect(countTokens(s)).toBe(FIVE);
    expect(countTokens(`${a} ${b} ${c}`)).toBeGreaterThan(3 * FIVE);
    expect(countTokens(`${a} ${b}`)).toBeLessThanOrEqual(3 * FIVE);
    // Centrality: the unit vectors of (1, 0.5), (1, 0) and (1, −0.2) average at 5.0°: b is 5.0° away, c 16.3°,
    // a 21.6°. All three fit one by one; joined they do not, so a, the least central, goes.
    const summarize = createExtractiveSummarizer(
      tableEmbedder({ [a]: [1, 0.5], [b]: [1, 0], [c]: [1, -0.2] }),
    );
    expect(await summarize([`${a} ${b} ${c}`], { maxTokens: 3 * FIVE })).toBe(`${b} ${c}`);
  });

  it('drops the least central chosen sentence wherever it stands in the text', async () => {
    // The case above with the least central sentence (a) in the middle: the first sentence (b) is kept.
    const a = '7 cats sat down!';
    const b = '8 dogs lay down?';
    const c = '9 cows stood up.';
    expect(countTokens(`${b} ${a} ${c}`)).toBeGreaterThan(3 * FIVE);
    expect(countTokens(`${b} ${c}`)).toBeLessThanOrEqual(3 * FIVE);
    const summarize = createExtractiveSummarizer(
      tableEmbedder({ [a]: [1, 0.5], [b]: [1, 0], [c]: [1, -0.2] }),
    );
    expect(await summarize([`${b} ${a} ${c}`], { maxTokens: 3 * FIVE })).toBe(`${b} ${c}`);
  });

  it('equally central sentences are taken in text order', async () => {
    // Every sentence has the same vector, so all are equally central: the earliest ones fill the budget.
    const same = Object.fromEntries([FOX, CAT, DOG, COW].map((t) => [t, [1, 1]]));
    const summarize = createExtractiveSummarizer(tableEmbedder(same));
    const text = `${DOG} ${FOX} ${COW} ${CAT}`;
    expect(await summarize([text], { maxTokens: FIVE })).toBe(DOG);
    expect(await summarize([text], { maxTokens: 2 * FIVE })).toBe(`${DOG} ${FOX}`);
    expect(await summarize([text], { maxTokens: 3 * FIVE })).toBe(`${DOG} ${FOX} ${COW}`);
  });

  it('truncates the most central sentence when no sentence fits the budget', async () => {
    const summarize = createExtractiveSummarizer(tableEmbedder(VECTORS));
    const summary = await summarize([`${FOX} ${CAT} ${DOG}`], { maxTokens: 3 });
    expect(summary).toBe('The cat sat');
    expect(countTokens(summary)).toBe(3);
  });

  it('returns a single sentence without embedding it, and refuses a cluster without text', async () => {
    const embed = tableEmbedder(VECTORS);
    const summarize = createExtractiveSummarizer(embed);
    expect(await summarize([`  ${CAT}  `], { maxTokens: 100 })).toBe(CAT);
    expect(embed.calls).toEqual([]);
    await expect(summarize(['   ', ''], { maxTokens: 100 })).rejects.toMatchObject({
      code: 'EMPTY_CLUSTER',
      message: 'There is no text to summarise in this cluster.',
      details: { texts: 2 },
    });
  });

  it('embeds each sentence once, with whitespace inside a sentence collapsed', async () => {
    const embed = tableEmbedder({ ...VECTORS, 'The cat sat\ndown.': [9, 9] });
    const summarize = createExtractiveSummarizer(embed);
    expect(await summarize([`${FOX}\n\nThe  cat   sat\n down.`], { maxTokens: 2 * FIVE })).toBe(
      `${FOX} ${CAT}`,
    );
    expect(embed.calls).toEqual([[FOX, CAT]]);
  });

  it('passes the abort signal to the embedder', async () => {
    const seen: unknown[] = [];
    const embed: EmbedFn = async (texts, options) => {
      seen.push(options?.signal);
      return texts.map(() => Float32Array.of(1, 0));
    };
    const signal = { aborted: false };
    await createExtractiveSummarizer(embed)([`${FOX} ${CAT}`], { maxTokens: 100, signal });
    expect(seen).toEqual([signal]);
  });
});

describe('sentence vectors reused across clusters', () => {
  it('embeds a sentence seen in an earlier cluster only once, with the same summaries as a fresh summariser', async () => {
    const embed = tableEmbedder(VECTORS);
    const summarize = createExtractiveSummarizer(embed);
    const first = await summarize([`${FOX} ${CAT}`], { maxTokens: FIVE });
    // A node in two clusters, and a summary made of earlier sentences: nothing new to embed but DOG and COW.
    const second = await summarize([`${CAT} ${DOG}`, `${FOX} ${COW}`], { maxTokens: 2 * FIVE });
    const third = await summarize([`${DOG} ${CAT} ${DOG}`], { maxTokens: FIVE });
    expect(embed.calls).toEqual([
      [FOX, CAT],
      [DOG, COW],
    ]);
    const fresh = (texts: string[], maxTokens: number) =>
      createExtractiveSummarizer(tableEmbedder(VECTORS))(texts, { maxTokens });
    expect(first).toBe(await fresh([`${FOX} ${CAT}`], FIVE));
    expect(second).toBe(await fresh([`${CAT} ${DOG}`, `${FOX} ${COW}`], 2 * FIVE));
    expect(third).toBe(await fresh([`${DOG} ${CAT} ${DOG}`], FIVE));
  });
});

describe('sentence vectors from the texts’ own embedding (FAKE source and embedder)', () => {
  /** A FAKE source: for each text, the table's vectors of its sentences, or undefined for texts it lacks. */
  function tableSource(known: Record<string, number[][]>) {
    const asked: string[][] = [];
    return {
      asked,
      async sentencesOf(texts: string[]) {
        asked.push(texts);
        return texts.map((t) => known[t]?.map((v) => Float32Array.from(v)));
      },
    };
  }

  it('ranks with the source’s vectors and embeds nothing when it has every text', async () => {
    const embed = tableEmbedder({});
    // The source's vectors make fox the most central (cat and dog point away from each other).
    const source = tableSource({
      [`${FOX} ${CAT}`]: [
        [1, 0],
        [0.6, 0.8],
      ],
      [`${DOG} ${COW}`]: [
        [0.6, -0.8],
        [0, 1],
      ],
    });
    const summary = await createExtractiveSummarizer(embed, source)([`${FOX} ${CAT}`, `${DOG} ${COW}`], {
      maxTokens: FIVE,
    });
    // Mean of (1,0), (.6,.8), (.6,-.8), (0,1) = (2.2, 1)/4: angles fox 24.4°, cat 28.7°, dog 77.5°, cow 65.6°.
    expect(summary).toBe(FOX);
    expect(embed.calls).toEqual([]);
    expect(source.asked).toEqual([[`${FOX} ${CAT}`, `${DOG} ${COW}`]]);
  });

  it('passes the abort signal to the source', async () => {
    const seen: unknown[] = [];
    const source = {
      async sentencesOf(texts: string[], options?: { signal?: unknown }) {
        seen.push(options?.signal);
        return texts.map(() => [Float32Array.of(1, 0), Float32Array.of(0, 1)]);
      },
    };
    const signal = { aborted: false };
    await createExtractiveSummarizer(tableEmbedder({}), source)([`${FOX} ${CAT}`], {
      maxTokens: 100,
      signal,
    });
    expect(seen).toEqual([signal]);
  });

  it('embeds alone only the sentences of texts the source has no vectors for, or the wrong number', async () => {
    const embed = tableEmbedder(VECTORS);
    const source = tableSource({ [FOX]: [[0, 1]], [`${CAT} ${DOG}`]: [[1, 0.2]] });
    const summary = await createExtractiveSummarizer(embed, source)([FOX, `${CAT} ${DOG}`, COW], {
      maxTokens: 2 * FIVE,
    });
    // The same vectors as the table, so the hand-worked order holds: cat, dog, cow, fox.
    expect(summary).toBe(`${CAT} ${DOG}`);
    expect(embed.calls).toEqual([[CAT, DOG, COW]]);
  });
});
