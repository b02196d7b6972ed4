import { describe, expect, it } from 'vitest';
import { questionModelOf } from '../../src/app/state/question-model';
import {
  documentsWaitingOf,
  modelToWarm,
  WARMUP_DELAY_MS,
  warmupDelayMs,
} from '../../src/app/state/useModelWarmup';
import { DEFAULT_SETTINGS, type AppSettings } from '../../src/app/settings/app-settings';
import type { RaptorTree } from '../../src/core/types';
import type { TreeRecord } from '../../src/storage';

const settings: AppSettings = {
  ...DEFAULT_SETTINGS,
  embedding: { model: 'local:aerie-glove-100d', dtype: 'fp32', device: 'wasm' },
};
const treeOf = (model: string) => ({ embedding: { model, dim: 384 } }) as unknown as RaptorTree;
const recordOf = (dtype?: string) => ({ embedding: { model: 'x', dtype } }) as unknown as TreeRecord;

describe('questionModelOf', () => {
  it("is the tree's model at the precision it was built with, on the settings' device", () => {
    expect(questionModelOf(treeOf('Xenova/all-MiniLM-L6-v2'), recordOf('fp32'), settings)).toEqual({
      model: 'Xenova/all-MiniLM-L6-v2',
      dtype: 'fp32',
      device: 'wasm',
    });
    // Unrecorded or unknown precisions are the default q8, whatever the settings' precision is.
    expect(questionModelOf(treeOf('Xenova/all-MiniLM-L6-v2'), undefined, settings)?.dtype).toBe('q8');
    expect(questionModelOf(treeOf('Xenova/all-MiniLM-L6-v2'), recordOf('q4'), settings)?.dtype).toBe('q8');
  });

  it('is nothing for trees embedded by an endpoint (ours and the official implementation’s names)', () => {
    expect(questionModelOf(treeOf('openai:text-embedding-3-small'), undefined, settings)).toBeUndefined();
    expect(questionModelOf(treeOf('openai/text-embedding-ada-002'), undefined, settings)).toBeUndefined();
  });
});

describe('modelToWarm', () => {
  const question = { model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8' as const, device: 'auto' as const };
  const build = {
    kind: 'browser' as const,
    model: 'local:aerie-glove-100d',
    dtype: 'fp32' as const,
    device: 'wasm' as const,
  };

  it("warms the build's model while documents wait, without the choice's kind", () => {
    expect(modelToWarm({ building: false, documentsWaiting: true, build, question })).toEqual({
      model: 'local:aerie-glove-100d',
      dtype: 'fp32',
      device: 'wasm',
    });
  });

  it("warms the open tree's question model when no documents wait", () => {
    expect(modelToWarm({ building: false, documentsWaiting: false, build, question })).toBe(question);
    expect(
      modelToWarm({ building: false, documentsWaiting: false, build, question: undefined }),
    ).toBeUndefined();
  });

  it('warms nothing during a build (the worker holds one model, the build’s)', () => {
    expect(modelToWarm({ building: true, documentsWaiting: true, build, question })).toBeUndefined();
    expect(modelToWarm({ building: true, documentsWaiting: false, build, question })).toBeUndefined();
  });

  it('warms nothing for a build embedded by an endpoint, even with a tree open', () => {
    const endpoint = {
      kind: 'endpoint' as const,
      endpoint: { provider: 'openai', baseUrl: 'http://x', apiKey: '', model: 'm' },
    };
    expect(
      modelToWarm({ building: false, documentsWaiting: true, build: endpoint as never, question }),
    ).toBeUndefined();
  });
});

describe('when the warm-ups start', () => {
  it('warms the first model a page needs at once, and waits before a change to another', () => {
    // At once: a person who clicks "Build tree" the moment the document is ready came before a 400 ms wait ended.
    expect(warmupDelayMs('')).toBe(0);
    expect(warmupDelayMs('local:aerie-glove-100d|q8|auto')).toBe(WARMUP_DELAY_MS);
  });

  it('counts a document still being read as waiting to be built', () => {
    expect(documentsWaitingOf({ readyCount: 0, reading: true })).toBe(true);
    expect(documentsWaitingOf({ readyCount: 1, reading: false })).toBe(true);
    expect(documentsWaitingOf({ readyCount: 0, reading: false })).toBe(false);
  });
});
