/**
 * Our WordPiece encoder (wordpiece.ts) gives the token ids transformers.js's own tokenizer gives, id for id: on
 * whole books (the KJV's Genesis, Jane Austen's Persuasion, the Debian handbook with its accents and symbols),
 * with the offline GloVe model's 45k vocabulary and the tiny model's 2.4k (where most words split into pieces
 * or are unknown); on texts made to reach each rule (accents, CJK, control characters, whitespace, long and
 * unknown words, added tokens); on seeded random strings of such characters; and on the variants of the
 * BERT-style configuration (MPNet's RobertaProcessing and `<mask>`, other normaliser switches). Any other
 * tokenizer gets no encoder (transformers.js keeps it).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PreTrainedTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random';
import { WordPieceEncoder } from '../../../src/models/embed/wordpiece';

const MODELS = fileURLToPath(new URL('../../../public/models/', import.meta.url));
const BOOKS = fileURLToPath(new URL('../../fixtures/books/', import.meta.url));

/** A model's tokenizer.json and tokenizer_config.json, parsed (a fresh copy each call, to change freely). */
function tokenizerFiles(model: string): { json: Record<string, unknown>; config: Record<string, unknown> } {
  const read = (file: string) => JSON.parse(readFileSync(`${MODELS}${model}/${file}`, 'utf8'));
  return { json: read('tokenizer.json'), config: read('tokenizer_config.json') };
}

/** transformers.js's tokenizer and ours, from the same files. */
function bothOf(json: Record<string, unknown>, config: Record<string, unknown>) {
  const theirs = new PreTrainedTokenizer(json, config);
  const ours = WordPieceEncoder.fromTokenizerJson(json, config);
  if (!ours) throw new Error('no encoder for a BERT-style tokenizer');
  return { theirs, ours };
}

/** A book's paragraphs (blank-line separated, as written: line breaks and indents kept). */
function paragraphs(book: string): string[] {
  return readFileSync(`${BOOKS}${book}.txt`, 'utf8')
    .split(/\n\s*\n/)
    .filter((p) => p.trim().length > 0);
}

/**
 * The first text whose ids differ between the two tokenizers (with and without special tokens), or undefined.
 * Texts transformers.js must tokenise itself (an added token inside) are compared only when `all` is true,
 * and then must be the ones ours declines.
 */
function firstDifference(
  { theirs, ours }: ReturnType<typeof bothOf>,
  texts: readonly string[],
  specials: readonly boolean[] = [true, false],
): { text: string; special: boolean; theirs: number[]; ours: number[] | undefined } | undefined {
  for (const text of texts) {
    for (const special of specials) {
      const expected = theirs.encode(text, { add_special_tokens: special });
      const got = ours.encode(text, special);
      if (got === undefined) continue;
      if (got.length !== expected.length || got.some((id, i) => id !== expected[i])) {
        return { text, special, theirs: expected, ours: Array.from(got) };
      }
    }
  }
  return undefined;
}

/** Texts that reach each rule of the normaliser, the pre-tokeniser and WordPiece. */
const EDGE_TEXTS = [
  '',
  '   ',
  '\n\t\r\n',
  'Hello, World!',
  "don't stop — it’s “quoted” … ¿qué? «bien» $5.00 3.14 a_b a-b (x) [y] {z} @home #tag 100% ~",
  // Accents, precomposed and combining; letters NFD does not take apart.
  'Café naïve Zoë Ångström façade RÉSUMÉ e\u0301t\u00e9 n\u0303 ß ﬁne æther Øresund ł',
  // Lower-casing that changes length or needs context: dotted capital I, final sigma mid-text and before a dot.
  'İstanbul ΟΔΟΣ ΟΔΟΣ.Α ὈΔΥΣΣΕΎΣ ǅemal ﬀ',
  // CJK ideographs in each block transformers.js spaces (BMP), one it does not (astral), kana and hangul.
  '中文字符 漢字 㐀 豈 日本語のテキスト 한국어 𠀀𠀁 ﾃｽﾄ',
  // Controls, format characters, private use, a lone surrogate each way, NUL and U+FFFD.
  'a\u0000b\u0007c\u000bd\u000ce\u001ff\u007fg\u0085h\u200bi\u200dj\u200ek\ufeffl\ue000m\u{f0000}n\ud800o\udc00p\ufffdq\u{e0001}r',
  // Whitespace of every kind JavaScript knows.
  'a\u00a0b\u1680c\u2000d\u200ae\u2028f\u2029g\u202fh\u205fi\u3000j',
  // Unknown characters and words: emoji (with ZWJ and a variation selector), mathematical letters.
  '😀 👩‍👩‍👧 ❤️ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ☃ ⌘ ∑∫√',
  // Long words: exactly 100 and 101 code points, and 100 with astral characters (counted once each).
  `${'a'.repeat(100)} ${'b'.repeat(101)} ${'𝔘'.repeat(100)} ${'𝔘'.repeat(101)}`,
  'supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopicsilicovolcanoconiosis',
  'HTTPS://Example.COM/path?q=1&r=2#frag user@example.org C:\\Users\\x 192.168.0.1',
  // Added tokens inside a text (transformers.js splits them out; ours declines those texts) and near misses.
  'before [CLS] after [SEP] [MASK]ed [mask] [PAD][UNK] [ CLS ]',
  'unknown [UNK] word',
];

/** Seeded random strings over characters that reach each rule, 0–60 code points each. */
function randomTexts(count: number, seed: number): string[] {
  const pool = [
    ...'abcxyzABCXYZ019 .,;:!?\'"-_()[]{}<>#$%&*+/=@\\^`|~',
    ...'éèêëÉçñöüÅåøßæœ',
    'e\u0301',
    'a\u0308',
    '\u0301',
    '\u0327',
    ...'中文漢字日本語한국어㐀豈',
    '𠀀',
    ...'ΣσςΟΔ',
    'İ',
    '\u0000',
    '\u0007',
    '\u000b',
    '\u0085',
    '\u200b',
    '\u200d',
    '\ufeff',
    '\ue000',
    '\ud800',
    '\udc00',
    '\ufffd',
    '\u{f0000}',
    '\t',
    '\n',
    '\r',
    '\u00a0',
    '\u3000',
    '\u2028',
    '😀',
    '𝔘',
    '—',
    '…',
    '«',
    '¿',
  ];
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(random() * 61);
    let text = '';
    for (let i = 0; i < length; i++) text += pool[Math.floor(random() * pool.length)];
    return text;
  });
}

describe('WordPieceEncoder against transformers.js (the same ids)', () => {
  const glove = tokenizerFiles('aerie-glove-100d');
  const tiny = tokenizerFiles('aerie-tiny-random');

  it('gives the offline GloVe model’s ids on whole books: Genesis, Persuasion and the Debian handbook', () => {
    const both = bothOf(glove.json, glove.config);
    for (const book of ['genesis', 'persuasion', 'debian-handbook']) {
      const texts = paragraphs(book);
      expect(texts.length).toBeGreaterThanOrEqual(100);
      // Every paragraph is ours to encode (no book holds an added token), so all of them are compared.
      expect(texts.every((text) => both.ours.encode(text) !== undefined)).toBe(true);
      expect(firstDifference(both, texts, [true])).toBeUndefined();
    }
  });

  it('gives the tiny model’s ids on the Debian handbook, where most words are pieces and some unknown', () => {
    const both = bothOf(tiny.json, tiny.config);
    const texts = paragraphs('debian-handbook');
    const ids = texts.flatMap((text) => Array.from(both.ours.encode(text, false)!));
    // What the small vocabulary reaches: far more pieces than words, and unknown words (its accents).
    const words = texts.join(' ').match(/\p{L}+/gu)!.length;
    expect(ids.length).toBeGreaterThan(2 * words);
    expect(ids.filter((id) => id === both.theirs.unk_token_id).length).toBeGreaterThan(100);
    expect(firstDifference(both, texts, [false])).toBeUndefined();
  });

  it('gives the same ids on texts made for each rule, and on seeded random strings of such characters', () => {
    for (const files of [glove, tiny]) {
      const both = bothOf(files.json, files.config);
      expect(firstDifference(both, EDGE_TEXTS)).toBeUndefined();
      expect(firstDifference(both, randomTexts(1500, 20261130))).toBeUndefined();
    }
  });

  it('built on transformers.js’s own map of the pieces, gives the same ids as built from the JSON', () => {
    const theirs = new PreTrainedTokenizer(glove.json, glove.config);
    const map = theirs._tokenizer.model!.tokens_to_ids;
    const onMap = WordPieceEncoder.fromTokenizerJson(glove.json, glove.config, map)!;
    const both = { theirs, ours: onMap };
    expect(firstDifference(both, [...EDGE_TEXTS, ...paragraphs('persuasion')])).toBeUndefined();
  });

  it('declines exactly the texts that hold an added token, which transformers.js splits out first', () => {
    const { ours } = bothOf(glove.json, glove.config);
    expect(ours.encode('before [CLS] after')).toBeUndefined();
    expect(ours.encode('[MASK]')).toBeUndefined();
    expect(ours.encode('unknown [UNK] word')).toBeUndefined();
    // Added tokens match as written (not normalised): other cases and spacings are plain text.
    expect(ours.encode('[mask] [ CLS ] [cls]')).toBeDefined();
  });
});

/** Parsed JSON that a variant edits freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the variants reach into tokenizer.json's nested fields
type Editable = Record<string, any>;
/** How a variant changes tokenizer.json and tokenizer_config.json. */
type Change = (json: Editable, config: Editable) => void;

/** `base` with its files changed by `change`. */
function variant(
  base: { json: Editable; config: Editable },
  change: Change,
): { json: Editable; config: Editable } {
  const json = structuredClone(base.json);
  const config = structuredClone(base.config);
  change(json, config);
  return { json, config };
}

describe('WordPieceEncoder on the variants of the configuration', () => {
  const glove = tokenizerFiles('aerie-glove-100d');
  const texts = [...EDGE_TEXTS, ...randomTexts(400, 7), ...paragraphs('genesis').slice(0, 5)];

  it('MPNet’s shape: RobertaProcessing with <s> and </s>, and a <mask> matched after normalising', () => {
    const mpnet = variant(glove, (json, config) => {
      json.post_processor = {
        type: 'RobertaProcessing',
        sep: ['</s>', 2],
        cls: ['<s>', 0],
        trim_offsets: true,
        add_prefix_space: false,
      };
      const size = Object.keys(json.model.vocab).length;
      json.added_tokens = [
        { id: 0, content: '<s>', special: true, normalized: false },
        { id: 1, content: '<pad>', special: true, normalized: false },
        { id: 2, content: '</s>', special: true, normalized: false },
        { id: 3, content: '[UNK]', special: true, normalized: false },
        { id: size, content: '<MASK>', special: true, normalized: true, lstrip: true },
        // Not special, so matched after normalising, and its whitespace normalised too.
        { id: size + 1, content: 'New\tWord', special: false },
      ];
      Object.assign(config, {
        pad_token: '<pad>',
        cls_token: '<s>',
        sep_token: '</s>',
        mask_token: '<MASK>',
      });
    });
    const both = bothOf(mpnet.json, mpnet.config);
    expect(firstDifference(both, [...texts, 'a <s> b </s> c', 'x <mask> y', 'x <MASK> y'])).toBeUndefined();
    // <MASK> is matched after lower-casing: any case of it is left to transformers.js.
    expect(both.ours.encode('x <MaSk> y')).toBeUndefined();
    expect(both.ours.encode('a NEW WORD b')).toBeUndefined();
    expect(both.theirs.encode('a NEW WORD b')).toContain(both.theirs.convert_tokens_to_ids('New\tWord'));
    expect(both.ours.encode('hello')![0]).toBe(both.theirs.encode('hello')[0]);
  });

  it('the normaliser’s switches: accents kept, case kept, no cleaning, no CJK spacing; BertProcessing', () => {
    const changes: Change[] = [
      (json) => (json.normalizer.strip_accents = false),
      (json) => Object.assign(json.normalizer, { lowercase: false, strip_accents: true }),
      (json) => Object.assign(json.normalizer, { lowercase: false, strip_accents: null }),
      (json) => (json.normalizer.clean_text = false),
      (json) => (json.normalizer.handle_chinese_chars = false),
      (json) => (json.post_processor = { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] }),
    ];
    for (const change of changes) {
      const { json, config } = variant(glove, change);
      const both = bothOf(json, config);
      expect(firstDifference(both, texts)).toBeUndefined();
    }
  });

  it('token types: a template’s own types for its special tokens and its sequence', () => {
    const typed = variant(glove, (json) => {
      json.post_processor = {
        type: 'TemplateProcessing',
        single: [
          { SpecialToken: { id: '[CLS]', type_id: 0 } },
          { SpecialToken: { id: '[MASK]', type_id: 2 } },
          { Sequence: { id: 'A', type_id: 1 } },
          { SpecialToken: { id: '[SEP]', type_id: 3 } },
        ],
        pair: [],
        special_tokens: {},
      };
    });
    const both = bothOf(typed.json, typed.config);
    for (const text of ['A short text.', '', 'Two words']) {
      const theirs = both.theirs(text, { return_tensor: false, return_token_type_ids: true }) as unknown as {
        input_ids: number[];
        token_type_ids: number[];
      };
      const ids = both.ours.encode(text)!;
      expect(Array.from(ids)).toEqual(theirs.input_ids);
      expect(both.ours.typeIds(ids.length)).toEqual(theirs.token_type_ids);
    }
  });

  it('gives no encoder for a tokenizer it does not write (transformers.js keeps those)', () => {
    const qwen = tokenizerFiles('aerie-tiny-qwen2');
    expect(WordPieceEncoder.fromTokenizerJson(qwen.json, qwen.config)).toBeUndefined();
    const unsupported: Change[] = [
      (json) => (json.model.fuse_unk = true),
      (json) => (json.normalizer = { type: 'Sequence', normalizers: [] }),
      (json) => (json.pre_tokenizer = { type: 'Whitespace' }),
      (json) => (json.post_processor = null),
      (json) => delete json.model.continuing_subword_prefix,
      (json) => (json.model.unk_token = '<nowhere>'),
      (_, config) => (config.remove_space = true),
      (_, config) => (config.do_lowercase_and_remove_accent = true),
    ];
    for (const change of unsupported) {
      const { json, config } = variant(glove, change);
      expect(WordPieceEncoder.fromTokenizerJson(json, config)).toBeUndefined();
    }
  });
});
