/**
 * Sentence counts remembered between the chunker and the extractive summariser (SENTENCE_COUNT_MEMORY): the
 * summaries of a book's leaves count no sentence the chunker counted already, and the summaries are the same as
 * with every count made afresh. The tokenizer underneath is the real one, wrapped by a counting SPY.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

const tokenizer = vi.hoisted(() => ({ calls: [] as string[] }));
vi.mock(import('gpt-tokenizer/encoding/cl100k_base'), async (original) => {
  const real = await original();
  return {
    ...real,
    countTokens: (
      text: Parameters<typeof real.countTokens>[0],
      options?: Parameters<typeof real.countTokens>[1],
    ) => {
      tokenizer.calls.push(String(text));
      return real.countTokens(text, options);
    },
  };
});

const book = readFileSync(new URL('../../fixtures/cinderella.txt', import.meta.url), 'utf8');
const CHUNK_TOKENS = 100;
const SUMMARY_TOKENS = 40;
const GROUP = 4;

/** A FAKE embedder: a deterministic 8-d vector from each text's character codes. */
async function fakeEmbed(texts: string[]): Promise<Float32Array[]> {
  return texts.map((t) => {
    const v = new Float32Array(8);
    for (let i = 0; i < t.length; i++) v[i % 8] += (t.charCodeAt(i) % 17) - 8;
    return v;
  });
}

const oneLine = book.replace(/\s+/g, ' ');

/** Summaries of `leaves`, 4 at a time, by a new summariser of the module graph loaded now. */
async function summarise(leaves: string[]): Promise<string[]> {
  const { createExtractiveSummarizer } = await import('../../../src/core/extractive');
  const summarize = createExtractiveSummarizer(fakeEmbed);
  const summaries: string[] = [];
  for (let i = 0; i < leaves.length; i += GROUP)
    summaries.push(await summarize(leaves.slice(i, i + GROUP), { maxTokens: SUMMARY_TOKENS }));
  return summaries;
}

describe('sentence counts shared by the chunker and the extractive summariser (SPY on the tokenizer)', () => {
  it('the summaries count no sentence the chunker counted, and come out the same as counted afresh', async () => {
    const { chunkText, sentenceSpans } = await import('../../../src/core/text');
    // Whitespace made single spaces, so the summariser's sentences are the chunker's strings.
    const leaves = chunkText(oneLine, { maxTokens: CHUNK_TOKENS }).map((c) => c.text);
    const sentences = new Set(sentenceSpans(oneLine).map((s) => oneLine.slice(s.start, s.end)));
    tokenizer.calls.length = 0;
    const reused = await summarise(leaves);
    expect(reused.length).toBeGreaterThan(5);
    // What the summaries still count is their own texts (the budget's check; a summary of one sentence is that
    // sentence), none of the sentences they choose from.
    expect(tokenizer.calls.filter((t) => sentences.has(t) && !reused.includes(t))).toEqual([]);

    // A new module graph remembers nothing: its summariser counts the sentences itself.
    vi.resetModules();
    tokenizer.calls.length = 0;
    const afresh = await summarise(leaves);
    expect(tokenizer.calls.filter((t) => sentences.has(t)).length).toBeGreaterThan(leaves.length);
    expect(afresh).toEqual(reused);
  });

  it('forgets every count when told (a build that ends keeps no sentence of its document)', async () => {
    const { countSentenceTokens, forgetSentenceCounts } = await import('../../../src/core/text');
    const sentence = 'The pigeons flew down to the hearth and picked every lentil from the ashes.';
    countSentenceTokens(sentence);
    tokenizer.calls.length = 0;
    countSentenceTokens(sentence);
    expect(tokenizer.calls).toEqual([]);
    forgetSentenceCounts();
    expect(countSentenceTokens(sentence)).toBeGreaterThan(10);
    expect(tokenizer.calls).toEqual([sentence]);
  });
});
