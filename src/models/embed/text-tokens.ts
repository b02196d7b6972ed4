/**
 * The token ids of the texts an embedder is given, made once per text: by our own WordPiece encoder
 * (wordpiece.ts) when the model's tokenizer is one it writes, else by transformers.js's tokenizer. The build
 * asks for each text's length (its order), then its batch (the same ids, padded into the model's inputs): the
 * ids are remembered between the two, so a leaf is tokenised once per worker, not three times.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { WordPieceEncoder } from './wordpiece';
import { batchInputs, type ModelInputs } from './model-inputs';

/**
 * Texts whose ids (or, on transformers.js's path, counts) are remembered (a book's leaves: the KJV has
 * ~12,000); past this many the memory starts again, so a long-lived worker does not keep every text it saw.
 */
export const TOKEN_MEMORY = 20_000;

/** How much a tokenizer remembers: texts (their ids or counts) and distinct words (their pieces). */
export interface TextMemory {
  texts: number;
  words: number;
}

/** A text's tokens as remembered: its ids (our encoder), or only their count (transformers.js's path). */
type Remembered = Int32Array | number;

/** The tokens of texts for one loaded tokenizer. */
export class TextTokens {
  private readonly remembered = new Map<string, Remembered>();
  /** Our encoder for this tokenizer, or undefined when it is not one wordpiece.ts writes. */
  readonly encoder: WordPieceEncoder | undefined;

  constructor(private readonly tokenizer: PreTrainedTokenizer) {
    // transformers.js's own map of the pieces (already built as it loaded the tokenizer) serves ours too.
    const vocab = tokenizer._tokenizer?.model?.tokens_to_ids;
    this.encoder = WordPieceEncoder.fromTokenizerJson(tokenizer._tokenizerJSON, tokenizer.config, vocab);
  }

  /** A text's length in the model's tokens, special tokens included. */
  count(text: string): number {
    const known = this.remember(text);
    return typeof known === 'number' ? known : known.length;
  }

  /** A text's length without the special tokens (a sentence inside a text: not remembered). */
  countWithin(text: string): number {
    const ids = this.encoder?.encode(text, false);
    return ids ? ids.length : this.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  /**
   * The model's inputs for a batch of texts, from the remembered ids, as transformers.js's tokenizer call would
   * make them; undefined when any text is left to transformers.js (the caller then runs its own pipeline).
   */
  inputs(texts: readonly string[]): ModelInputs | undefined {
    const encoder = this.encoder;
    if (!encoder) return undefined;
    const encoded = [];
    for (const text of texts) {
      const ids = this.remember(text);
      if (typeof ids === 'number') return undefined;
      encoded.push({ ids, typeIds: encoder.typeIds(ids.length) });
    }
    return batchInputs(encoded, this.tokenizer);
  }

  /** How many texts and distinct words this tokenizer remembers (a cache: see `forget`). */
  memory(): TextMemory {
    return { texts: this.remembered.size, words: this.encoder?.rememberedWords ?? 0 };
  }

  /**
   * Forgets every remembered text and word. The memory is a cache (the ids are the same made again), but it
   * holds document text: a build that ended or a deleted tree should not leave its passages in a worker.
   */
  forget(): void {
    this.remembered.clear();
    this.encoder?.forget();
  }

  /** The text's ids (or count), made now unless remembered. */
  private remember(text: string): Remembered {
    let known = this.remembered.get(text);
    if (known === undefined) {
      known = this.encoder?.encode(text) ?? this.tokenizer.encode(text).length;
      if (this.remembered.size >= TOKEN_MEMORY) this.remembered.clear();
      this.remembered.set(text, known);
    }
    return known;
  }
}
