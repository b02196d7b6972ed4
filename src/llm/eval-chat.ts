/** The evaluation's model call (`EvalChat`, src/core/eval) over any `ChatFn`: an endpoint or the built-in model. */
import type { EvalChat } from '../core/eval';
import { endpointChat } from './answer';
import type { ChatFn, LlmEndpoint } from './types';

/**
 * `chat` as the evaluation calls it: one request of the messages with the token limit, resolving with the
 * reply's text. The sampling temperature is the endpoint's own setting (some models accept only their default).
 */
export function toEvalChat(chat: ChatFn): EvalChat {
  return async (messages, { maxTokens, signal }) => (await chat({ messages, maxTokens }, { signal })).text;
}

/** An endpoint as the evaluation's model, one plain (not streamed) request per call. */
export function endpointEvalChat(endpoint: LlmEndpoint): EvalChat {
  return toEvalChat(endpointChat(endpoint, false));
}
