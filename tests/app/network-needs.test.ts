/** What needs the network while the browser is offline (src/app/state/network-needs.ts). */
import { describe, expect, it } from 'vitest';
import { networkNeeds, offlineSentence } from '../../src/app/state/network-needs';
import { DEFAULT_SETTINGS, type AppSettings } from '../../src/app/settings/app-settings';
import { DEFAULT_MODEL_ID, OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { CPU_PRESET_ID, TEST_GENERATOR_ID } from '../../src/models/generate/generator-presets';

const endpoint = (baseUrl: string, model: string) => ({
  protocol: 'openai' as const,
  baseUrl,
  apiKey: 'k',
  model,
});

function settings(change: Partial<AppSettings>): AppSettings {
  return { ...structuredClone(DEFAULT_SETTINGS), ...change };
}

describe('networkNeeds', () => {
  it('the defaults offline: the hub embedding model until it was downloaded once', () => {
    expect(networkNeeds(DEFAULT_SETTINGS, new Set())).toEqual([
      `the embedding model ${DEFAULT_MODEL_ID}, not downloaded in this browser yet`,
    ]);
    expect(networkNeeds(DEFAULT_SETTINGS, new Set([DEFAULT_MODEL_ID]))).toEqual([]);
  });

  it('names endpoints on other machines, not one on this machine, and the offline model never', () => {
    const remote = settings({
      embedding: { model: OFFLINE_MODEL_ID, dtype: 'auto', device: 'auto' },
      summarizer: {
        useLlm: true,
        endpoint: endpoint('https://api.openai.com/v1', 'gpt-4o-mini'),
        chosen: true,
      },
      answer: { sameAsSummarizer: false, endpoint: endpoint('http://localhost:11434/v1', 'llama3.1') },
    });
    expect(networkNeeds(remote, new Set())).toEqual(['summaries by gpt-4o-mini at api.openai.com']);
    const same = settings({
      ...remote,
      answer: { sameAsSummarizer: true, endpoint: remote.answer.endpoint },
    });
    expect(networkNeeds(same, new Set())).toEqual([
      'summaries by gpt-4o-mini at api.openai.com',
      'answers by gpt-4o-mini at api.openai.com',
    ]);
  });

  it('a built-in hub model counts only when used and not downloaded; the served test model once used', () => {
    const builtin = (model: string) =>
      settings({
        embedding: { model: OFFLINE_MODEL_ID, dtype: 'auto', device: 'auto' },
        summarizer: { useLlm: true, endpoint: endpoint('', ''), chosen: true, llm: 'builtin' },
        builtin: { model, device: 'auto' },
      });
    expect(networkNeeds(builtin(CPU_PRESET_ID), new Set())).toEqual([
      'the built-in model Qwen2.5 0.5B Instruct (CPU), not downloaded yet',
    ]);
    expect(networkNeeds(builtin(CPU_PRESET_ID), new Set([CPU_PRESET_ID]))).toEqual([]);
    expect(networkNeeds(builtin(TEST_GENERATOR_ID), new Set([TEST_GENERATOR_ID]))).toEqual([]);
  });

  it('says it in one sentence', () => {
    expect(offlineSentence([])).toMatch(
      /keep working\. Everything Aerie is set up to use is in this browser\.$/,
    );
    expect(offlineSentence(['a', 'b'])).toMatch(/Needs the network: a; b\.$/);
  });
});
