/**
 * How much of a server's reply Aerie reads and keeps. A server may ignore `max_tokens`, send a body without
 * end, an error page of gigabytes or a model name of a megabyte; none of that may reach memory unbounded, and
 * nothing of it may reach IndexedDB beyond these bounds (docs/robustness.md, "Replies held to their budget").
 */

/**
 * Most bytes of a whole (non-streamed) chat reply read. A reply of 100 tokens is a few kB; a server that ignores
 * the limit and sends a novel is still read (then cut to the budget), a runaway body is refused.
 */
export const MAX_CHAT_REPLY_BYTES = 16_000_000;

/** Most bytes of an error body read (only its first `MAX_SERVER_MESSAGE_CHARS` are ever shown). */
export const MAX_ERROR_BODY_BYTES = 64_000;

/** Most bytes of a model list read (GET …/models). */
export const MAX_MODEL_LIST_BYTES = 4_000_000;

/** Most ids kept from a model list. */
export const MAX_LISTED_MODELS = 1000;

/**
 * Characters of reply text read per token of the request's limit. cl100k English averages about 4 characters a
 * token and no tokenizer packs many more, so a server that keeps its limit never reaches this; past it, the
 * reply is cut and marked (`ChatResult.overLimit`).
 */
export const MAX_REPLY_CHARS_PER_TOKEN = 8;

/** Longest model name kept from a reply; a longer one is replaced by the configured model. */
export const MAX_MODEL_NAME_CHARS = 200;

/** Longest finish reason kept from a reply. */
export const MAX_FINISH_REASON_CHARS = 64;

/** Largest token count believed from a server's usage report (a larger or odd one counts as unreported). */
export const MAX_REPORTED_TOKENS = 1_000_000_000;

/** Longest line of an event stream (one event's data) accepted. */
export const MAX_SSE_LINE_CHARS = 1_000_000;

/**
 * Largest embedding accepted from an embeddings endpoint. OpenAI's largest model has 3,072 dimensions, the
 * largest open models 4,096; a vector beyond this is a broken server, not a model.
 */
export const MAX_EMBEDDING_DIM = 16_384;

/** Bytes of an embeddings reply per number it should hold (JSON floats take ~20 characters; slack for spaces). */
export const EMBEDDING_BYTES_PER_NUMBER = 32;

/** Bytes of an embeddings reply besides its numbers (the JSON around them, usage, model name). */
const EMBEDDING_REPLY_ENVELOPE_BYTES = 64_000;

/** The largest embeddings reply `texts` inputs can have: every vector at `dimensions` (default the largest). */
export function maxEmbeddingReplyBytes(texts: number, dimensions = MAX_EMBEDDING_DIM): number {
  return texts * dimensions * EMBEDDING_BYTES_PER_NUMBER + EMBEDDING_REPLY_ENVELOPE_BYTES;
}

/** Most characters of reply text for a request limited to `maxTokens` tokens. */
export function maxReplyChars(maxTokens: number): number {
  return maxTokens * MAX_REPLY_CHARS_PER_TOKEN;
}

/** A model name from a server, or `fallback` when it is missing, not text or too long. */
export function boundedModelName(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_MODEL_NAME_CHARS
    ? value
    : fallback;
}

/** A finish reason from a server, or undefined when it is missing, not text or too long. */
export function boundedFinishReason(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_FINISH_REASON_CHARS ? value : undefined;
}

/** A token count from a server's usage report, or undefined when it is not a plausible count. */
export function boundedTokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_REPORTED_TOKENS
    ? value
    : undefined;
}
