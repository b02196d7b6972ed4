/**
 * The evaluation's language model: the app's answering model (an endpoint, or the built-in model in the
 * generate worker), behind the cache, so every question written, answer and verdict is paid for once.
 */
import type { EvalChat } from '../../core/eval';
import type { AbortSignalLike } from '../../core/abort';
import { generateWorker } from '../../client/workers';
import { builtinChat, endpointEvalChat, toEvalChat } from '../../llm';
import { connectGenerator } from '../../models/generate/generate-client';
import type { AerieDb } from '../../storage';
import { cachedEvalChat } from '../../pipeline/cached-results';
import { builtinModelName, toLlmEndpoint, type AnswerModel } from '../settings/app-settings';

/** A connected evaluation model. */
export interface EvalModel {
  chat: EvalChat;
  /** Its name as the page shows it and runs record it. */
  name: string;
  /** Replies the cache answered (`hits`) and the model did (`misses`) so far. */
  stats?: Readonly<{ hits: number; misses: number }>;
}

/** The model's name as the page shows it before it is loaded. */
export function evalModelName(model: AnswerModel): string {
  return model.kind === 'endpoint' ? model.endpoint.model.trim() : builtinModelName(model.generator.model);
}

/** An endpoint's identity for the cache: protocol, address without its query (which may hold a key) and model. */
function endpointKey(model: Extract<AnswerModel, { kind: 'endpoint' }>): string {
  const { protocol, baseUrl } = model.endpoint;
  let address = baseUrl.trim();
  try {
    const url = new URL(address);
    address = `${url.origin}${url.pathname}`;
  } catch {
    // Not a URL: the request will say so; the key only needs to be stable.
  }
  return `${protocol}:${address}:${model.endpoint.model.trim()}`;
}

/**
 * Connects the answering model (loading the built-in one, its progress through `onStatus`) behind the cache of
 * tree `treeId`.
 * @throws what loading the built-in model throws; AbortError when `signal` fires.
 */
export async function connectEvalModel(
  model: AnswerModel,
  db: AerieDb,
  treeId: string,
  options: { signal?: AbortSignalLike; onStatus?: (status: string) => void } = {},
): Promise<EvalModel> {
  if (model.kind === 'endpoint') {
    const chat = cachedEvalChat(
      db,
      endpointEvalChat(toLlmEndpoint(model.endpoint)),
      endpointKey(model),
      treeId,
    );
    return { chat, stats: chat.stats, name: evalModelName(model) };
  }
  options.onStatus?.(`Loading ${evalModelName(model)}…`);
  const generator = await connectGenerator(generateWorker(), model.generator, undefined, {
    signal: options.signal,
  });
  const chat = cachedEvalChat(db, toEvalChat(builtinChat(generator)), generator.info.tag, treeId);
  return {
    chat,
    stats: chat.stats,
    name: `${evalModelName(model)} (${generator.info.device}, ${generator.info.dtype})`,
  };
}
