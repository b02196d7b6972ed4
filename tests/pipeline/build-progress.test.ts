/**
 * What the page hears of a build's progress (src/pipeline/build-progress.ts): a stage's counts at most ten times a
 * second, the latest one never lost, everything else at once and in order. The store is a FAKE (an empty object:
 * its writes fail, which the reporter ignores); time is Vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageAccumulator } from '../../src/llm';
import { DeviceTally } from '../../src/pipeline/device-tally';
import { createBuildReporter, PROGRESS_SEND_INTERVAL_MS } from '../../src/pipeline/build-progress';
import type { PipelineEvent, PipelineProgress } from '../../src/protocol/build';
import type { AerieDb } from '../../src/storage';

function reporter() {
  const heard: PipelineProgress[] = [];
  const made = createBuildReporter({
    store: {} as AerieDb,
    treeId: 't',
    usage: new UsageAccumulator(),
    devices: new DeviceTally(),
    onProgress: (p) => {
      if (!p.recorded) heard.push(p);
    },
    builtin: () => undefined,
    params: {},
    documents: [],
  });
  const events = () => heard.map((p) => p.event);
  return { ...made, events };
}

const embed = (done: number): PipelineEvent => ({ stage: 'embed-leaves', done, total: 100 });
const cluster = (layer: number, done: number): PipelineEvent => ({ stage: 'cluster', layer, done, total: 1 });

describe('the progress a build sends to the page', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('sends a burst of one stage’s counts as its first and, after the interval, its latest', () => {
    const { report, events } = reporter();
    for (let done = 1; done <= 50; done++) report(embed(done));
    expect(events()).toEqual([embed(1)]);
    vi.advanceTimersByTime(PROGRESS_SEND_INTERVAL_MS);
    expect(events()).toEqual([embed(1), embed(50)]);
    // Nothing else was held back.
    vi.advanceTimersByTime(10 * PROGRESS_SEND_INTERVAL_MS);
    expect(events()).toHaveLength(2);
  });

  it('sends a count at once when the interval has passed since the last one sent', () => {
    const { report, events } = reporter();
    report(embed(1));
    vi.setSystemTime(Date.now() + PROGRESS_SEND_INTERVAL_MS);
    report(embed(2));
    expect(events()).toEqual([embed(1), embed(2)]);
  });

  it('sends a new stage (a new layer too), a notice and the end at once, after the count held back', () => {
    const { report, events } = reporter();
    report(embed(1));
    report(embed(2));
    report(cluster(1, 0));
    report(cluster(1, 0));
    report(cluster(2, 0));
    const notice: PipelineEvent = { stage: 'model-fallback', from: 'a', to: 'b' };
    report(notice);
    const done: PipelineEvent = { stage: 'done', layers: 2, nodes: 9, stopReason: 'small-layer' };
    report(done);
    expect(events()).toEqual([embed(1), embed(2), cluster(1, 0), cluster(1, 0), cluster(2, 0), notice, done]);
  });

  it('sends the count held back when the build settles (the page never misses the last)', async () => {
    const { report, settled, events } = reporter();
    report(embed(1));
    report(embed(7));
    await settled();
    expect(events()).toEqual([embed(1), embed(7)]);
    vi.advanceTimersByTime(PROGRESS_SEND_INTERVAL_MS);
    expect(events()).toHaveLength(2);
  });
});
