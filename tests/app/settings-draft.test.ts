import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  summarizerLine,
  withDefaults,
  type AppSettings,
} from '../../src/app/settings/app-settings';
import {
  CUSTOM_MODEL_CHOICE,
  defaultParamsText,
  draftErrors,
  draftFromSettings,
  ENDPOINT_MODEL_CHOICE,
  endpointUrlError,
  isDraftDirty,
  PARAM_FIELDS,
  paramError,
  validateDraft,
  withSummarizerEndpoint,
  type SettingsDraft,
} from '../../src/app/settings/draft';
import { DEFAULT_BUILD_PARAMS } from '../../src/core/types';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';

const field = (key: string) => {
  const found = PARAM_FIELDS.find((f) => f.key === key);
  if (!found) throw new Error(key);
  return found;
};

function saved(draft: SettingsDraft): AppSettings {
  const result = validateDraft(draft);
  if (!result.ok) throw new Error(`invalid draft: ${JSON.stringify(result.errors)}`);
  return result.settings;
}

const LOCAL_LLM = {
  protocol: 'openai' as const,
  baseUrl: 'http://localhost:11434/v1',
  apiKey: '',
  model: 'llama3.2',
};

describe('settings draft', () => {
  it('round-trips the default settings unchanged', () => {
    expect(saved(draftFromSettings(DEFAULT_SETTINGS))).toEqual(DEFAULT_SETTINGS);
  });

  it('round-trips configured endpoints, a custom model and changed parameters', () => {
    const settings: AppSettings = {
      ...DEFAULT_SETTINGS,
      embedding: { model: 'Xenova/bge-small-en-v1.5', dtype: 'fp32', device: 'wasm' },
      summarizer: { useLlm: true, endpoint: { ...LOCAL_LLM } },
      answer: {
        sameAsSummarizer: false,
        endpoint: {
          protocol: 'anthropic',
          baseUrl: 'https://api.anthropic.com',
          apiKey: 'sk-ant-x',
          model: 'claude',
        },
      },
      params: { ...DEFAULT_SETTINGS.params, chunkTokens: 200, clusterThreshold: 0.25, seed: 7 },
      theme: 'dark',
    };
    const draft = draftFromSettings(settings);
    expect(draft.embedding.choice).toBe(CUSTOM_MODEL_CHOICE);
    expect(draft.embedding.customId).toBe('Xenova/bge-small-en-v1.5');
    expect(draft.params.clusterThreshold).toBe('0.25');
    expect(saved(draft)).toEqual(settings);
  });

  it('maps preset and endpoint models to their choices', () => {
    const offline = draftFromSettings({
      ...DEFAULT_SETTINGS,
      embedding: { ...DEFAULT_SETTINGS.embedding, model: OFFLINE_MODEL_ID },
    });
    expect(offline.embedding.choice).toBe(OFFLINE_MODEL_ID);
    const endpoint = draftFromSettings({
      ...DEFAULT_SETTINGS,
      embedding: { ...DEFAULT_SETTINGS.embedding, model: 'openai:text-embedding-3-small' },
      embeddingsEndpoint: {
        protocol: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        apiKey: 'k',
        model: 'text-embedding-3-small',
      },
    });
    expect(endpoint.embedding.choice).toBe(ENDPOINT_MODEL_CHOICE);
    expect(saved(endpoint).embedding.model).toBe('openai:text-embedding-3-small');
  });

  it('names the endpoint model from the embeddings endpoint’s model field', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.embedding.choice = ENDPOINT_MODEL_CHOICE;
    draft.embeddingsEndpoint = { ...LOCAL_LLM, protocol: 'anthropic', model: ' nomic-embed-text ' };
    const settings = saved(draft);
    expect(settings.embedding.model).toBe('openai:nomic-embed-text');
    // Embeddings endpoints are OpenAI-compatible only.
    expect(settings.embeddingsEndpoint.protocol).toBe('openai');
  });

  it('trims endpoint fields when saving', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.summarizer = {
      useLlm: true,
      chosen: true,
      llm: 'endpoint',
      endpoint: {
        protocol: 'openai',
        baseUrl: ' http://localhost:1234/v1 ',
        apiKey: ' key ',
        model: ' qwen ',
      },
    };
    expect(saved(draft).summarizer.endpoint).toEqual({
      protocol: 'openai',
      baseUrl: 'http://localhost:1234/v1',
      apiKey: 'key',
      model: 'qwen',
    });
  });

  it('resets parameters to the paper’s values', () => {
    const text = defaultParamsText();
    expect(text.chunkTokens).toBe(String(DEFAULT_BUILD_PARAMS.chunkTokens));
    expect(text.clusterThreshold).toBe('0.1');
    expect(text.maxClusterTokens).toBe('3500');
    expect(text.seed).toBe('224');
  });
});

describe('parameter validation', () => {
  it('wants whole numbers of at least 1 for counts', () => {
    const chunk = field('chunkTokens');
    expect(paramError(chunk, '100')).toBeUndefined();
    expect(paramError(chunk, ' 1 ')).toBeUndefined();
    expect(paramError(chunk, '0')).toBe('Enter 1 or more.');
    expect(paramError(chunk, '-5')).toBe('Enter 1 or more.');
    expect(paramError(chunk, '2.5')).toBe('Enter a whole number.');
    expect(paramError(chunk, '')).toBe('Enter a number.');
    expect(paramError(chunk, 'abc')).toBe('Enter a number.');
  });

  it('keeps the membership threshold strictly between 0 and 1', () => {
    const threshold = field('clusterThreshold');
    expect(paramError(threshold, '0.1')).toBeUndefined();
    expect(paramError(threshold, '0.999')).toBeUndefined();
    for (const bad of ['0', '1', '1.5', '-0.1']) {
      expect(paramError(threshold, bad)).toBe('Enter a number between 0 and 1, both excluded.');
    }
  });

  it('caps concurrency and accepts a zero seed', () => {
    expect(paramError(field('concurrency'), '65')).toBe('Enter 64 or less.');
    expect(paramError(field('concurrency'), '64')).toBeUndefined();
    expect(paramError(field('seed'), '0')).toBeUndefined();
    expect(paramError(field('seed'), '-1')).toBe('Enter 0 or more.');
  });

  it('reports every invalid parameter of a draft under its key, and refuses to save it', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.params = { ...draft.params, chunkTokens: '0', clusterThreshold: '1' };
    const result = validateDraft(draft);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(Object.keys(result.errors).sort()).toEqual(['params.chunkTokens', 'params.clusterThreshold']);
    }
  });
});

describe('prompt validation', () => {
  it('requires {context} in the user prompt and a system prompt', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.prompt = { system: '  ', user: 'Summarize this: {text}' };
    const errors = draftErrors(draft);
    expect(errors['prompt.user']).toMatch(/\{context\}/);
    expect(errors['prompt.system']).toBe('Enter a system prompt.');
  });
});

describe('endpoint validation', () => {
  it('accepts http and https URLs and rejects others', () => {
    expect(endpointUrlError('')).toBeUndefined();
    expect(endpointUrlError('https://api.openai.com/v1')).toBeUndefined();
    expect(endpointUrlError('http://localhost:11434/v1')).toBeUndefined();
    expect(endpointUrlError('localhost:11434')).toBeDefined();
    expect(endpointUrlError('api.openai.com/v1')).toMatch(/full URL/);
    expect(endpointUrlError('ftp://example.com')).toMatch(/http/);
  });

  it('refuses credentials in the URL', () => {
    expect(endpointUrlError('https://user:secret@example.com/v1')).toMatch(/API key/);
  });

  it('requires the summarization endpoint only when summarizing with an LLM', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    expect(draftErrors(draft)).toEqual({});
    draft.summarizer.useLlm = true;
    const errors = draftErrors(draft);
    expect(Object.keys(errors).sort()).toEqual(['summarizer.baseUrl', 'summarizer.model']);
    draft.summarizer.endpoint = { ...LOCAL_LLM };
    expect(draftErrors(draft)).toEqual({});
  });

  it('lets the answer endpoint be blank but not half filled', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.answer.sameAsSummarizer = false;
    expect(draftErrors(draft)).toEqual({});
    draft.answer.endpoint = { ...draft.answer.endpoint, baseUrl: 'https://api.openai.com/v1' };
    expect(Object.keys(draftErrors(draft))).toEqual(['answer.model']);
  });

  it('requires the embeddings endpoint when the embedding model is the endpoint', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.embedding.choice = ENDPOINT_MODEL_CHOICE;
    expect(Object.keys(draftErrors(draft)).sort()).toEqual([
      'embeddingsEndpoint.baseUrl',
      'embeddingsEndpoint.model',
    ]);
  });

  it('while editing, flags wrong values but not required fields still empty', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.summarizer.useLlm = true;
    draft.embedding.choice = CUSTOM_MODEL_CHOICE;
    expect(draftErrors(draft, false)).toEqual({});
    draft.summarizer.endpoint.baseUrl = 'not a url';
    draft.embedding.customId = 'has space';
    expect(Object.keys(draftErrors(draft, false)).sort()).toEqual([
      'embedding.customId',
      'summarizer.baseUrl',
    ]);
  });

  it('requires a custom model id without spaces', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.embedding.choice = CUSTOM_MODEL_CHOICE;
    expect(draftErrors(draft)['embedding.customId']).toMatch(/Hugging Face model id/);
    draft.embedding.customId = 'openai:text-embedding-3-small';
    expect(draftErrors(draft)['embedding.customId']).toMatch(/Embeddings endpoint/);
    draft.embedding.customId = 'Xenova/gte-small';
    expect(saved(draft).embedding.model).toBe('Xenova/gte-small');
  });

  it('checks the reranker, built-in and embedding model ids where they are typed, never quoting them', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    draft.reranker = 'local:../../etc/passwd';
    expect(draftErrors(draft, false).reranker).toMatch(/inside the app’s models folder: no “\.\.”/);
    draft.reranker = 'local:%2e%2e/assets';
    expect(draftErrors(draft, false).reranker).toMatch(/no %-escapes/);
    draft.reranker = `Xenova/${'x'.repeat(10_000)}`;
    expect(draftErrors(draft, false).reranker).toMatch(/at most 200 characters; this one has 10,007/);
    draft.reranker = 'https://user:hunter2@evil.example/model';
    expect(draftErrors(draft, false).reranker).toMatch(/no “@”, user name or password/);
    expect(draftErrors(draft, false).reranker).not.toContain('hunter2');
    expect(validateDraft(draft).ok).toBe(false);
    draft.reranker = '';
    expect(saved(draft).reranker.model).toBe(DEFAULT_SETTINGS.reranker.model);
    draft.builtin.choice = CUSTOM_MODEL_CHOICE;
    draft.builtin.customId = 'local:../../etc/passwd';
    expect(draftErrors(draft, false)['builtin.customId']).toMatch(/inside the app’s models folder/);
    draft.builtin.customId = 'Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf';
    expect(draftErrors(draft, false)['builtin.customId']).toBeUndefined();
    draft.embedding.choice = CUSTOM_MODEL_CHOICE;
    draft.embedding.customId = 'local:..%2f..%2fassets';
    expect(draftErrors(draft, false)['embedding.customId']).toMatch(/no %-escapes/);
  });
});

describe('LLM summaries follow the endpoint until the user chooses', () => {
  it('filling in a summarization endpoint ticks “Summarize with an LLM”; clearing it unticks it', () => {
    let draft = draftFromSettings(DEFAULT_SETTINGS);
    expect(draft.summarizer.useLlm).toBe(false);
    draft = withSummarizerEndpoint(draft, { ...LOCAL_LLM, model: '' });
    expect(draft.summarizer.useLlm).toBe(false); // half filled: nothing to call yet
    draft = withSummarizerEndpoint(draft, { ...LOCAL_LLM });
    expect(draft.summarizer.useLlm).toBe(true);
    const settings = saved(draft);
    expect(settings.summarizer).toMatchObject({ useLlm: true });
    expect(summarizerLine(settings)).toBe('Summaries by the LLM llama3.2.');
    draft = withSummarizerEndpoint(draft, { ...LOCAL_LLM, baseUrl: '' });
    expect(draft.summarizer.useLlm).toBe(false);
  });

  it('a box the user unticked stays unticked, and the line under “Build tree” says so', () => {
    let draft = draftFromSettings(DEFAULT_SETTINGS);
    draft = { ...draft, summarizer: { ...draft.summarizer, useLlm: false, chosen: true } };
    draft = withSummarizerEndpoint(draft, { ...LOCAL_LLM });
    expect(draft.summarizer.useLlm).toBe(false);
    const settings = saved(draft);
    expect(settings.summarizer.chosen).toBe(true);
    expect(summarizerLine(settings)).toMatch(/extractive.*turned off in Settings/);
    // …and survives storage.
    expect(withDefaults(JSON.parse(JSON.stringify(settings))).summarizer.useLlm).toBe(false);
  });

  it('settings saved by an earlier version with an endpoint but the box unticked now summarise with it', () => {
    const legacy = { summarizer: { useLlm: false, endpoint: { ...LOCAL_LLM } } } as Partial<AppSettings>;
    const settings = withDefaults(legacy);
    expect(settings.summarizer.useLlm).toBe(true);
    expect(summarizerLine(settings)).toBe('Summaries by the LLM llama3.2.');
    expect(withDefaults({}).summarizer.useLlm).toBe(false);
    expect(summarizerLine(withDefaults({}))).toMatch(/extractive.*set an LLM/);
  });

  it('knows when the draft has unsaved edits', () => {
    const draft = draftFromSettings(DEFAULT_SETTINGS);
    expect(isDraftDirty(draft, DEFAULT_SETTINGS)).toBe(false);
    expect(isDraftDirty({ ...draft, theme: 'dark' }, DEFAULT_SETTINGS)).toBe(true);
    expect(isDraftDirty(withSummarizerEndpoint(draft, { ...LOCAL_LLM }), DEFAULT_SETTINGS)).toBe(true);
  });
});
