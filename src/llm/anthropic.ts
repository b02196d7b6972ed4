/** The Anthropic Messages format (POST /v1/messages), non-streamed and streamed. */
import { boundedFinishReason, boundedModelName, boundedTokenCount } from './limits';
import {
  asRecord,
  interrupted,
  malformed,
  modelIds,
  parseEventJson,
  streamError,
  type ProtocolAdapter,
} from './protocol';
import type { ChatResult } from './types';

function textOfBlocks(content: unknown): string {
  if (!Array.isArray(content)) malformed('the reply has no content array');
  let text = '';
  for (const block of content) {
    const b = asRecord(block);
    if (b?.type === 'text' && typeof b.text === 'string') text += b.text;
  }
  return text;
}

function tokens(record: Record<string, unknown> | undefined, field: string): number | undefined {
  return boundedTokenCount(record?.[field]);
}

/** The Anthropic Messages protocol adapter. */
export const anthropicProtocol: ProtocolAdapter = {
  chatBody(ep, request, stream) {
    const system = request.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n');
    const body: Record<string, unknown> = {
      model: ep.model,
      max_tokens: request.maxTokens,
      messages: request.messages
        .filter((m) => m.role !== 'system')
        .map(({ role, content }) => ({ role, content })),
    };
    if (system) body.system = system;
    const temperature = request.temperature ?? ep.temperature;
    if (temperature !== undefined) body.temperature = temperature;
    if (stream) body.stream = true;
    return body;
  },

  parseChat(json, ep) {
    const reply = asRecord(json) ?? malformed('the reply is not a JSON object');
    const usage = asRecord(reply.usage);
    const input = tokens(usage, 'input_tokens');
    const output = tokens(usage, 'output_tokens');
    const result: ChatResult = {
      text: textOfBlocks(reply.content),
      model: boundedModelName(reply.model, ep.model),
      usage:
        input !== undefined && output !== undefined
          ? { promptTokens: input, completionTokens: output }
          : undefined,
    };
    const stopReason = boundedFinishReason(reply.stop_reason);
    if (stopReason !== undefined) result.finishReason = stopReason;
    return result;
  },

  streamDecoder(ep) {
    let finished = false;
    let model: string | undefined;
    let input: number | undefined;
    let output: number | undefined;
    let stopReason: string | undefined;
    return {
      get finished() {
        return finished;
      },
      onEvent(event) {
        const data = parseEventJson(event.data);
        // The `type` field inside the data is authoritative; the SSE event name duplicates it.
        switch (data.type ?? event.event) {
          case 'message_start': {
            const message = asRecord(data.message);
            model = boundedModelName(message?.model, model ?? ep.model);
            const usage = asRecord(message?.usage);
            input = tokens(usage, 'input_tokens') ?? input;
            output = tokens(usage, 'output_tokens') ?? output;
            return '';
          }
          case 'content_block_delta': {
            const delta = asRecord(data.delta);
            return delta?.type === 'text_delta' && typeof delta.text === 'string' ? delta.text : '';
          }
          case 'message_delta': {
            const delta = asRecord(data.delta);
            stopReason = boundedFinishReason(delta?.stop_reason) ?? stopReason;
            // output_tokens in message_delta is cumulative.
            const usage = asRecord(data.usage);
            input = tokens(usage, 'input_tokens') ?? input;
            output = tokens(usage, 'output_tokens') ?? output;
            return '';
          }
          case 'message_stop':
            finished = true;
            return '';
          case 'error':
            return streamError(data.error);
          default:
            return ''; // ping, content_block_start/stop, and event types added later
        }
      },
      result(text) {
        if (!finished) interrupted();
        const result: ChatResult = {
          text,
          model: model ?? ep.model,
          usage:
            input !== undefined && output !== undefined
              ? { promptTokens: input, completionTokens: output }
              : undefined,
        };
        if (stopReason !== undefined) result.finishReason = stopReason;
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
