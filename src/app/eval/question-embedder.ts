/**
 * Embeds an evaluation's questions as the Ask panel embeds one: with the tree's own model in the embed worker
 * (at the precision the tree was built with), or through the embeddings endpoint for a tree built with one.
 */
import { embedWorker } from '../../client/workers';
import type { RaptorTree } from '../../core/types';
import { createOpenAiEmbedder } from '../../llm';
import { mergeUses, type DeviceUse } from '../../models/device';
import { splitRows } from '../../models/embed/rows';
import type { TreeRecord } from '../../storage';
import { toLlmEndpoint, type AppSettings } from '../settings/app-settings';
import { browserQuestionModel, endpointModelOf } from '../state/question-model';

/** A run's question embedder: `embed` gives one vector per text, in order; `ranOn` where they were embedded. */
export interface QuestionEmbedder {
  embed: (texts: string[]) => Promise<Float32Array[]>;
  /** The devices of the texts embedded so far in this browser (empty for an endpoint). */
  ranOn: () => DeviceUse[];
}

/** Embeds texts (questions) with `tree`'s model. */
export function questionEmbedder(
  tree: RaptorTree,
  record: TreeRecord | undefined,
  settings: AppSettings,
): QuestionEmbedder {
  const remote = endpointModelOf(tree.embedding.model);
  if (remote !== undefined) {
    return {
      embed: createOpenAiEmbedder(toLlmEndpoint({ ...settings.embeddingsEndpoint, model: remote })),
      ranOn: () => [],
    };
  }
  const model = browserQuestionModel(tree.embedding.model, record, settings);
  let uses: DeviceUse[] = [];
  return {
    embed: async (texts) => {
      const rows = await embedWorker().embed(texts, model);
      uses = mergeUses(uses, rows.ranOn ?? []);
      return splitRows(rows);
    },
    ranOn: () => uses,
  };
}
