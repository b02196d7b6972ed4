/**
 * The one model call an evaluation makes, injected: questions are written, answered and judged through it.
 * The page wraps an endpoint or the built-in model with its answer cache; the CLI an endpoint.
 */
import type { AbortSignalLike } from '../abort';
import type { EvalChatMessage } from './prompts';

/** Options of one evaluation call. */
export interface EvalChatOptions {
  maxTokens: number;
  signal?: AbortSignalLike;
  /**
   * Whether a reply is usable (a generated question must hold one). A cache keeps only replies it accepts, and
   * does not serve one it stored before that it does not accept, so asking again really asks the model.
   */
  accept?: (reply: string) => boolean;
}

/** Sends messages to the evaluation's language model and resolves with the reply's text. */
export type EvalChat = (messages: EvalChatMessage[], options: EvalChatOptions) => Promise<string>;
