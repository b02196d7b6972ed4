/**
 * A fast encoder for BERT-style WordPiece tokenizers (tokenizer.json with a `BertNormalizer`, the
 * `BertPreTokenizer` and a `WordPiece` model: the offline GloVe model's, BERT's and MiniLM's, MPNet's), giving
 * exactly the token ids transformers.js's own tokenizer gives, in a fraction of its time.
 *
 * Why our own: a trace of the app's build (docs/build-time.md, issue #44) found the embedding workers' time
 * was mostly transformers.js's tokenizer, not the model: it normalises a text one character at a time in
 * JavaScript (a regular expression per character to find control characters, a string per character), and the
 * KJV's 12,462 leaves took 8 s to tokenise once in Node, more than the offline model takes to embed them. Here
 * the normalisation is a few whole-string operations that run in the engine (the same operations, so the same
 * text: the lower-casing and the accent stripping are the very calls transformers.js makes), and each distinct
 * word's pieces are looked up once.
 *
 * Exactness: `fromTokenizerJson` accepts only the configurations whose every step is written here and returns
 * undefined for any other, and `encode` returns undefined for a text it does not handle (one that contains an
 * added token such as `[SEP]`, which transformers.js splits out first): the caller then uses transformers.js's
 * own path. tests/models/embed/wordpiece.test.ts holds the ids to transformers.js's, id for id, on whole books
 * and on texts built to reach every rule (accents, CJK, control characters, long words, unknown words).
 *
 * The steps, as transformers.js 4 (@huggingface/tokenizers) runs them for one text without a pair:
 * 1. normalise: drop NUL, U+FFFD and control/format/private-use/surrogate code points (but tab, CR, LF), make
 *    every JavaScript whitespace character a space; put spaces around each UTF-16 unit in the CJK ideograph
 *    blocks; lower-case the whole text; then (unless `strip_accents` is false) NFD and drop nonspacing marks;
 * 2. pre-tokenise: runs of characters that are neither whitespace nor punctuation, and each punctuation
 *    character alone (Unicode P, and every ASCII symbol);
 * 3. WordPiece: a word longer than `max_input_chars_per_word` code points is the unknown token; otherwise the
 *    longest vocabulary piece from the start, then the longest "##"-prefixed piece from there, and so on; a word
 *    with no piece at some point is the unknown token, whole;
 * 4. post-process: the special tokens around the text (TemplateProcessing's single template, or BertProcessing's
 *    / RobertaProcessing's cls and sep).
 */

/** The parts of a tokenizer.json this encoder reads (the Hugging Face tokenizers format). */
interface TokenizerJson {
  normalizer?: {
    type?: string;
    clean_text?: boolean;
    handle_chinese_chars?: boolean;
    lowercase?: boolean;
    strip_accents?: boolean | null;
  } | null;
  pre_tokenizer?: { type?: string } | null;
  model?: {
    type?: string;
    vocab?: Record<string, number>;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
    fuse_unk?: boolean;
  };
  post_processor?: {
    type?: string;
    single?: Array<{
      SpecialToken?: { id: string; type_id: number };
      Sequence?: { id: string; type_id: number };
    }>;
    cls?: [string, number];
    sep?: [string, number];
  } | null;
  added_tokens?: Array<{ id: number; content: string; special?: boolean; normalized?: boolean }>;
}

/** tokenizer_config.json's switches that change how transformers.js encodes before the normaliser. */
interface TokenizerConfig {
  remove_space?: boolean;
  do_lowercase_and_remove_accent?: boolean;
}

/** transformers.js's default for `max_input_chars_per_word`. */
const DEFAULT_MAX_WORD_CHARS = 100;

/**
 * Distinct words whose pieces the encoder remembers; past this many it starts again (a book has tens of
 * thousands of distinct words; the memory is a cache, never a change of result).
 */
export const WORD_MEMORY = 200_000;

/** Code points clean_text drops: NUL, U+FFFD, and Cc/Cf/Co/Cs except tab, LF and CR. */
const CONTROL = /[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
/** The UTF-16 units of the CJK ideograph blocks that fit in one unit (the only ones transformers.js spaces). */
const CJK = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/g;
/** JavaScript's whitespace, each UTF-16 unit (clean_text turns each into a space). */
const WHITESPACE = /\s/g;
/** Nonspacing marks, which strip_accents drops after NFD. */
const NONSPACING = /\p{Mn}/gu;
/** BERT's punctuation: Unicode P, and every ASCII character that is neither a letter, a digit nor a space. */
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
/** BertPreTokenizer's words: runs of neither whitespace nor punctuation, and each punctuation character. */
const WORDS = new RegExp(`[^\\s${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');
/** Any surrogate: a word with one is cut by code points, not by UTF-16 units. */
const SURROGATE = /[\uD800-\uDFFF]/;
/** Anything outside ASCII (an ASCII text has no accents to strip: NFD leaves it as it is). */
const NON_ASCII = /[^\0-\x7F]/;

/** The BertNormalizer switches, as transformers.js reads them. */
interface NormalizerFlags {
  cleanText: boolean;
  cjk: boolean;
  lowercase: boolean;
  /** null: strip when lower-casing (BERT's default). */
  stripAccents: boolean | null;
}

/**
 * BertNormalizer's `normalize`, in whole-string steps: the same text, unit for unit (the whitespace step changes
 * no word, but an added token's normalised content may hold whitespace).
 */
function normalize(text: string, flags: NormalizerFlags): string {
  let out = text;
  if (flags.cleanText) out = out.replace(CONTROL, '').replace(WHITESPACE, ' ');
  if (flags.cjk) out = out.replace(CJK, ' $& ');
  const strip = flags.lowercase ? flags.stripAccents !== false : flags.stripAccents === true;
  if (flags.lowercase) out = out.toLowerCase();
  if (strip && NON_ASCII.test(out)) out = out.normalize('NFD').replace(NONSPACING, '');
  return out;
}

/** What an encoder is made of (see `WordPieceEncoder.fromTokenizerJson`). */
interface EncoderParts {
  flags: NormalizerFlags;
  /** The model's pieces and their ids, added tokens' contents set on them (transformers.js's `tokens_to_ids`). */
  vocab: ReadonlyMap<string, number>;
  /** Pieces whose final id is not `vocab`'s: an added token's, under its normalised content. */
  overrides: ReadonlyMap<string, number>;
  unkId: number;
  prefix: string;
  maxWordChars: number;
  /** Texts holding one of these are left to transformers.js (it splits added tokens out first). */
  rawAdded: readonly string[];
  /** The same for added tokens matched after normalisation. */
  normalizedAdded: readonly string[];
  template: Template;
}

/** The special tokens' ids and types before and after a single text, and the text's type. */
interface Template {
  before: number[];
  after: number[];
  beforeTypes: number[];
  afterTypes: number[];
  textType: number;
}

/** A BERT-style WordPiece encoder built from a tokenizer.json (see the module comment). */
export class WordPieceEncoder {
  /** Remembered pieces of each word: one id, or several. */
  private readonly words = new Map<string, number | number[]>();

  private constructor(private readonly parts: EncoderParts) {}

  /**
   * The encoder for `json` (a parsed tokenizer.json) and `config` (its tokenizer_config.json), or undefined when
   * any step is one this encoder does not write (the caller keeps transformers.js's path). `vocab`, when given,
   * is transformers.js's own map of the same tokenizer (`tokens_to_ids`, the added tokens set on it), used as
   * it is rather than built again from the JSON (45k entries: ~0.15 s of a worker's model load).
   */
  static fromTokenizerJson(
    json: unknown,
    config: TokenizerConfig = {},
    vocab?: ReadonlyMap<string, number>,
  ): WordPieceEncoder | undefined {
    const t = json as TokenizerJson | null;
    if (!t || typeof t !== 'object' || config.remove_space === true || config.do_lowercase_and_remove_accent)
      return undefined;
    const { normalizer, pre_tokenizer: pre, model, post_processor: post } = t;
    if (normalizer?.type !== 'BertNormalizer' || pre?.type !== 'BertPreTokenizer') return undefined;
    if (model?.type !== 'WordPiece' || !model.vocab || model.fuse_unk) return undefined;
    const { unk_token: unk, continuing_subword_prefix: prefix } = model;
    if (typeof unk !== 'string' || typeof prefix !== 'string') return undefined;
    const flags: NormalizerFlags = {
      cleanText: !!normalizer.clean_text,
      cjk: !!normalizer.handle_chinese_chars,
      lowercase: !!normalizer.lowercase,
      stripAccents: normalizer.strip_accents ?? null,
    };
    // The unknown token's id before the added tokens are set (transformers.js's WordPiece keeps that one).
    const unkBefore = Object.hasOwn(model.vocab, unk) ? model.vocab[unk] : undefined;
    const added = new Map<string, number>();
    const rawAdded: string[] = [];
    const normalizedAdded: string[] = [];
    for (const token of t.added_tokens ?? []) {
      added.set(token.content, token.id);
      if (token.normalized ?? !token.special) {
        const content = normalize(token.content, flags);
        added.set(content, token.id);
        normalizedAdded.push(content);
      } else rawAdded.push(token.content);
    }
    const pieces = vocab ?? vocabOf(model.vocab, t.added_tokens ?? []);
    const idOf = (token: string) => added.get(token) ?? pieces.get(token) ?? unkBefore;
    const overrides = new Map<string, number>();
    for (const [content, id] of added)
      if (pieces.has(content) && pieces.get(content) !== id) overrides.set(content, id);
    const unkId = idOf(unk);
    const template = templateOf(post, idOf);
    if (unkId === undefined || !template) return undefined;
    return new WordPieceEncoder({
      flags,
      vocab: pieces,
      overrides,
      unkId,
      prefix,
      maxWordChars: model.max_input_chars_per_word ?? DEFAULT_MAX_WORD_CHARS,
      rawAdded: rawAdded.filter((s) => s.length > 0),
      normalizedAdded: normalizedAdded.filter((s) => s.length > 0),
      template,
    });
  }

  /**
   * `text`'s token ids (with the special tokens unless `addSpecialTokens` is false), exactly as transformers.js's
   * tokenizer gives them; undefined for a text that holds an added token (left to transformers.js).
   */
  encode(text: string, addSpecialTokens = true): Int32Array | undefined {
    const { rawAdded, normalizedAdded, flags, template } = this.parts;
    for (const token of rawAdded) if (text.includes(token)) return undefined;
    const normalized = normalize(text, flags);
    for (const token of normalizedAdded) if (normalized.includes(token)) return undefined;
    const ids: number[] = addSpecialTokens ? [...template.before] : [];
    for (const word of normalized.trim().match(WORDS) ?? []) {
      const known = this.wordIds(word);
      if (typeof known === 'number') ids.push(known);
      else for (const id of known) ids.push(id);
    }
    if (addSpecialTokens) ids.push(...template.after);
    return Int32Array.from(ids);
  }

  /** How many distinct words' pieces are remembered. */
  get rememberedWords(): number {
    return this.words.size;
  }

  /** Forgets every remembered word (a build has ended, a tree was deleted: its words need not stay). */
  forget(): void {
    this.words.clear();
  }

  /** The token types of an encoding of `length` ids made with the special tokens (`encode(text)`). */
  typeIds(length: number): number[] {
    const { before, after, beforeTypes, afterTypes, textType } = this.parts.template;
    const inner = length - before.length - after.length;
    return [...beforeTypes, ...new Array<number>(inner).fill(textType), ...afterTypes];
  }

  /** A word's pieces, remembered. */
  private wordIds(word: string): number | number[] {
    let known = this.words.get(word);
    if (known === undefined) {
      known = this.pieceWord(word);
      if (this.words.size >= WORD_MEMORY) this.words.clear();
      this.words.set(word, known);
    }
    return known;
  }

  /** WordPiece's greedy longest-match-first split of one word (step 3 of the module comment). */
  private pieceWord(word: string): number | number[] {
    const { unkId, maxWordChars, prefix } = this.parts;
    const whole = this.pieceId(word);
    // Every code point counts once; a word with a surrogate pair is cut only between code points.
    const starts = SURROGATE.test(word) ? codePointStarts(word) : undefined;
    const chars = starts ? starts.length - 1 : word.length;
    if (chars > maxWordChars) return unkId;
    if (whole !== undefined) return whole;
    const at = (i: number) => (starts ? starts[i] : i);
    const out: number[] = [];
    for (let start = 0; start < chars;) {
      let end = chars;
      let id: number | undefined;
      for (; start < end; end--) {
        const piece = word.slice(at(start), at(end));
        id = this.pieceId(start > 0 ? prefix + piece : piece);
        if (id !== undefined) break;
      }
      if (id === undefined) return unkId;
      out.push(id);
      start = end;
    }
    return out.length === 1 ? out[0] : out;
  }

  /** A vocabulary piece's id as transformers.js gives it, or undefined for a string that is no piece. */
  private pieceId(piece: string): number | undefined {
    const { vocab, overrides } = this.parts;
    return overrides.size > 0 ? (overrides.get(piece) ?? vocab.get(piece)) : vocab.get(piece);
  }
}

/** transformers.js's map of pieces: the model's vocabulary, then each added token's content set on it. */
function vocabOf(
  pieces: Record<string, number>,
  addedTokens: NonNullable<TokenizerJson['added_tokens']>,
): Map<string, number> {
  const vocab = new Map<string, number>(Object.entries(pieces));
  for (const token of addedTokens) vocab.set(token.content, token.id);
  return vocab;
}

/** Where each code point of `word` starts (UTF-16 offsets), and its length last. */
function codePointStarts(word: string): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const char of word) {
    starts.push(offset);
    offset += char.length;
  }
  starts.push(offset);
  return starts;
}

/**
 * The template of the post-processors written here, or undefined for any other (or a template that names a
 * second sequence for a single text, or a special token with no id).
 */
function templateOf(
  post: TokenizerJson['post_processor'],
  idOf: (token: string) => number | undefined,
): Template | undefined {
  if (!post) return undefined;
  const template: Template = { before: [], after: [], beforeTypes: [], afterTypes: [], textType: -1 };
  let inText = false;
  const push = (token: string, type: number) => {
    const id = idOf(token);
    if (id === undefined) return false;
    (inText ? template.after : template.before).push(id);
    (inText ? template.afterTypes : template.beforeTypes).push(type);
    return true;
  };
  if (post.type === 'TemplateProcessing' && Array.isArray(post.single)) {
    for (const item of post.single) {
      if (item.SpecialToken) {
        if (!push(item.SpecialToken.id, item.SpecialToken.type_id)) return undefined;
      } else if (item.Sequence?.id === 'A' && !inText) {
        template.textType = item.Sequence.type_id;
        inText = true;
      } else return undefined;
    }
    return inText ? template : undefined;
  }
  if ((post.type === 'BertProcessing' || post.type === 'RobertaProcessing') && post.cls && post.sep) {
    if (!push(post.cls[0], 0)) return undefined;
    template.textType = 0;
    inText = true;
    return push(post.sep[0], 0) ? template : undefined;
  }
  return undefined;
}
