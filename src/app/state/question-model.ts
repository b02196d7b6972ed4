/**
 * Which model embeds a question to a tree: the tree's own browser model, or an endpoint's embeddings for a tree
 * built with an API model (and why a question cannot be embedded when that endpoint is not set).
 */
import type { RaptorTree } from '../../core/types';
import type { ModelChoice } from '../../models/embed';
import type { TreeRecord } from '../../storage';
import { isConfigured, type AppSettings } from '../settings/app-settings';

/**
 * The browser model a question to a tree built with browser model `model` is embedded with: the tree's model
 * at the precision it was built with, on the device the settings ask for.
 */
export function browserQuestionModel(
  model: string,
  record: TreeRecord | undefined,
  settings: AppSettings,
): ModelChoice {
  return {
    model,
    dtype: record?.embedding.dtype === 'fp32' ? 'fp32' : 'q8',
    device: settings.embedding.device,
  };
}

/**
 * The model a question to `tree` will be embedded with in this browser, or undefined when the tree was built
 * with an endpoint's embeddings (nothing to load here).
 */
export function questionModelOf(
  tree: RaptorTree,
  record: TreeRecord | undefined,
  settings: AppSettings,
): ModelChoice | undefined {
  const model = tree.embedding.model;
  return endpointModelOf(model) === undefined ? browserQuestionModel(model, record, settings) : undefined;
}

/** The remote embedding model name of a tree built with an API model (`openai:x` or the official `openai/x`). */
export function endpointModelOf(model: string): string | undefined {
  if (model.startsWith('openai:')) return model.slice('openai:'.length);
  if (model.startsWith('openai/')) return model.slice('openai/'.length);
  return undefined;
}

/**
 * Why questions cannot be embedded for this tree, or undefined when they can: a tree built with an API
 * embedding model needs the embeddings endpoint configured.
 */
export function queryBlocker(tree: RaptorTree | undefined, settings: AppSettings): string | undefined {
  if (!tree) return 'Build or open a tree first.';
  const model = tree.embedding.model;
  const remote = endpointModelOf(model);
  if (remote !== undefined) {
    if (isConfigured({ ...settings.embeddingsEndpoint, model: remote })) return undefined;
    return (
      `This tree was built with ${model} embeddings, which cannot run in the browser. Set an OpenAI-compatible ` +
      'embeddings endpoint in Settings, or open a node and use “Find similar” to retrieve by an existing node.'
    );
  }
  return undefined;
}
