/** The RAPTOR summariser on a user's LLM endpoint, with the paper's prompt. */
import { fitToTokenBudget, hasVisibleText } from '../core/text';
import type { SummarizeFn, SummarizerInfo } from '../core/types';
import { chat } from './chat';
import { resolveEndpoint } from './endpoint';
import { LlmError } from './errors';
import { SUMMARY_SYSTEM_PROMPT, SUMMARY_USER_TEMPLATE, summaryMessages } from '../core/chat';
import { checkTemplate, DEFAULT_SUMMARY_MAX_TOKENS } from './prompts';
import type { ChatFn, LlmEndpoint, RetryInfo } from './types';
import { UsageAccumulator } from './usage';

/** Options of `createLlmSummarizer`. */
export interface LlmSummarizerOptions {
  /** System prompt. Default the paper's "You are a Summarizing Text Portal". */
  systemPrompt?: string;
  /** User prompt; must contain `{context}`. Default the paper's. */
  userTemplate?: string;
  /** Token limit used when a call passes no valid `maxTokens`. Default 100. */
  defaultMaxTokens?: number;
  /** Sampling temperature; the endpoint's (or the server's default) when unset. */
  temperature?: number;
  /** Where the token usage of every summary goes. Default a new accumulator, exposed as `.usage`. */
  usage?: UsageAccumulator;
  /** Called before each retry sleep. */
  onRetry?: (info: RetryInfo) => void;
  /** Remove `<think>…</think>` blocks that reasoning models (DeepSeek-R1, Qwen3) put in the reply. Default true. */
  stripReasoning?: boolean;
}

/** A summariser that also exposes its token usage and what to record in the tree. */
export type LlmSummarizer = SummarizeFn & {
  /** Tokens used by every summary made so far. */
  readonly usage: UsageAccumulator;
  /** `{ kind: 'llm', model }` for `RaptorTree.summarizer`. */
  readonly info: SummarizerInfo;
  /** Whether `summary`, returned by this summariser, is the cut of a reply longer than its budget. */
  isCut(summary: string): boolean;
};

const THINK_BLOCK = /<think>[\s\S]*?(?:<\/think>|$)/gi;

/**
 * Makes a `SummarizeFn` that asks `chat` with the paper's prompt (system "You are a Summarizing Text Portal",
 * user "Write a summary of the following, including as many key details as possible: {context}:") with the
 * cluster's texts joined like the reference's `get_text`, and a reply limit of the call's `maxTokens` (the
 * model's tokens). The one summarising path of every backend: endpoints and the built-in model.
 * A failed request or a blank reply throws; unlike the reference implementation, error text never becomes a
 * summary. A reply longer than the budget in cl100k tokens (the tree's tokenizer; a model that ignores its
 * limit, or counts with another tokenizer) is cut at the last sentence end within it (`fitToTokenBudget`) and
 * reported by `isCut`.
 * @param info what the tree records as the writer of its summaries.
 * @throws LlmError INVALID_CONFIG at once when the template is unusable.
 */
export function createChatSummarizer(
  chat: ChatFn,
  info: SummarizerInfo,
  options: LlmSummarizerOptions = {},
): LlmSummarizer {
  const systemPrompt = options.systemPrompt ?? SUMMARY_SYSTEM_PROMPT;
  const userTemplate = options.userTemplate ?? SUMMARY_USER_TEMPLATE;
  checkTemplate(userTemplate, ['context']);
  const usage = options.usage ?? new UsageAccumulator();
  const fallbackTokens = options.defaultMaxTokens ?? DEFAULT_SUMMARY_MAX_TOKENS;
  const strip = options.stripReasoning ?? true;
  const model = info.model ?? 'the model';
  const cutSummaries = new Set<string>();

  const summarize: SummarizeFn = async (texts, { maxTokens, signal }) => {
    if (texts.length === 0)
      throw new LlmError('INVALID_CONFIG', 'There is nothing to summarise (no texts).', {});
    const limit = Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : fallbackTokens;
    const result = await chat(
      {
        messages: summaryMessages(texts, systemPrompt, userTemplate),
        maxTokens: limit,
        temperature: options.temperature,
      },
      { signal, usage, onRetry: options.onRetry },
    );
    const reply = (strip ? result.text.replace(THINK_BLOCK, '') : result.text).trim();
    if (!hasVisibleText(reply)) {
      throw new LlmError(
        'EMPTY_RESPONSE',
        `Model "${model}" replied only with its reasoning, or nothing, instead of a summary. Raise the summary ` +
          'token limit or choose a model that does not think aloud.',
        { model, finishReason: result.finishReason },
        true,
      );
    }
    const fitted = fitToTokenBudget(reply, limit);
    const summary = fitted.text.trim();
    if (!hasVisibleText(summary)) {
      throw new LlmError(
        'EMPTY_RESPONSE',
        `Model "${model}" wrote a summary whose first word alone is longer than the ${limit}-token budget.`,
        { model, limit },
        true,
      );
    }
    if (fitted.cut) cutSummaries.add(summary);
    return summary;
  };
  const isCut = (summary: string) => cutSummaries.has(summary);
  return Object.assign(summarize, { usage, info: { ...info }, isCut });
}

/**
 * Makes a `SummarizeFn` on a user's LLM endpoint (`createChatSummarizer` over `chat`), recorded in the tree as
 * `{ kind: 'llm', model: <the endpoint's model> }`.
 * @throws LlmError INVALID_CONFIG at once when the endpoint or the template is unusable.
 */
export function createLlmSummarizer(
  endpoint: LlmEndpoint,
  options: LlmSummarizerOptions = {},
): LlmSummarizer {
  const ep = resolveEndpoint(endpoint);
  return createChatSummarizer(
    (request, callOptions) => chat(endpoint, request, callOptions),
    {
      kind: 'llm',
      model: ep.model,
    },
    options,
  );
}
