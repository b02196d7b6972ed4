/** Turns the user's settings and documents into the build request the worker runs. */
import type { BuildDocument } from '../../core/build';
import type { IngestedDocument } from '../../ingest';
import type { BuildRequest, EmbeddingChoice, SummarizerChoice } from '../../protocol/build';
import {
  builtinChoiceOf,
  isConfigured,
  summarizerSource,
  toLlmEndpoint,
  type AppSettings,
} from '../settings/app-settings';

/** The embedding choice of the settings (`openai:<model>` means the configured /v1/embeddings endpoint). */
export function embeddingChoiceOf(settings: AppSettings): EmbeddingChoice {
  const { model, dtype, device } = settings.embedding;
  if (model.startsWith('openai:')) {
    return {
      kind: 'endpoint',
      endpoint: toLlmEndpoint({ ...settings.embeddingsEndpoint, model: model.slice('openai:'.length) }),
    };
  }
  return { kind: 'browser', model, dtype, device };
}

/**
 * The summariser of the settings: the built-in model or the user's endpoint when LLM summaries are on (and
 * the endpoint configured), else extractive.
 */
export function summarizerChoiceOf(settings: AppSettings): SummarizerChoice {
  const { useLlm, endpoint } = settings.summarizer;
  if (useLlm && summarizerSource(settings) === 'builtin') {
    return {
      kind: 'builtin',
      generator: builtinChoiceOf(settings),
      systemPrompt: settings.prompt.system,
      userTemplate: settings.prompt.user,
    };
  }
  if (!useLlm || !isConfigured(endpoint)) return { kind: 'extractive' };
  return {
    kind: 'llm',
    endpoint: toLlmEndpoint(endpoint),
    systemPrompt: settings.prompt.system,
    userTemplate: settings.prompt.user,
  };
}

/** Build documents with ids unique within the tree (`d1`, `d2`, …), page starts kept. */
export function toBuildDocuments(documents: readonly IngestedDocument[]): BuildDocument[] {
  return documents.map((d, i) => ({
    id: `d${i + 1}`,
    name: d.name,
    text: d.text,
    ...(d.pageStarts ? { pageStarts: d.pageStarts.slice() } : {}),
  }));
}

/** A title from the documents: the first one's name without extension, "+ n more" for several. */
export function titleFor(documents: readonly { name: string }[]): string {
  if (documents.length === 0) return 'Untitled tree';
  const first = documents[0].name.replace(/\.[a-z0-9]+$/i, '') || documents[0].name;
  return documents.length === 1 ? first : `${first} + ${documents.length - 1} more`;
}

/** The complete request. */
export function buildRequestOf(
  treeId: string,
  title: string,
  documents: readonly IngestedDocument[],
  settings: AppSettings,
  embedding: EmbeddingChoice = embeddingChoiceOf(settings),
): BuildRequest {
  return {
    buildId: treeId,
    title,
    documents: toBuildDocuments(documents),
    params: { ...settings.params },
    embedding,
    summarizer: summarizerChoiceOf(settings),
  };
}
