/**
 * TextTokens: a model whose tokenizer our encoder writes gets its ids and inputs from it; any other tokenizer
 * (a BPE one), and any text our encoder declines (an added token inside), is counted by transformers.js's
 * tokenizer and left to its pipeline.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PreTrainedTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { TextTokens } from '../../../src/models/embed/text-tokens';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));

function tokenizerOf(model: string): PreTrainedTokenizer {
  const read = (file: string) => JSON.parse(readFileSync(`${MODELS}${model}/${file}`, 'utf8'));
  return new PreTrainedTokenizer(read('tokenizer.json'), read('tokenizer_config.json'));
}

const TEXTS = ['The prince searched the kingdom.', 'Two pigeons sat in the hazel tree, and sang.', 'Short.'];

describe('TextTokens', () => {
  it('a BERT-style tokenizer: our ids give the counts and the batch’s inputs', () => {
    const tokenizer = tokenizerOf('aerie-glove-100d');
    const tokens = new TextTokens(tokenizer);
    expect(tokens.encoder).toBeDefined();
    expect(TEXTS.map((t) => tokens.count(t))).toEqual(TEXTS.map((t) => tokenizer.encode(t).length));
    expect(tokens.countWithin(TEXTS[1])).toBe(
      tokenizer.encode(TEXTS[1], { add_special_tokens: false }).length,
    );
    expect(tokens.inputs(TEXTS)?.input_ids.dims).toEqual([3, tokenizer.encode(TEXTS[1]).length]);
  });

  it('forget empties the memory of texts and words, and the ids made again are the same', () => {
    const tokens = new TextTokens(tokenizerOf('aerie-glove-100d'));
    expect(tokens.memory()).toEqual({ texts: 0, words: 0 });
    const before = tokens.inputs(TEXTS)!.input_ids.data;
    expect(tokens.memory().texts).toBe(TEXTS.length);
    expect(tokens.memory().words).toBeGreaterThan(10);
    tokens.forget();
    expect(tokens.memory()).toEqual({ texts: 0, words: 0 });
    expect(tokens.inputs(TEXTS)!.input_ids.data).toEqual(before);
  });

  it('a text holding an added token is counted by transformers.js, and its batch left to the pipeline', () => {
    const tokenizer = tokenizerOf('aerie-glove-100d');
    const tokens = new TextTokens(tokenizer);
    const text = 'Before [SEP] after.';
    expect(tokens.count(text)).toBe(tokenizer.encode(text).length);
    expect(tokens.countWithin(text)).toBe(tokenizer.encode(text, { add_special_tokens: false }).length);
    expect(tokens.inputs([TEXTS[0], text])).toBeUndefined();
  });

  it('another kind of tokenizer (BPE) is transformers.js’s throughout', () => {
    const tokenizer = tokenizerOf('aerie-tiny-qwen2');
    const tokens = new TextTokens(tokenizer);
    expect(tokens.encoder).toBeUndefined();
    expect(TEXTS.map((t) => tokens.count(t))).toEqual(TEXTS.map((t) => tokenizer.encode(t).length));
    expect(tokens.countWithin(TEXTS[0])).toBe(
      tokenizer.encode(TEXTS[0], { add_special_tokens: false }).length,
    );
    expect(tokens.inputs(TEXTS)).toBeUndefined();
  });
});
