/**
 * The user's settings: models, endpoints, build parameters, the summarisation prompt and the theme. Stored in
 * IndexedDB (settings store, key `appSettings`); API keys never leave this browser except to their endpoint.
 */
import { DEFAULT_BUILD_PARAMS, DEFAULT_CONCURRENCY, type BuildParams } from '../../core/types';
import { SUMMARY_SYSTEM_PROMPT, SUMMARY_USER_TEMPLATE, type LlmEndpoint } from '../../llm';
import { DEFAULT_MODEL_ID } from '../../models/embed/embedding-presets';
import type { EmbeddingPrecision } from '../../models/embed';
import type { EmbeddingDevice } from '../../models/embed';
import {
  CPU_PRESET_ID,
  presetOf,
  TEST_GENERATOR_ID,
  TEST_GGUF_GENERATOR_ID,
} from '../../models/generate/generator-presets';
import type { GenerationDevice } from '../../models/generate';
import type { BuiltinModelChoice } from '../../protocol/build';
import { DEFAULT_RERANKER_ID } from '../../models/embed/reranker-presets';

/** One endpoint as the user types it. Empty `baseUrl` or `model` means "not configured". */
export interface EndpointSettings {
  protocol: 'openai' | 'anthropic';
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio). */
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** Which LLM a task uses: the user's endpoint, or the built-in model (runs in this browser). */
export type LlmSource = 'endpoint' | 'builtin';

/** The built-in model (a language model that runs in this browser) as the user chose it. */
export interface BuiltinSettings {
  /** A preset id, the offline test model (`local:aerie-tiny-qwen2`) or any Hugging Face id. */
  model: string;
  /** `auto`: WebGPU when the browser has an adapter (and the model is not a CPU preset), else WASM. */
  device: Exclude<GenerationDevice, 'cpu'> | 'auto';
}

/** Build parameters the user can change (the paper's defaults, plus LLM concurrency). */
export type BuildSettings = BuildParams & { concurrency: number };

/** Everything in the Settings dialog. */
export interface AppSettings {
  /** `dtype` 'auto': 8-bit weights on the CPU, full precision on WebGPU (embedding-presets.ts, AUTO_DTYPE). */
  embedding: { model: string; dtype: EmbeddingPrecision; device: EmbeddingDevice };
  /** Optional OpenAI-compatible /v1/embeddings endpoint (used when `embedding.model` starts with `openai:`). */
  embeddingsEndpoint: EndpointSettings;
  /**
   * Summaries: the user's LLM when `useLlm` and configured, else the built-in extractive summariser. Until the
   * user ticks or unticks "Summarize with an LLM" themselves (`chosen`), `useLlm` follows the endpoint: on as
   * soon as one is filled in, because someone who types an endpoint expects it to write the summaries.
   */
  summarizer: { useLlm: boolean; endpoint: EndpointSettings; chosen?: boolean; llm?: LlmSource };
  /**
   * Answers: the user's LLM (`sameAsSummarizer` reuses the summaries' LLM: its endpoint, or the built-in
   * model). Without one, Aerie shows the context.
   */
  answer: { sameAsSummarizer: boolean; endpoint: EndpointSettings; llm?: LlmSource };
  /** The built-in model, used where `llm` is `builtin`. */
  builtin: BuiltinSettings;
  /** The cross-encoder that reorders candidates when the Ask panel's "Rerank" is on (src/models/embed/reranker.ts). */
  reranker: { model: string };
  params: BuildSettings;
  prompt: { system: string; user: string };
  theme: 'system' | 'light' | 'dark';
}

/** An endpoint nobody configured yet. */
export const EMPTY_ENDPOINT: EndpointSettings = Object.freeze({
  protocol: 'openai',
  baseUrl: '',
  apiKey: '',
  model: '',
}) as EndpointSettings;

/** The paper's defaults; no LLM configured. */
export const DEFAULT_SETTINGS: AppSettings = Object.freeze({
  embedding: { model: DEFAULT_MODEL_ID, dtype: 'auto', device: 'auto' },
  embeddingsEndpoint: { ...EMPTY_ENDPOINT },
  summarizer: { useLlm: false, endpoint: { ...EMPTY_ENDPOINT } },
  answer: { sameAsSummarizer: true, endpoint: { ...EMPTY_ENDPOINT } },
  builtin: { model: CPU_PRESET_ID, device: 'auto' },
  reranker: { model: DEFAULT_RERANKER_ID },
  params: { ...DEFAULT_BUILD_PARAMS, concurrency: DEFAULT_CONCURRENCY },
  prompt: { system: SUMMARY_SYSTEM_PROMPT, user: SUMMARY_USER_TEMPLATE },
  theme: 'system',
}) as AppSettings;

/** True when the endpoint has what a request needs (a key is optional: local servers need none). */
export function isConfigured(endpoint: EndpointSettings): boolean {
  return endpoint.baseUrl.trim() !== '' && endpoint.model.trim() !== '';
}

/** The LLM client's endpoint for these settings (key omitted when empty). */
export function toLlmEndpoint(endpoint: EndpointSettings): LlmEndpoint {
  const out: LlmEndpoint = {
    protocol: endpoint.protocol,
    baseUrl: endpoint.baseUrl.trim(),
    model: endpoint.model.trim(),
  };
  if (endpoint.apiKey.trim()) out.apiKey = endpoint.apiKey.trim();
  return out;
}

/** The LLM the summaries use when they use one (`summarizer.llm`, the endpoint by default). */
export function summarizerSource(settings: AppSettings): LlmSource {
  return settings.summarizer.llm ?? 'endpoint';
}

/** The built-in model's choice for the generate service. */
export function builtinChoiceOf(settings: AppSettings): BuiltinModelChoice {
  return { model: settings.builtin.model, device: settings.builtin.device };
}

/** What writes answers: an endpoint, the built-in model, or nothing (Aerie then shows the passages). */
export type AnswerModel =
  { kind: 'endpoint'; endpoint: EndpointSettings } | { kind: 'builtin'; generator: BuiltinModelChoice };

/** The LLM that writes answers, or undefined when none is set. */
export function answerModelOf(settings: AppSettings): AnswerModel | undefined {
  const same = settings.answer.sameAsSummarizer;
  const source = same ? summarizerSource(settings) : (settings.answer.llm ?? 'endpoint');
  if (source === 'builtin') return { kind: 'builtin', generator: builtinChoiceOf(settings) };
  const endpoint = same ? settings.summarizer.endpoint : settings.answer.endpoint;
  return isConfigured(endpoint) ? { kind: 'endpoint', endpoint } : undefined;
}

/** A readable name for a built-in model id: the preset's label, the test model's, or the id itself. */
export function builtinModelName(model: string): string {
  if (model === TEST_GENERATOR_ID) return 'Aerie tiny test model';
  if (model === TEST_GGUF_GENERATOR_ID) return 'Aerie tiny test model (GGUF)';
  return presetOf(model)?.label ?? model;
}

/** Every configured endpoint (the storage module takes API keys from these when a build resumes). */
export function configuredEndpoints(settings: AppSettings): LlmEndpoint[] {
  return [settings.summarizer.endpoint, settings.answer.endpoint, settings.embeddingsEndpoint]
    .filter(isConfigured)
    .map(toLlmEndpoint);
}

/** Fills fields missing from stored settings (older versions) with defaults. */
export function withDefaults(stored: Partial<AppSettings> | undefined): AppSettings {
  const s = stored ?? {};
  return {
    embedding: { ...DEFAULT_SETTINGS.embedding, ...s.embedding },
    embeddingsEndpoint: { ...EMPTY_ENDPOINT, ...s.embeddingsEndpoint },
    summarizer: summarizerWithDefaults(s.summarizer),
    answer: {
      sameAsSummarizer: s.answer?.sameAsSummarizer ?? true,
      endpoint: { ...EMPTY_ENDPOINT, ...s.answer?.endpoint },
      ...(s.answer?.llm ? { llm: s.answer.llm } : {}),
    },
    builtin: { ...DEFAULT_SETTINGS.builtin, ...s.builtin },
    reranker: { ...DEFAULT_SETTINGS.reranker, ...s.reranker },
    params: { ...DEFAULT_SETTINGS.params, ...s.params },
    prompt: { ...DEFAULT_SETTINGS.prompt, ...s.prompt },
    theme: s.theme ?? 'system',
  };
}

/**
 * The summariser settings with `useLlm` resolved: the user's own choice when they made one, else on exactly
 * when an endpoint is filled in. (Settings saved before `chosen` existed never record a choice: an endpoint
 * saved with the box left unticked — the old default — now summarises with that endpoint, as its user expected.)
 */
export function summarizerWithDefaults(stored: Partial<AppSettings['summarizer']> | undefined) {
  const endpoint: EndpointSettings = { ...EMPTY_ENDPOINT, ...stored?.endpoint };
  const out: AppSettings['summarizer'] = {
    useLlm: stored?.chosen ? stored.useLlm === true : isConfigured(endpoint),
    endpoint,
  };
  if (stored?.chosen) out.chosen = true;
  if (stored?.llm) out.llm = stored.llm;
  return out;
}

/** What writes the summaries with these settings, as the line under "Build tree" says it. */
export function summarizerLine(settings: AppSettings): string {
  const { useLlm, endpoint } = settings.summarizer;
  if (useLlm && summarizerSource(settings) === 'builtin') {
    return (
      `Summaries by the built-in model ${builtinModelName(settings.builtin.model)}, in this browser ` +
      '(Aerie measures this device and shows the expected time when the build starts).'
    );
  }
  if (useLlm && isConfigured(endpoint)) return `Summaries by the LLM ${endpoint.model.trim()}.`;
  if (isConfigured(endpoint))
    return 'Summaries: built-in extractive summarizer (LLM summaries are turned off in Settings).';
  return 'Summaries: built-in extractive summarizer (set an LLM in Settings for written summaries).';
}

declare module '../../storage/schema' {
  interface SettingsMap {
    /** Everything in the Settings dialog (API keys included: they stay in this browser). */
    appSettings: AppSettings;
  }
}
