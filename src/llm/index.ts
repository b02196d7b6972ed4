/**
 * Clients for the user's LLM endpoints (OpenAI-compatible and Anthropic): summaries for the tree build,
 * cited streamed answers, optional remote embeddings. Runs in browsers, workers and Node 20.
 */
export type {
  CallOptions,
  ChatFn,
  ChatRequest,
  ChatResult,
  LlmEndpoint,
  LlmProtocol,
  RetryInfo,
  StreamOptions,
} from './types';
export { LlmError, MAX_SERVER_MESSAGE_CHARS, redactSecret, type LlmErrorCode } from './errors';
export {
  ANTHROPIC_VERSION,
  DEFAULT_TIMEOUT_MS,
  endpointLimiter,
  resolveEndpoint,
  type ResolvedEndpoint,
} from './endpoint';
export { DEFAULT_MAX_CONCURRENCY, Limiter } from '../core/limiter';
export {
  backoffDelayMs,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  retryAfterMs,
} from './retry';
export { readSseEvents, SseParser, type SseEvent } from './sse';
export {
  chat,
  listModels,
  streamChat,
  testConnection,
  type ChatCallOptions,
  type ConnectionOk,
} from './chat';
export {
  ANSWER_SYSTEM_PROMPT,
  ANSWER_USER_TEMPLATE,
  answerMessages,
  DEFAULT_ANSWER_MAX_TOKENS,
  DEFAULT_SUMMARY_MAX_TOKENS,
  numberedPassages,
} from './prompts';
/** The chat message and the paper's summary prompt live in the core, below this room and the built-in model's. */
export {
  fillTemplate,
  SUMMARY_SYSTEM_PROMPT,
  SUMMARY_USER_TEMPLATE,
  summaryContext,
  summaryMessages,
  type ChatMessage,
} from '../core/chat';
export {
  createChatSummarizer,
  createLlmSummarizer,
  type LlmSummarizer,
  type LlmSummarizerOptions,
} from './summarizer';
export {
  answerQuestion,
  answerWith,
  endpointChat,
  parseCitations,
  type AnswerOptions,
  type AnswerResult,
} from './answer';
export { answerWithBuiltin, builtinChat, createBuiltinSummarizer, type BuiltinChatOptions } from './builtin';
export {
  createOpenAiEmbedder,
  DEFAULT_EMBEDDING_BATCH_SIZE,
  type OpenAiEmbedder,
  type OpenAiEmbedderOptions,
} from './embeddings';
export { UsageAccumulator, type TokenUsage, type UsageTotals } from './usage';
export {
  historyMessages,
  HISTORY_TOKENS,
  joinFollowUp,
  JOINED_QUESTIONS,
  rewriteFollowUp,
  rewriteMessages,
  REWRITE_SYSTEM_PROMPT,
  type EarlierTurn,
} from './followup';
export { endpointEvalChat, toEvalChat } from './eval-chat';
