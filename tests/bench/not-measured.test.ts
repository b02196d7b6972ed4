import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gapOf, gapsOf } from '../../bench/gaps';
import { sweepRow } from '../../bench/gmm.bench';
import type { BenchLine } from '../../bench/lines';
import { formatRow } from '../../bench/report';

describe('sweepRow (bench gmm and cluster)', () => {
  it("puts scikit-learn's sweep beside ours, or says it was not measured and why", () => {
    const measured = sweepRow('sweep N=1000', 2, 8, { seconds: 5, k: 8, sklearn: '1.2.1' });
    expect(formatRow(measured)).toBe(
      'sweep N=1000: 2.00 s vs 5.00 s (scikit-learn 1.2.1 GaussianMixture) ratio 0.40× target ≤ 0.5× MET' +
        ' — chosen k: ours 8, scikit-learn 8 (same)',
    );
    const missing = sweepRow('sweep N=1000', 2, 8, 'no scikit-learn in python3');
    expect(gapOf(missing)).toEqual({
      kind: 'reference',
      what: 'sweep N=1000',
      reason: "scikit-learn's sweep: no scikit-learn in python3",
    });
  });
});

/** The browser benches before they start anything, with Chromium pointed at a path that does not exist. */
describe('browser benches without Chromium', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.stubEnv('AERIE_CHROMIUM', '/nonexistent/chromium');
  });
  afterEach(() => vi.unstubAllEnvs());

  const expectAllSkipped = (lines: BenchLine[], names: string[]) => {
    expect(lines.map((l) => l.name)).toEqual(names);
    for (const line of lines) {
      expect(formatRow(line)).toBe(
        `NOT MEASURED ${line.name}: no Chromium at /nonexistent/chromium (set AERIE_CHROMIUM)`,
      );
    }
    expect(gapsOf('x', lines)).toHaveLength(names.length);
  };

  it('build: every picked configuration is NOT MEASURED, by name', async () => {
    vi.stubEnv('AERIE_BENCH_BUILD', 'glove-78k, minilm-300k-warm');
    const { benchBuild } = await import('../../bench/build.bench');
    expectAllSkipped(await benchBuild(), [
      'Build 78k tokens, GloVe (offline, q8), production build',
      'Build 300k tokens, MiniLM-L6 random (q8), model warm, production build',
    ]);
  });

  it('build: a configuration name it does not know is an error, not an empty run', async () => {
    vi.stubEnv('AERIE_BENCH_BUILD', 'glove-78k,glove-77k');
    const { benchBuild } = await import('../../bench/build.bench');
    await expect(benchBuild()).rejects.toThrow('AERIE_BENCH_BUILD names no configuration "glove-77k"');
  });

  it("embed, llm and view in the browser: NOT MEASURED, never a number (the view's Node-side layout line still measured)", async () => {
    const { benchEmbed } = await import('../../bench/embed.bench');
    const { benchLlm } = await import('../../bench/llm.bench');
    const { benchView } = await import('../../bench/view.bench');
    const [layout, ...browser] = await benchView();
    // The layout line runs in Node beside d3-hierarchy's partition: it needs no browser and is a number.
    expect(layout.name).toBe('view layout, spans and rows (101,673 nodes)');
    expect(formatRow(layout)).not.toContain('NOT MEASURED');
    expectAllSkipped(browser, ['view at 1k, 14k, 50k and 100k nodes']);
    expectAllSkipped(await benchEmbed(), [
      'Embedding throughput, MiniLM-L6 random, WASM (every dtype and thread count)',
    ]);
    expectAllSkipped(await benchLlm(), [
      'Built-in model generation (prompt processing and generation, every dtype)',
    ]);
  });

  it('conversation and ask-during-build: NOT MEASURED before building anything', async () => {
    const { benchConversation } = await import('../../bench/conversation.bench');
    const { benchAskDuringBuild } = await import('../../bench/ask-during-build.bench');
    expectAllSkipped(await benchConversation(), [
      'conversation keystroke and question times at 10, 200 and 1,000 turns',
    ]);
    expectAllSkipped(await benchAskDuringBuild(), [
      'asking a 14,000-node tree while another tab builds a book',
    ]);
  });
});
