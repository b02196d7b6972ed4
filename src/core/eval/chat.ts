/**
 * The one model call an evaluation makes, injected: questions are written, answered and judged through it.
 * The page wraps an endpoint or the built-in model with its answer cache; the CLI an endpoint.
 */
import type { AbortSignalLike } from '../abort';
import type { EvalChatMessage } from './prompts';

/** Sends messages to the evaluation's language model and resolves with the reply's text. */
export type EvalChat = (
  messages: EvalChatMessage[],
  options: { maxTokens: number; signal?: AbortSignalLike },
) => Promise<string>;
