/**
 * The OpenAI chat-completions format, as spoken by OpenAI, Ollama (/v1), LM Studio, llama.cpp server, vLLM
 * and OpenRouter.
 */
import { boundedFinishReason, boundedModelName } from './limits';
import {
  asRecord,
  interrupted,
  malformed,
  modelIds,
  parseEventJson,
  streamError,
  usageFrom,
  type ProtocolAdapter,
} from './protocol';
import type { ChatResult } from './types';
import type { TokenUsage } from './usage';

/** `[DONE]` ends an OpenAI stream. */
const DONE = '[DONE]';

/** Message content as a string: servers send a string, null (no text) or an array of typed parts. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (content === null) return '';
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        const p = asRecord(part);
        return typeof p?.text === 'string' ? p.text : '';
      })
      .join('');
  }
  return undefined;
}

/** The OpenAI-compatible protocol adapter. */
export const openaiProtocol: ProtocolAdapter = {
  chatBody(ep, request, stream) {
    const body: Record<string, unknown> = {
      model: ep.model,
      messages: request.messages.map(({ role, content }) => ({ role, content })),
      [ep.maxTokensField]: request.maxTokens,
    };
    const temperature = request.temperature ?? ep.temperature;
    if (temperature !== undefined) body.temperature = temperature;
    if (stream) {
      body.stream = true;
      // Without it OpenAI-compatible servers send no usage in streams.
      body.stream_options = { include_usage: true };
    }
    return body;
  },

  parseChat(json, ep) {
    const reply = asRecord(json) ?? malformed('the reply is not a JSON object');
    if (!Array.isArray(reply.choices) || reply.choices.length === 0) malformed('the reply has no choices');
    const choice = asRecord(reply.choices[0]);
    const message = asRecord(choice?.message) ?? malformed('the reply has no choices[0].message');
    const text = contentText(message.content) ?? malformed('choices[0].message.content is not text');
    const result: ChatResult = {
      text,
      model: boundedModelName(reply.model, ep.model),
      usage: usageFrom(asRecord(reply.usage), 'prompt_tokens', 'completion_tokens'),
    };
    const finishReason = boundedFinishReason(choice?.finish_reason);
    if (finishReason !== undefined) result.finishReason = finishReason;
    return result;
  },

  streamDecoder(ep) {
    let finished = false;
    let finishReason: string | undefined;
    let model: string | undefined;
    let usage: TokenUsage | undefined;
    return {
      get finished() {
        return finished;
      },
      onEvent(event) {
        if (event.data.trim() === DONE) {
          finished = true;
          return '';
        }
        const chunk = parseEventJson(event.data);
        if (chunk.error !== undefined) streamError(chunk.error);
        model = boundedModelName(chunk.model, model ?? ep.model);
        usage = usageFrom(asRecord(chunk.usage), 'prompt_tokens', 'completion_tokens') ?? usage;
        const choice = Array.isArray(chunk.choices) ? asRecord(chunk.choices[0]) : undefined;
        finishReason = boundedFinishReason(choice?.finish_reason) ?? finishReason;
        const content = asRecord(choice?.delta)?.content;
        return typeof content === 'string' ? content : '';
      },
      result(text) {
        // A server that closes after the finish reason but before [DONE] has still sent the whole reply.
        if (!finished && finishReason === undefined) interrupted();
        const result: ChatResult = { text, model: model ?? ep.model, usage };
        if (finishReason !== undefined) result.finishReason = finishReason;
        return result;
      },
    };
  },

  parseModels(json) {
    const data = asRecord(json)?.data;
    if (!Array.isArray(data)) malformed('the model list has no data array');
    return modelIds(data);
  },
};
