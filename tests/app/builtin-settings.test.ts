/**
 * The built-in model in the page's logic: Settings (the picker's choices, validation, what a saved draft
 * builds and answers with, the line under "Build tree"), the library's label of the model that wrote a tree's
 * summaries, and the progress view's estimate and tokens/s from the build's reports. Pure functions, no model.
 */
import { describe, expect, it } from 'vitest';
import { estimateSummary, formatTokenRate } from '../../src/app/build/builtin-text';
import { initialProgress, NO_USAGE, reduceProgress } from '../../src/app/build/progress-reducer';
import { summarizerLabel } from '../../src/app/library/model-label';
import {
  answerModelOf,
  DEFAULT_SETTINGS,
  summarizerLine,
  withDefaults,
  type AppSettings,
} from '../../src/app/settings/app-settings';
import {
  CUSTOM_MODEL_CHOICE,
  draftErrors,
  draftFromSettings,
  isDraftDirty,
  usesBuiltin,
  validateDraft,
  withSummarizerEndpoint,
  withSummarizerLlm,
  type SettingsDraft,
} from '../../src/app/settings/draft';
import { summarizerChoiceOf } from '../../src/app/state/request';
import { CPU_PRESET_ID, TEST_GENERATOR_ID } from '../../src/models/generate/generator-presets';
import type { PipelineProgress, SummaryEstimate } from '../../src/protocol/build';

const LOCAL_LLM = {
  protocol: 'openai' as const,
  baseUrl: 'http://localhost:11434/v1',
  apiKey: '',
  model: 'llama3.2',
};

function saved(draft: SettingsDraft): AppSettings {
  const result = validateDraft(draft);
  if (!result.ok) throw new Error(`invalid draft: ${JSON.stringify(result.errors)}`);
  return result.settings;
}

/** Settings with the built-in model `model` chosen for summaries (answers follow: "same as summarization"). */
function builtinSettings(model = TEST_GENERATOR_ID): AppSettings {
  const draft = withSummarizerLlm(draftFromSettings(DEFAULT_SETTINGS), 'builtin');
  draft.builtin.choice = model;
  return saved(draft);
}

describe('the built-in model in Settings', () => {
  it('is off by default: nothing changes for someone who never chooses it', () => {
    expect(DEFAULT_SETTINGS.builtin).toEqual({ model: CPU_PRESET_ID, device: 'auto' });
    expect(usesBuiltin(draftFromSettings(DEFAULT_SETTINGS))).toBe(false);
    expect(summarizerChoiceOf(DEFAULT_SETTINGS)).toEqual({ kind: 'extractive' });
    expect(answerModelOf(DEFAULT_SETTINGS)).toBeUndefined();
  });

  it('chosen for summaries, ticks "Summarize with an LLM" and writes summaries and answers', () => {
    const draft = withSummarizerLlm(draftFromSettings(DEFAULT_SETTINGS), 'builtin');
    expect(draft.summarizer).toMatchObject({ llm: 'builtin', useLlm: true, chosen: true });
    expect(usesBuiltin(draft)).toBe(true);
    draft.builtin.choice = TEST_GENERATOR_ID;
    const settings = saved(draft);
    expect(summarizerChoiceOf(settings)).toEqual({
      kind: 'builtin',
      generator: { model: TEST_GENERATOR_ID, device: 'auto' },
      systemPrompt: settings.prompt.system,
      userTemplate: settings.prompt.user,
    });
    expect(answerModelOf(settings)).toEqual({
      kind: 'builtin',
      generator: { model: TEST_GENERATOR_ID, device: 'auto' },
    });
    // No endpoint answers then: the built-in model does.
    expect(answerModelOf(settings)?.kind).not.toBe('endpoint');
    expect(summarizerLine(settings)).toMatch(
      /^Summaries by the built-in model Aerie tiny test model, in this browser/,
    );
  });

  it('survives a save, a reload (stored JSON) and reopening the dialog without looking edited', () => {
    const settings = builtinSettings('onnx-community/SmolLM2-135M-Instruct');
    const stored = withDefaults(JSON.parse(JSON.stringify(settings)) as Partial<AppSettings>);
    expect(stored).toEqual(settings);
    const draft = draftFromSettings(stored);
    expect(draft.builtin).toEqual({
      choice: CUSTOM_MODEL_CHOICE,
      customId: 'onnx-community/SmolLM2-135M-Instruct',
      device: 'auto',
    });
    expect(isDraftDirty(draft, stored)).toBe(false);
    // Settings saved before the built-in model existed get the defaults.
    expect(withDefaults({ theme: 'dark' }).builtin).toEqual(DEFAULT_SETTINGS.builtin);
    expect(withDefaults({ theme: 'dark' }).summarizer.llm).toBeUndefined();
  });

  it('asks for a model id when a custom model is used, and only then', () => {
    const draft = withSummarizerLlm(draftFromSettings(DEFAULT_SETTINGS), 'builtin');
    draft.builtin.choice = CUSTOM_MODEL_CHOICE;
    expect(draftErrors(draft, false)['builtin.customId']).toBeUndefined();
    expect(draftErrors(draft)['builtin.customId']).toMatch(/Enter a Hugging Face model id/);
    draft.builtin.customId = 'has space';
    expect(draftErrors(draft, false)['builtin.customId']).toBe(
      'A model id has no spaces or invisible characters.',
    );
    // Not used: a blank custom id is no error, and the saved model stays the default preset.
    const unused = draftFromSettings(DEFAULT_SETTINGS);
    unused.builtin.choice = CUSTOM_MODEL_CHOICE;
    expect(draftErrors(unused)['builtin.customId']).toBeUndefined();
    expect(saved(unused).builtin.model).toBe(CPU_PRESET_ID);
  });

  it('needs no endpoint for built-in summaries, and keeps the endpoint box rule for endpoint summaries', () => {
    const draft = withSummarizerLlm(draftFromSettings(DEFAULT_SETTINGS), 'builtin');
    expect(draftErrors(draft)).toEqual({});
    // An endpoint filled in later does not take the summaries from the built-in model the user chose.
    const filled = withSummarizerEndpoint(draft, { ...LOCAL_LLM });
    expect(summarizerChoiceOf(saved(filled)).kind).toBe('builtin');
    // Back to the endpoint: the endpoint writes them (the box stays ticked, the user's choice).
    const back = saved(withSummarizerLlm(filled, 'endpoint'));
    expect(summarizerChoiceOf(back)).toMatchObject({ kind: 'llm', endpoint: { model: 'llama3.2' } });
  });

  it('answers with the built-in model while an endpoint writes the summaries, and the other way round', () => {
    const draft = withSummarizerEndpoint(draftFromSettings(DEFAULT_SETTINGS), { ...LOCAL_LLM });
    draft.answer = { ...draft.answer, sameAsSummarizer: false, llm: 'builtin' };
    const settings = saved(draft);
    expect(summarizerChoiceOf(settings).kind).toBe('llm');
    expect(answerModelOf(settings)).toMatchObject({ kind: 'builtin' });
    const reverse = withSummarizerLlm(draftFromSettings(DEFAULT_SETTINGS), 'builtin');
    reverse.answer = {
      ...reverse.answer,
      sameAsSummarizer: false,
      llm: 'endpoint',
      endpoint: { ...LOCAL_LLM },
    };
    expect(answerModelOf(saved(reverse))).toMatchObject({
      kind: 'endpoint',
      endpoint: { model: 'llama3.2' },
    });
  });
});

describe('what the library says wrote the summaries', () => {
  it('names the built-in model and its precision, or the model that could not be downloaded', () => {
    expect(summarizerLabel({ kind: 'llm', model: `builtin:${TEST_GENERATOR_ID}@q8` })).toBe(
      'Aerie tiny test model (built-in model, q8)',
    );
    expect(summarizerLabel({ kind: 'llm', model: `builtin:${CPU_PRESET_ID}@q8` })).toBe(
      'Qwen2.5 0.5B Instruct (CPU) (built-in model, q8)',
    );
    expect(summarizerLabel({ kind: 'extractive', fallbackFrom: 'org/model' })).toBe(
      'extractive (the built-in model org/model could not be downloaded)',
    );
    expect(summarizerLabel({ kind: 'llm', model: 'gpt-4o-mini' })).toBe('gpt-4o-mini');
  });
});

describe('the build progress of the built-in model', () => {
  const estimate: SummaryEstimate = {
    model: `builtin:${TEST_GENERATOR_ID}@q8`,
    summaries: { fewest: 2, likely: 5, most: 8 },
    seconds: { fewest: 20, likely: 50, most: 80 },
    speed: { prefillTokensPerSecond: 120, decodeTokensPerSecond: 8.25 },
    batchRows: 1,
    placement: { device: 'wasm', threads: 2, isolated: true },
  };
  const at = (ms: number, event: PipelineProgress['event'], extra: Partial<PipelineProgress> = {}) => ({
    event,
    usage: { ...NO_USAGE },
    at: 1_000 + ms,
    ...extra,
  });

  it('shows the language model load as a stage, then the estimate, then the pace', () => {
    let state = initialProgress('t', 'Cinderella', 1_000);
    state = reduceProgress(
      state,
      at(0, { stage: 'model-load', file: 'a', loaded: 0, total: 0, status: 'initiate' }),
    );
    state = reduceProgress(
      state,
      at(10, {
        stage: 'llm-load',
        file: 'onnx/model_quantized.onnx',
        loaded: 1_000_000,
        total: 2_000_000,
        status: 'progress',
      }),
    );
    expect(state.stages.map((s) => [s.label, s.status])).toEqual([
      ['Loading model', 'done'],
      ['Loading the language model', 'active'],
    ]);
    expect(state.stages[1]).toMatchObject({ done: 1, total: 2, unit: 'MB' });
    state = reduceProgress(state, at(20, { stage: 'llm-estimate', ...estimate }));
    expect(state.estimate).toEqual(estimate);
    expect(state.summarizer).toBe('builtin');
    expect(state.stages).toHaveLength(2); // a notice, not a stage
    const speed = { prefillTokensPerSecond: 100, decodeTokensPerSecond: 7.5 };
    state = reduceProgress(
      state,
      at(30, { stage: 'summarize', layer: 1, done: 1, total: 5 }, { generation: speed }),
    );
    expect(state.generation).toEqual(speed);
    expect(estimateSummary(estimate)).toBe(
      'Expected on this device: about 50 s for 5 summaries (between 20 s and 1 min 20 s), measured by a ' +
        'warm-up on WASM (2 threads, cross-origin isolated): reads 120 tokens/s, writes 8.3 tokens/s.',
    );
    // Written several at a time, the rate is the batch's, and it says so.
    const batched = { ...estimate, speed: { ...estimate.speed, decodeTokensPerSecond: 31 }, batchRows: 8 };
    expect(estimateSummary(batched)).toMatch(/writes 31 tokens\/s \(8 summaries at a time\)\.$/);
    expect(formatTokenRate(Number.NaN)).toBe('…');
  });

  it('records a fallback to extractive summaries with its reason', () => {
    const state = reduceProgress(
      initialProgress('t', 'Cinderella', 1_000),
      at(0, {
        stage: 'summarizer-fallback',
        from: 'org/model',
        to: 'extractive',
        reason: 'The hub is down.',
      }),
    );
    expect(state).toMatchObject({ summarizer: 'extractive', summarizerFallback: 'The hub is down.' });
    expect(state.stages).toEqual([]);
  });
});
