/**
 * Embeds an evaluation's questions as the Ask panel embeds one: with the tree's own model in the embed worker
 * (at the precision the tree was built with), or through the embeddings endpoint for a tree built with one.
 */
import { embedWorker } from '../../client/workers';
import type { RaptorTree } from '../../core/types';
import { createOpenAiEmbedder } from '../../llm';
import { splitRows } from '../../models/rows';
import type { TreeRecord } from '../../storage/schema';
import { toLlmEndpoint, type AppSettings } from '../settings/app-settings';
import { browserQuestionModel, endpointModelOf } from '../state/useAsk';

/** Embeds texts (questions) with `tree`'s model; one vector per text, in order. */
export function questionEmbedder(
  tree: RaptorTree,
  record: TreeRecord | undefined,
  settings: AppSettings,
): (texts: string[]) => Promise<Float32Array[]> {
  const remote = endpointModelOf(tree.embedding.model);
  if (remote !== undefined) {
    return createOpenAiEmbedder(toLlmEndpoint({ ...settings.embeddingsEndpoint, model: remote }));
  }
  const model = browserQuestionModel(tree.embedding.model, record, settings);
  return async (texts) => splitRows(await embedWorker().embed(texts, model));
}
