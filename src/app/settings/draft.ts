/**
 * The Settings dialog's working copy of the settings and its validation. Number fields are kept as the
 * text the user typed, so a half-typed or invalid value can be shown with a message instead of being
 * silently replaced; `validateDraft` turns a valid draft back into `AppSettings`. Pure, tested in Node.
 */
import { DEFAULT_CONCURRENCY } from '../../core/types';
import { DEFAULT_BUILD_PARAMS } from '../../core/types';
import { SUMMARY_SYSTEM_PROMPT, SUMMARY_USER_TEMPLATE } from '../../llm';
import type { EmbeddingDevice } from '../../models/embed';
import {
  GENERATOR_PRESETS,
  TEST_GENERATOR_ID,
  TEST_GGUF_GENERATOR_ID,
} from '../../models/generate/generator-presets';
import { ggufUrl, isGgufModel } from '../../models/generate/gguf';
import { modelIdProblem, type ModelIdOptions } from '../../models/files';
import { EMBEDDING_PRESETS } from '../../models/embed/embedding-presets';
import type { EmbeddingPrecision } from '../../models/embed';
import { DEFAULT_RERANKER_ID } from '../../models/embed/reranker-presets';
import {
  DEFAULT_SETTINGS,
  isConfigured,
  type AppSettings,
  type BuildSettings,
  type BuiltinSettings,
  type EndpointSettings,
  type LlmSource,
} from './app-settings';

/** The model picker's value for a Hugging Face model that is not a preset. */
export const CUSTOM_MODEL_CHOICE = 'custom';
/** The model picker's value for the OpenAI-compatible embeddings endpoint. */
export const ENDPOINT_MODEL_CHOICE = 'endpoint';
/** Prefix of model strings served by an embeddings endpoint (see src/models/embed/embedding-presets.ts). */
export const ENDPOINT_MODEL_PREFIX = 'openai:';
/** The placeholder the user prompt must contain: where the cluster's text goes. */
export const CONTEXT_PLACEHOLDER = '{context}';
/** More LLM requests in flight than this mostly buys rate-limit errors. */
export const MAX_CONCURRENCY = 64;

/** A build parameter's key. */
export type ParamKey = keyof BuildSettings;

/** How one build parameter is edited and checked. */
export interface ParamField {
  key: ParamKey;
  /** The control's label (end-to-end tests find the input by it). */
  label: string;
  /** One sentence on what it does. */
  help: string;
  integer: boolean;
  /** Smallest allowed value (inclusive unless `exclusive`). */
  min: number;
  /** Largest allowed value (inclusive unless `exclusive`). */
  max?: number;
  /** Both bounds are exclusive (the membership threshold lies strictly between 0 and 1). */
  exclusive?: boolean;
  /** The paper's value (or the app's default for settings the paper does not have). */
  defaultValue: number;
  /** True when `defaultValue` is the paper's. */
  fromPaper: boolean;
}

/** The build parameters in the order the dialog shows them. */
export const PARAM_FIELDS: readonly ParamField[] = [
  {
    key: 'chunkTokens',
    label: 'Chunk tokens',
    help: 'Most tokens in one leaf chunk.',
    integer: true,
    min: 1,
    defaultValue: DEFAULT_BUILD_PARAMS.chunkTokens,
    fromPaper: true,
  },
  {
    key: 'reductionDim',
    label: 'Reduction dimension',
    help: 'UMAP reduces embeddings to this many dimensions before clustering.',
    integer: true,
    min: 1,
    defaultValue: DEFAULT_BUILD_PARAMS.reductionDim,
    fromPaper: true,
  },
  {
    key: 'clusterThreshold',
    label: 'Membership threshold',
    help: 'A node joins every cluster whose probability for it exceeds this.',
    integer: false,
    min: 0,
    max: 1,
    exclusive: true,
    defaultValue: DEFAULT_BUILD_PARAMS.clusterThreshold,
    fromPaper: true,
  },
  {
    key: 'maxClusterTokens',
    label: 'Max cluster tokens',
    help: 'A cluster whose texts exceed this is clustered again.',
    integer: true,
    min: 1,
    defaultValue: DEFAULT_BUILD_PARAMS.maxClusterTokens,
    fromPaper: true,
  },
  {
    key: 'maxLayers',
    label: 'Max layers',
    help: 'Most summary layers above the leaves.',
    integer: true,
    min: 1,
    defaultValue: DEFAULT_BUILD_PARAMS.maxLayers,
    fromPaper: true,
  },
  {
    key: 'summaryTokens',
    label: 'Summary tokens',
    help: 'Token budget of each summary.',
    integer: true,
    min: 1,
    defaultValue: DEFAULT_BUILD_PARAMS.summaryTokens,
    fromPaper: true,
  },
  {
    key: 'seed',
    label: 'Seed',
    help: 'Same seed, same documents and models: the same tree.',
    integer: true,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    defaultValue: DEFAULT_BUILD_PARAMS.seed,
    fromPaper: true,
  },
  {
    key: 'concurrency',
    label: 'Concurrency',
    help: 'LLM requests in flight at once (for the built-in model, at least twice the summaries it writes together).',
    integer: true,
    min: 1,
    max: MAX_CONCURRENCY,
    defaultValue: DEFAULT_CONCURRENCY,
    fromPaper: false,
  },
];

/** The settings as the dialog edits them. */
export interface SettingsDraft {
  embedding: {
    /** A preset id, CUSTOM_MODEL_CHOICE or ENDPOINT_MODEL_CHOICE. */
    choice: string;
    /** The Hugging Face model id typed for CUSTOM_MODEL_CHOICE. */
    customId: string;
    dtype: EmbeddingPrecision;
    device: EmbeddingDevice;
  };
  embeddingsEndpoint: EndpointSettings;
  /** `chosen`: the user set `useLlm` themselves; until then it follows the endpoint (see AppSettings). */
  summarizer: { useLlm: boolean; chosen: boolean; endpoint: EndpointSettings; llm: LlmSource };
  answer: { sameAsSummarizer: boolean; endpoint: EndpointSettings; llm: LlmSource };
  builtin: {
    /** A preset id, the test model's id, or CUSTOM_MODEL_CHOICE. */
    choice: string;
    /** The Hugging Face model id typed for CUSTOM_MODEL_CHOICE. */
    customId: string;
    device: BuiltinSettings['device'];
  };
  /** The reranker's model id as typed (a Hugging Face id or `local:<folder>`). */
  reranker: string;
  /** Each parameter as typed. */
  params: Record<ParamKey, string>;
  prompt: { system: string; user: string };
  theme: AppSettings['theme'];
}

/** Field key → message, for every invalid field, e.g. `{ 'params.seed': 'Enter a whole number.' }`. */
export type DraftErrors = Partial<Record<string, string>>;

/** The editable copy of saved settings. */
export function draftFromSettings(settings: AppSettings): SettingsDraft {
  const model = settings.embedding.model;
  const isPreset = EMBEDDING_PRESETS.some((p) => p.id === model);
  const choice = isPreset
    ? model
    : model.startsWith(ENDPOINT_MODEL_PREFIX)
      ? ENDPOINT_MODEL_CHOICE
      : CUSTOM_MODEL_CHOICE;
  return {
    embedding: {
      choice,
      customId: choice === CUSTOM_MODEL_CHOICE ? model : '',
      dtype: settings.embedding.dtype,
      device: settings.embedding.device,
    },
    embeddingsEndpoint: { ...settings.embeddingsEndpoint, protocol: 'openai' },
    summarizer: {
      useLlm: settings.summarizer.useLlm,
      chosen: settings.summarizer.chosen === true,
      endpoint: { ...settings.summarizer.endpoint },
      llm: settings.summarizer.llm ?? 'endpoint',
    },
    answer: {
      sameAsSummarizer: settings.answer.sameAsSummarizer,
      endpoint: { ...settings.answer.endpoint },
      llm: settings.answer.llm ?? 'endpoint',
    },
    builtin: builtinDraft(settings.builtin),
    reranker: settings.reranker.model,
    params: paramsText(settings.params),
    prompt: { ...settings.prompt },
    theme: settings.theme,
  };
}

/** The built-in models the picker lists by id: the presets and the offline test model. */
export function isListedGenerator(model: string): boolean {
  return (
    model === TEST_GENERATOR_ID ||
    model === TEST_GGUF_GENERATOR_ID ||
    GENERATOR_PRESETS.some((p) => p.id === model)
  );
}

function builtinDraft(builtin: BuiltinSettings): SettingsDraft['builtin'] {
  const listed = isListedGenerator(builtin.model);
  return {
    choice: listed ? builtin.model : CUSTOM_MODEL_CHOICE,
    customId: listed ? '' : builtin.model,
    device: builtin.device,
  };
}

/** True when the draft runs the built-in model for summaries or answers. */
export function usesBuiltin(draft: SettingsDraft): boolean {
  const summaries = draft.summarizer.llm === 'builtin';
  const answers = draft.answer.sameAsSummarizer ? summaries : draft.answer.llm === 'builtin';
  return (summaries && draft.summarizer.useLlm) || answers;
}

/**
 * The draft after the summaries' LLM changed: choosing the built-in model is choosing LLM summaries (the box
 * is ticked, as the user's own choice); going back to the endpoint leaves the box as it was.
 */
export function withSummarizerLlm(draft: SettingsDraft, llm: LlmSource): SettingsDraft {
  const summarizer =
    llm === 'builtin'
      ? { ...draft.summarizer, llm, useLlm: true, chosen: true }
      : { ...draft.summarizer, llm };
  return { ...draft, summarizer };
}

/** The paper's build parameters (and the default concurrency), as the dialog's text. */
export function defaultParamsText(): Record<ParamKey, string> {
  return paramsText({ ...DEFAULT_BUILD_PARAMS, concurrency: DEFAULT_CONCURRENCY });
}

/** The paper's summarisation prompt (Table 11). */
export function defaultPrompt(): { system: string; user: string } {
  return { system: SUMMARY_SYSTEM_PROMPT, user: SUMMARY_USER_TEMPLATE };
}

function paramsText(params: BuildSettings): Record<ParamKey, string> {
  const out = {} as Record<ParamKey, string>;
  for (const field of PARAM_FIELDS) out[field.key] = String(params[field.key]);
  return out;
}

/** The message for a parameter's text, or undefined when it is valid. */
export function paramError(field: ParamField, text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 'Enter a number.';
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return 'Enter a number.';
  if (field.integer && !Number.isInteger(value)) return 'Enter a whole number.';
  if (field.exclusive) {
    if (!(value > field.min && (field.max === undefined || value < field.max))) {
      return `Enter a number between ${field.min} and ${field.max}, both excluded.`;
    }
    return undefined;
  }
  if (value < field.min) return `Enter ${field.min} or more.`;
  if (field.max !== undefined && value > field.max) return `Enter ${field.max} or less.`;
  return undefined;
}

/** The message for an endpoint URL, or undefined when it is empty or valid. */
export function endpointUrlError(text: string): string | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full URL, such as https://api.openai.com/v1.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The URL must start with http:// or https://.';
  // Credentials in a URL end up in logs and error messages; the key field is redacted everywhere.
  if (url.username || url.password) return 'Put the key in “API key”, not in the URL.';
  return undefined;
}

/** True when nothing of the endpoint was filled in (key aside). */
function isBlank(endpoint: EndpointSettings): boolean {
  return endpoint.baseUrl.trim() === '' && endpoint.model.trim() === '';
}

/**
 * Errors of one endpoint under `prefix` (`${prefix}.baseUrl`, `${prefix}.model`). A required endpoint
 * needs a URL and a model; an optional one may be left blank, but not half filled.
 */
export function endpointErrors(
  prefix: string,
  endpoint: EndpointSettings,
  required: boolean,
  why: string,
): DraftErrors {
  const errors: DraftErrors = {};
  const urlError = endpointUrlError(endpoint.baseUrl);
  if (urlError) errors[`${prefix}.baseUrl`] = urlError;
  if (!required && isBlank(endpoint)) return errors;
  if (endpoint.baseUrl.trim() === '') errors[`${prefix}.baseUrl`] = `Enter the endpoint URL ${why}.`;
  if (endpoint.model.trim() === '') errors[`${prefix}.model`] = `Enter the model name ${why}.`;
  return errors;
}

/**
 * The message for a model id as typed (the same rules the loaders apply: model-id.ts), never quoting it: it may
 * hold a key pasted into the wrong field.
 */
function modelIdError(
  text: string,
  example = 'Xenova/bge-small-en-v1.5',
  options: ModelIdOptions = {},
): string | undefined {
  const id = text.trim();
  if (id === '') return `Enter a Hugging Face model id, such as ${example}.`;
  if (id.startsWith(ENDPOINT_MODEL_PREFIX))
    return 'For an embeddings endpoint, choose “Embeddings endpoint” above.';
  return modelIdProblem(id, options);
}

/** A GGUF id must name a file in a repository (owner/repository/file.gguf) or a file the app serves. */
function ggufIdError(text: string): string | undefined {
  const id = text.trim();
  if (!isGgufModel(id) || ggufUrl(id, '/models/')) return undefined;
  return 'A GGUF file is written owner/repository/file.gguf, e.g. Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf.';
}

function trimmedEndpoint(endpoint: EndpointSettings): EndpointSettings {
  return {
    protocol: endpoint.protocol,
    baseUrl: endpoint.baseUrl.trim(),
    apiKey: endpoint.apiKey.trim(),
    model: endpoint.model.trim(),
  };
}

/**
 * Every invalid field of the draft and its message. With `strict` false, only values that are wrong as
 * typed are reported, not required fields left empty (so ticking "Summarize with an LLM" does not
 * immediately flag the empty URL); saving validates strictly.
 */
export function draftErrors(draft: SettingsDraft, strict = true): DraftErrors {
  const errors: DraftErrors = {};
  const usesEndpointEmbeddings = draft.embedding.choice === ENDPOINT_MODEL_CHOICE;
  if (draft.embedding.choice === CUSTOM_MODEL_CHOICE) {
    const error = modelIdError(draft.embedding.customId);
    if (error && (strict || draft.embedding.customId.trim() !== '')) errors['embedding.customId'] = error;
  }
  if (draft.builtin.choice === CUSTOM_MODEL_CHOICE) {
    const id = draft.builtin.customId;
    const error = modelIdError(id, 'onnx-community/Qwen2.5-0.5B-Instruct', { gguf: true }) ?? ggufIdError(id);
    if (error && ((strict && usesBuiltin(draft)) || id.trim() !== '')) errors['builtin.customId'] = error;
  }
  // Left blank, the reranker is the default one.
  if (draft.reranker.trim() !== '') {
    const error = modelIdError(draft.reranker, DEFAULT_RERANKER_ID);
    if (error) errors.reranker = error;
  }
  const endpoint = (prefix: string, value: EndpointSettings, required: boolean, why: string) =>
    strict ? endpointErrors(prefix, value, required, why) : formatErrors(prefix, value);
  const summariesByEndpoint = draft.summarizer.useLlm && draft.summarizer.llm === 'endpoint';
  Object.assign(
    errors,
    endpoint('summarizer', draft.summarizer.endpoint, summariesByEndpoint, 'to summarize with an LLM'),
    draft.answer.sameAsSummarizer || draft.answer.llm === 'builtin'
      ? {}
      : endpoint('answer', draft.answer.endpoint, false, 'to answer with this endpoint'),
    endpoint('embeddingsEndpoint', draft.embeddingsEndpoint, usesEndpointEmbeddings, 'to embed with it'),
  );
  for (const field of PARAM_FIELDS) {
    const error = paramError(field, draft.params[field.key]);
    if (error) errors[`params.${field.key}`] = error;
  }
  if (draft.prompt.system.trim() === '') errors['prompt.system'] = 'Enter a system prompt.';
  if (!draft.prompt.user.includes(CONTEXT_PLACEHOLDER)) {
    errors['prompt.user'] =
      `The user prompt must contain ${CONTEXT_PLACEHOLDER} where the cluster’s text goes.`;
  }
  return errors;
}

function formatErrors(prefix: string, endpoint: EndpointSettings): DraftErrors {
  const error = endpointUrlError(endpoint.baseUrl);
  return error ? { [`${prefix}.baseUrl`]: error } : {};
}

/** The settings the draft describes, or the errors that keep it from being saved. */
export function validateDraft(
  draft: SettingsDraft,
): { ok: true; settings: AppSettings } | { ok: false; errors: DraftErrors } {
  const errors = draftErrors(draft);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const embeddingsEndpoint = { ...trimmedEndpoint(draft.embeddingsEndpoint), protocol: 'openai' as const };
  const { choice, customId } = draft.embedding;
  const model =
    choice === CUSTOM_MODEL_CHOICE
      ? customId.trim()
      : choice === ENDPOINT_MODEL_CHOICE
        ? `${ENDPOINT_MODEL_PREFIX}${embeddingsEndpoint.model}`
        : choice;
  const params = {} as BuildSettings;
  for (const field of PARAM_FIELDS) params[field.key] = Number(draft.params[field.key].trim());
  return {
    ok: true,
    settings: {
      embedding: { model, dtype: draft.embedding.dtype, device: draft.embedding.device },
      embeddingsEndpoint,
      summarizer: {
        useLlm: draft.summarizer.useLlm,
        endpoint: trimmedEndpoint(draft.summarizer.endpoint),
        ...(draft.summarizer.chosen ? { chosen: true } : {}),
        ...(draft.summarizer.llm === 'builtin' ? { llm: 'builtin' as const } : {}),
      },
      answer: {
        sameAsSummarizer: draft.answer.sameAsSummarizer,
        endpoint: trimmedEndpoint(draft.answer.endpoint),
        ...(draft.answer.llm === 'builtin' ? { llm: 'builtin' as const } : {}),
      },
      builtin: {
        // A custom id left blank while nothing uses the built-in model keeps the default preset.
        model:
          draft.builtin.choice !== CUSTOM_MODEL_CHOICE
            ? draft.builtin.choice
            : draft.builtin.customId.trim() || DEFAULT_SETTINGS.builtin.model,
        device: draft.builtin.device,
      },
      reranker: { model: draft.reranker.trim() || DEFAULT_SETTINGS.reranker.model },
      params,
      prompt: { ...draft.prompt },
      theme: draft.theme,
    },
  };
}

/**
 * The draft after the summarization endpoint changed: until the user ticked or unticked "Summarize with an
 * LLM" themselves, the box follows the endpoint (ticked once a URL and a model are filled in).
 */
export function withSummarizerEndpoint(draft: SettingsDraft, endpoint: EndpointSettings): SettingsDraft {
  const useLlm = draft.summarizer.chosen ? draft.summarizer.useLlm : isConfigured(endpoint);
  return { ...draft, summarizer: { ...draft.summarizer, endpoint, useLlm } };
}

/** True when the draft differs from the saved settings (closing would lose the edits). */
export function isDraftDirty(draft: SettingsDraft, settings: AppSettings): boolean {
  return JSON.stringify(draft) !== JSON.stringify(draftFromSettings(settings));
}

/** What every section of the dialog receives. */
export interface SectionProps {
  draft: SettingsDraft;
  /** Applies a change to the draft. */
  update(change: (draft: SettingsDraft) => SettingsDraft): void;
  /** The message to show for a field key, if any (once the field was edited or a save was tried). */
  errorFor(key: string): string | undefined;
  /** Prefix of control ids, unique in the page. */
  idPrefix: string;
}
