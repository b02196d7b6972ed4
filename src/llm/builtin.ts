/**
 * The built-in model (a language model running in this browser) behind the same summarising and answering
 * paths as the endpoints: the paper's summarisation prompt, the cited-answer prompt, [n] citations, streamed
 * text and token usage. Only types come from src/models, so the page can use this without transformers.js; the
 * model itself runs in the generate worker (src/models/generate/generate-service.ts) or, in Node, in-process.
 */
import type { ChatGenerator, GeneratedReply } from '../models/generate';
import type { AnswerOptions, AnswerResult } from './answer';
import { answerWith } from './answer';
import { createChatSummarizer, type LlmSummarizer, type LlmSummarizerOptions } from './summarizer';
import type { ChatFn } from './types';

/** Options of `builtinChat`. */
export interface BuiltinChatOptions {
  /** Sees every finished reply (e.g. a SpeedMeter showing tokens/s during a build). */
  onReply?: (reply: GeneratedReply) => void;
  /** Requests are a build's summaries, which the model may write together (`ChatGenerator.generate`). */
  batch?: boolean;
}

/**
 * The built-in model as a `ChatFn`: the request's messages through the model's chat template, `maxTokens` as
 * its limit of new tokens, the text streamed to `onDelta`, the model's own token counts as usage.
 */
export function builtinChat(generator: ChatGenerator, chatOptions: BuiltinChatOptions = {}): ChatFn {
  return async (request, options) => {
    const reply = await generator.generate(request.messages, {
      maxNewTokens: request.maxTokens,
      temperature: request.temperature,
      signal: options.signal,
      onText: options.onDelta,
      ...(chatOptions.batch ? { batch: true } : {}),
    });
    const usage = { promptTokens: reply.promptTokens, completionTokens: reply.completionTokens };
    options.usage?.add(usage);
    chatOptions.onReply?.(reply);
    return { text: reply.text, model: generator.info.model, finishReason: reply.finishReason, usage };
  };
}

/**
 * A `SummarizeFn` on the built-in model with the paper's prompt (`createChatSummarizer`); the tree records
 * `{ kind: 'llm', model: generator.info.tag }` (e.g. `builtin:onnx-community/Qwen2.5-0.5B-Instruct@q8`).
 * Its requests are batchable: the model writes as many summaries together as it batches.
 */
export function createBuiltinSummarizer(
  generator: ChatGenerator,
  options: LlmSummarizerOptions & Omit<BuiltinChatOptions, 'batch'> = {},
): LlmSummarizer {
  return createChatSummarizer(
    builtinChat(generator, { ...options, batch: true }),
    { kind: 'llm', model: generator.info.tag },
    options,
  );
}

/** Answers from the passages with [n] citations on the built-in model, exactly as `answerQuestion` does. */
export function answerWithBuiltin(
  generator: ChatGenerator,
  options: AnswerOptions & BuiltinChatOptions,
): Promise<AnswerResult> {
  return answerWith(builtinChat(generator, options), options);
}
