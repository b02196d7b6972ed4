import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BYTES_PER_MB,
  initialProgress,
  markCancelling,
  markStopped,
  NO_USAGE,
  reduceProgress,
  stageLabel,
  type TrackedStage,
} from '../../src/app/build/progress-reducer';
import type { UsageTotals } from '../../src/llm';
import type { PipelineProgress } from '../../src/protocol/build';
import type { BuildProgressState } from '../../src/app/state/types';

const T0 = 1_700_000_000_000;

function usage(prompt = 0, completion = 0, requests = 0): UsageTotals {
  return {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: prompt + completion,
    requests,
    unreported: 0,
  };
}

function at(ms: number, event: PipelineProgress['event'], u: UsageTotals = usage()): PipelineProgress {
  return { event, usage: u, at: T0 + ms };
}

function run(
  events: PipelineProgress[],
  start = initialProgress('tree-1', 'Cinderella', T0),
): BuildProgressState {
  return events.reduce(reduceProgress, start);
}

function stage(state: BuildProgressState, label: string) {
  const found = state.stages.find((s) => s.label === label);
  if (!found) throw new Error(`no stage "${label}" in ${state.stages.map((s) => s.label).join(', ')}`);
  return found;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** A whole build of two summary layers: chunking, a two-file model download, leaves, layer 1, layer 2. */
const FULL_BUILD: PipelineProgress[] = [
  at(0, { stage: 'chunk', done: 1, total: 2 }),
  at(100, { stage: 'chunk', done: 2, total: 2 }),
  at(200, { stage: 'model-load', file: 'tokenizer.json', loaded: 0, total: 0, status: 'initiate' }),
  at(300, { stage: 'model-load', file: 'tokenizer.json', loaded: 700_000, total: 700_000, status: 'done' }),
  at(400, {
    stage: 'model-load',
    file: 'onnx/model_quantized.onnx',
    loaded: 0,
    total: 0,
    status: 'initiate',
  }),
  at(1400, {
    stage: 'model-load',
    file: 'onnx/model_quantized.onnx',
    loaded: 11_000_000,
    total: 22_300_000,
    status: 'progress',
  }),
  at(2400, {
    stage: 'model-load',
    file: 'onnx/model_quantized.onnx',
    loaded: 22_300_000,
    total: 22_300_000,
    status: 'done',
  }),
  at(3000, { stage: 'embed-leaves', done: 64, total: 200 }),
  at(5000, { stage: 'embed-leaves', done: 192, total: 200 }),
  at(5200, { stage: 'embed-leaves', done: 200, total: 200 }),
  at(5300, { stage: 'cluster', layer: 1, done: 0, total: 1 }),
  at(5400, { stage: 'cluster', layer: 1, done: 0, total: 1, detail: { step: 'global-umap', fraction: 0.5 } }),
  at(9000, { stage: 'cluster', layer: 1, done: 1, total: 1 }),
  at(9000, { stage: 'summarize', layer: 1, done: 0, total: 20 }, usage()),
  at(13_000, { stage: 'summarize', layer: 1, done: 10, total: 20 }, usage(5000, 1000, 10)),
  at(17_000, { stage: 'summarize', layer: 1, done: 20, total: 20 }, usage(10_000, 2000, 20)),
  at(17_500, { stage: 'embed-summaries', layer: 1, done: 20, total: 20 }, usage(10_000, 2000, 20)),
  at(17_600, { stage: 'summarize', layer: 2, done: 0, total: 1 }, usage(10_000, 2000, 20)),
  at(19_600, { stage: 'summarize', layer: 2, done: 1, total: 1 }, usage(10_400, 2100, 21)),
  at(19_700, { stage: 'embed-summaries', layer: 2, done: 1, total: 1 }, usage(10_400, 2100, 21)),
  at(19_800, { stage: 'done', layers: 2, nodes: 221, stopReason: 'small-layer' }, usage(10_400, 2100, 21)),
];

afterEach(() => vi.restoreAllMocks());

describe('initialProgress', () => {
  it('starts a running build with no stages and no usage', () => {
    const state = initialProgress('tree-1', 'Cinderella', T0);
    expect(state).toEqual({
      treeId: 'tree-1',
      title: 'Cinderella',
      stages: [],
      usage: NO_USAGE,
      startedAt: T0,
      updatedAt: T0,
      status: 'running',
    });
  });
});

describe('reduceProgress', () => {
  it('lists one stage per stage and layer, in order of appearance, with their labels and units', () => {
    const state = run(FULL_BUILD);
    expect(state.stages.map((s) => [s.label, s.unit, s.layer])).toEqual([
      ['Chunking', 'characters', undefined],
      ['Loading model', 'MB', undefined],
      ['Embedding leaves', 'chunks', undefined],
      ['Clustering layer 1', 'pass', 1],
      ['Summarizing layer 1', 'summaries', 1],
      ['Embedding summaries (layer 1)', 'summaries', 1],
      ['Summarizing layer 2', 'summaries', 2],
      ['Embedding summaries (layer 2)', 'summaries', 2],
    ]);
    expect(state.stages.map((s) => s.id)).toEqual([
      'chunk',
      'model-load',
      'embed-leaves',
      'cluster',
      'summarize',
      'embed-summaries',
      'summarize',
      'embed-summaries',
    ]);
  });

  it('marks earlier stages done when a later one starts, and everything done at the end', () => {
    let state = run(FULL_BUILD.slice(0, 9)); // up to the second embed-leaves event
    expect(state.stages.map((s) => s.status)).toEqual(['done', 'done', 'active']);
    expect(state.status).toBe('running');
    state = run(FULL_BUILD.slice(0, 14)); // summarize layer 1 has started
    expect(state.stages.map((s) => s.status)).toEqual(['done', 'done', 'done', 'done', 'active']);
    state = run(FULL_BUILD);
    expect(state.status).toBe('done');
    expect(state.stages.every((s) => s.status === 'done')).toBe(true);
    expect(state.stages.every((s) => s.etaSeconds === undefined)).toBe(true);
    expect(state.stages.every((s) => s.done === s.total)).toBe(true);
  });

  it('fills a stage when a later one closes it before its last count arrived', () => {
    const state = run([
      at(0, { stage: 'embed-leaves', done: 64, total: 100 }),
      at(500, { stage: 'cluster', layer: 1, done: 0, total: 1 }),
    ]);
    expect(stage(state, 'Embedding leaves')).toMatchObject({ status: 'done', done: 100, total: 100 });
  });

  it('measures the rate from the stage’s first event and estimates the time left from it', () => {
    const state = run(FULL_BUILD.slice(0, 9));
    // 64 → 192 chunks between 3.0 s and 5.0 s: 64 chunks/s; 8 left.
    const leaves = stage(state, 'Embedding leaves');
    expect(leaves.done).toBe(192);
    expect(leaves.total).toBe(200);
    expect(leaves.ratePerSecond).toBeCloseTo(64, 10);
    expect(leaves.etaSeconds).toBeCloseTo(8 / 64, 10);
  });

  it('has no rate or estimate until a stage has gained items over measurable time', () => {
    const first = run([at(0, { stage: 'embed-leaves', done: 64, total: 640 })]);
    expect(first.stages[0].ratePerSecond).toBeUndefined();
    expect(first.stages[0].etaSeconds).toBeUndefined();
    // Same timestamp: no elapsed time, no rate (never Infinity).
    const sameTime = run([
      at(0, { stage: 'embed-leaves', done: 64, total: 640 }),
      at(0, { stage: 'embed-leaves', done: 128, total: 640 }),
    ]);
    expect(sameTime.stages[0].ratePerSecond).toBeUndefined();
    // Time passes but nothing gained.
    const stalled = run([
      at(0, { stage: 'summarize', layer: 1, done: 0, total: 10 }),
      at(4000, { stage: 'summarize', layer: 1, done: 0, total: 10 }),
    ]);
    expect(stalled.stages[0].ratePerSecond).toBeUndefined();
    expect(stalled.stages[0].etaSeconds).toBeUndefined();
  });

  it('counts summaries from zero: 10 summaries in 4 s is 2.5/s, 10 left is 4 s', () => {
    const state = run(FULL_BUILD.slice(0, 15));
    const summarize = stage(state, 'Summarizing layer 1');
    expect(summarize.ratePerSecond).toBeCloseTo(2.5, 10);
    expect(summarize.etaSeconds).toBeCloseTo(4, 10);
  });

  it('updates the rate as the stage goes on (average since its first event)', () => {
    const state = run([
      at(0, { stage: 'summarize', layer: 1, done: 0, total: 30 }),
      at(1000, { stage: 'summarize', layer: 1, done: 10, total: 30 }),
      at(5000, { stage: 'summarize', layer: 1, done: 20, total: 30 }),
    ]);
    expect(state.stages[0].ratePerSecond).toBeCloseTo(20 / 5, 10);
    expect(state.stages[0].etaSeconds).toBeCloseTo(10 / 4, 10);
  });

  it('sums the model download over files in MB, with a byte rate', () => {
    const state = run(FULL_BUILD.slice(0, 6));
    const model = stage(state, 'Loading model');
    expect(model.unit).toBe('MB');
    expect(model.done).toBeCloseTo((700_000 + 11_000_000) / BYTES_PER_MB, 10);
    expect(model.total).toBeCloseTo((700_000 + 22_300_000) / BYTES_PER_MB, 10);
    // 0 MB at 200 ms → 11.7 MB at 1400 ms.
    expect(model.ratePerSecond).toBeCloseTo(11.7 / 1.2, 10);
    expect(model.etaSeconds).toBeCloseTo((23 - 11.7) / (11.7 / 1.2), 10);
    expect(model.status).toBe('active');
  });

  it('counts a finished file as fully loaded, and replaces (not adds) a file’s repeated reports', () => {
    const state = run([
      at(0, { stage: 'model-load', file: 'a.onnx', loaded: 1_000_000, total: 4_000_000, status: 'progress' }),
      at(100, {
        stage: 'model-load',
        file: 'a.onnx',
        loaded: 3_000_000,
        total: 4_000_000,
        status: 'progress',
      }),
      at(200, { stage: 'model-load', file: 'b.json', loaded: 500_000, total: 0, status: 'download' }),
      at(300, { stage: 'model-load', file: 'a.onnx', loaded: 0, total: 4_000_000, status: 'done' }),
    ]);
    expect(state.stages).toHaveLength(1);
    expect(state.stages[0].done).toBeCloseTo(4.5, 10);
    expect(state.stages[0].total).toBeCloseTo(4, 10);
  });

  it('keeps an unfinished stage open while the model loads inside it, but closes finished ones', () => {
    const state = run([
      at(0, { stage: 'chunk', done: 1, total: 1 }),
      at(100, { stage: 'summarize', layer: 1, done: 3, total: 12 }),
      at(200, { stage: 'model-load', file: 'model.onnx', loaded: 0, total: 0, status: 'initiate' }),
    ]);
    expect(state.stages.map((s) => [s.label, s.status])).toEqual([
      ['Chunking', 'done'],
      ['Summarizing layer 1', 'active'],
      ['Loading model', 'active'],
    ]);
    const after = run(
      [
        at(300, { stage: 'summarize', layer: 1, done: 4, total: 12 }),
        at(400, { stage: 'embed-summaries', layer: 1, done: 12, total: 12 }),
      ],
      state,
    );
    expect(stage(after, 'Summarizing layer 1').done).toBe(12);
    expect(after.stages.map((s) => s.status)).toEqual(['done', 'done', 'done', 'active']);
  });

  it('closes a finished earlier stage when the model starts loading after it', () => {
    const state = run(FULL_BUILD.slice(0, 3));
    expect(state.stages.map((s) => [s.label, s.status])).toEqual([
      ['Chunking', 'done'],
      ['Loading model', 'active'],
    ]);
  });

  it('keeps the layers of per-layer stages apart', () => {
    const state = run([
      at(0, { stage: 'summarize', layer: 1, done: 5, total: 5 }),
      at(10, { stage: 'summarize', layer: 2, done: 1, total: 2 }),
    ]);
    expect(state.stages.map((s) => [s.label, s.layer, s.done, s.total, s.status])).toEqual([
      ['Summarizing layer 1', 1, 5, 5, 'done'],
      ['Summarizing layer 2', 2, 1, 2, 'active'],
    ]);
  });

  it('describes what clustering is doing, and drops the description once it is done', () => {
    let state = run(FULL_BUILD.slice(0, 12));
    const cluster = stage(state, 'Clustering layer 1') as TrackedStage;
    expect(cluster.detail).toBe('UMAP on all nodes (50%)');
    expect(cluster.ratePerSecond).toBeUndefined();
    state = run(
      [at(6000, { stage: 'cluster', layer: 1, done: 0, total: 1, detail: { step: 'local-gmm', group: 2 } })],
      state,
    );
    expect((stage(state, 'Clustering layer 1') as TrackedStage).detail).toBe('mixture model on group 3');
    state = run(
      [
        at(6500, {
          stage: 'cluster',
          layer: 1,
          done: 0,
          total: 1,
          detail: { step: 'local', done: 3, groups: 7, workers: 2, fraction: 3 / 7 },
        }),
      ],
      state,
    );
    expect((stage(state, 'Clustering layer 1') as TrackedStage).detail).toBe(
      'UMAP and mixture models in groups: 3 of 7 done (2 workers)',
    );
    state = run(FULL_BUILD.slice(12, 13), state);
    const done = stage(state, 'Clustering layer 1') as TrackedStage;
    expect(done.detail).toBeUndefined();
    expect(done.done).toBe(1);
  });

  it('takes the token usage from each report', () => {
    const state = run(FULL_BUILD.slice(0, 15));
    expect(state.usage).toEqual(usage(5000, 1000, 10));
    expect(run(FULL_BUILD).usage).toEqual(usage(10_400, 2100, 21));
  });

  it('copies the usage instead of keeping the report’s object', () => {
    const report = at(0, { stage: 'chunk', done: 1, total: 1 }, usage(10, 5, 1));
    const state = run([report]);
    report.usage.promptTokens = 999;
    expect(state.usage.promptTokens).toBe(10);
  });

  it('tracks the latest event time, even when reports arrive out of order', () => {
    const state = run([
      at(5000, { stage: 'chunk', done: 1, total: 2 }),
      at(4000, { stage: 'chunk', done: 2, total: 2 }),
    ]);
    expect(state.updatedAt).toBe(T0 + 5000);
    expect(state.startedAt).toBe(T0);
  });

  it('never mutates its input state or reports', () => {
    const events = deepFreeze(structuredClone(FULL_BUILD));
    let state = deepFreeze(initialProgress('t', 'T', T0));
    for (const event of events) state = deepFreeze(reduceProgress(state, event));
    expect(state.status).toBe('done');
  });

  it('reads no clock: the same reports give the same state at any time', () => {
    vi.spyOn(Date, 'now').mockImplementation(() => {
      throw new Error('the reducer must not read the clock');
    });
    vi.spyOn(performance, 'now').mockImplementation(() => {
      throw new Error('the reducer must not read the clock');
    });
    expect(run(FULL_BUILD)).toEqual(run(structuredClone(FULL_BUILD)));
  });

  it('finishes a build that was being cancelled when its done report arrives', () => {
    const state = run(FULL_BUILD, markCancelling(initialProgress('t', 'T', T0)));
    expect(state.status).toBe('done');
  });
});

describe('build status helpers', () => {
  it('marks only a running build as cancelling', () => {
    const running = run(FULL_BUILD.slice(0, 5));
    expect(markCancelling(running).status).toBe('cancelling');
    const done = run(FULL_BUILD);
    expect(markCancelling(done)).toBe(done);
  });

  it('records a failure with its message, keeps the counts and drops the estimates', () => {
    const mid = run(FULL_BUILD.slice(0, 9));
    expect(stage(mid, 'Embedding leaves').etaSeconds).toBeDefined();
    const failed = markStopped(mid, 'failed', 'The endpoint refused the API key (401).', T0 + 6000);
    expect(failed.status).toBe('failed');
    expect(failed.message).toBe('The endpoint refused the API key (401).');
    expect(failed.updatedAt).toBe(T0 + 6000);
    expect(stage(failed, 'Embedding leaves')).toMatchObject({ done: 192, total: 200, status: 'active' });
    expect(failed.stages.every((s) => s.etaSeconds === undefined)).toBe(true);
  });

  it('records a cancellation without a message, removing an older one', () => {
    const failed = markStopped(run(FULL_BUILD.slice(0, 3)), 'failed', 'boom');
    const cancelled = markStopped(failed, 'cancelled');
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled).not.toHaveProperty('message');
  });
});

describe('stageLabel', () => {
  it('names per-layer stages with their layer', () => {
    expect(stageLabel('cluster', 3)).toBe('Clustering layer 3');
    expect(stageLabel('summarize', 2)).toBe('Summarizing layer 2');
    expect(stageLabel('embed-summaries', 4)).toBe('Embedding summaries (layer 4)');
    expect(stageLabel('model-load')).toBe('Loading model');
  });
});
