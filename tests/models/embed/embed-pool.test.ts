/**
 * Spreading one call's batches over embedding workers (src/models/embed/embed-pool.ts), with fake runners: each
 * "embeds" a text as a vector computed from the text alone, so the assembled result can be checked exactly, and
 * each records what it was handed and when.
 */
import { describe, expect, it } from 'vitest';
import { embedOnPool, embedWorkerPlan, HELPER_DEPTH, type PoolRunner } from '../../../src/models/embed';
import type { EmbeddingBatch } from '../../../src/models/embed';

const DIM = 3;

/** A text's fake vector: its length, its first char code, its last. */
function vectorOf(text: string): number[] {
  return [text.length, text.charCodeAt(0), text.charCodeAt(text.length - 1)];
}

/** A text's fake sentences: one per '.', each vector [k, length, 0]; none when the text has no '.'. */
function sentencesOf(text: string): number[][] {
  const count = text.split('.').length - 1;
  return Array.from({ length: count }, (_, k) => [k, text.length, 0]);
}

/** A fake batch result for texts, with sentence vectors when `sentences`. */
function fakeBatch(texts: string[], sentences: boolean): EmbeddingBatch {
  const data = Float32Array.from(texts.flatMap(vectorOf));
  if (!sentences) return { data, dim: DIM };
  const rows = texts.map(sentencesOf);
  return {
    data,
    dim: DIM,
    sentences: {
      data: Float32Array.from(rows.flat(2)),
      dim: DIM,
      counts: Int32Array.from(rows.map((r) => r.length)),
    },
  };
}

/** A fake runner that answers after `delayMs` (a macrotask) and records the batches it was handed. */
function fakeRunner(
  name: string,
  log: string[],
  options: { delayMs?: number; sentences?: boolean; failOn?: (texts: string[]) => boolean } = {},
): PoolRunner & { handed: string[][] } {
  const handed: string[][] = [];
  return {
    handed,
    run: (texts) => {
      handed.push(texts);
      log.push(`${name} start ${texts[0]}`);
      return new Promise((resolve, reject) =>
        setTimeout(() => {
          log.push(`${name} end ${texts[0]}`);
          if (options.failOn?.(texts)) reject(new Error(`${name} failed`));
          else resolve(fakeBatch(texts, options.sentences ?? false));
        }, options.delayMs ?? 1),
      );
    },
  };
}

const TEXTS = Array.from({ length: 23 }, (_, i) => `text ${i}${'.'.repeat(i % 3)}`);
/** Batches as the embedder forms them: any fixed partition of the indices (here: a scrambled order, 5 a batch). */
const ORDER = TEXTS.map((_, i) => (i * 7) % TEXTS.length);
const BATCHES = Array.from({ length: Math.ceil(ORDER.length / 5) }, (_, b) => ORDER.slice(b * 5, b * 5 + 5));

describe('embedOnPool (fake runners)', () => {
  it('returns every text’s vector in text order, the same from one runner as from three', async () => {
    const expected = Float32Array.from(TEXTS.flatMap(vectorOf));
    const alone = await embedOnPool(TEXTS, BATCHES, [fakeRunner('own', [])]);
    const log: string[] = [];
    const runners = [fakeRunner('own', log, { delayMs: 3 }), fakeRunner('h1', log), fakeRunner('h2', log)];
    const pooled = await embedOnPool(TEXTS, BATCHES, runners);
    expect(Array.from(alone.data)).toEqual(Array.from(expected));
    expect(Array.from(pooled.data)).toEqual(Array.from(expected));
    expect(pooled.dim).toBe(DIM);
    // Every batch was embedded exactly once, whole, and the helpers did take some.
    const handed = runners.flatMap((r) => r.handed);
    expect(handed).toHaveLength(BATCHES.length);
    expect(handed.map((t) => t.join('|')).sort()).toEqual(
      BATCHES.map((b) => b.map((i) => TEXTS[i]).join('|')).sort(),
    );
    expect(runners[1].handed.length + runners[2].handed.length).toBeGreaterThan(0);
  });

  it('assembles sentence vectors per text in text order, whichever runner embedded each batch', async () => {
    const runners = [
      fakeRunner('own', [], { sentences: true, delayMs: 2 }),
      fakeRunner('h1', [], { sentences: true }),
    ];
    const pooled = await embedOnPool(TEXTS, BATCHES, runners);
    const rows = TEXTS.map(sentencesOf);
    expect(Array.from(pooled.sentences!.counts)).toEqual(rows.map((r) => r.length));
    expect(Array.from(pooled.sentences!.data)).toEqual(rows.flat(2));
  });

  it(`hands a helper ${HELPER_DEPTH} batches before it answers one, its own runner one at a time`, async () => {
    const log: string[] = [];
    // The own runner is slow: while it works, the helper must already hold its next batch.
    const own = fakeRunner('own', log, { delayMs: 40 });
    const helper = fakeRunner('h1', log, { delayMs: 5 });
    await embedOnPool(TEXTS, BATCHES, [own, helper]);
    let helperOutstanding = 0;
    let ownOutstanding = 0;
    let helperMax = 0;
    let ownMax = 0;
    for (const line of log) {
      const [name, what] = line.split(' ');
      const delta = what === 'start' ? 1 : -1;
      if (name === 'own') ownMax = Math.max(ownMax, (ownOutstanding += delta));
      else helperMax = Math.max(helperMax, (helperOutstanding += delta));
    }
    expect(helperMax).toBe(HELPER_DEPTH);
    expect(ownMax).toBe(1);
    // The fast helper did most of the work.
    expect(helper.handed.length).toBeGreaterThan(own.handed.length);
  });

  it('gives a failing helper’s batch to the others and stops using that helper', async () => {
    const log: string[] = [];
    const own = fakeRunner('own', log, { delayMs: 2 });
    const broken = fakeRunner('h1', log, { failOn: () => true });
    const pooled = await embedOnPool(TEXTS, BATCHES, [own, broken]);
    expect(Array.from(pooled.data)).toEqual(TEXTS.flatMap(vectorOf));
    // It failed on what it was handed (at most its depth at once), and was handed nothing after.
    expect(broken.handed.length).toBeLessThanOrEqual(HELPER_DEPTH);
    expect(own.handed).toHaveLength(BATCHES.length);

    // A helper that fails once (and would then succeed) is dropped too: only what it already held finishes.
    let failures = 0;
    const flaky = fakeRunner('h2', log, { failOn: () => failures++ === 0 });
    const again = await embedOnPool(TEXTS, BATCHES, [fakeRunner('own', log, { delayMs: 2 }), flaky]);
    expect(Array.from(again.data)).toEqual(TEXTS.flatMap(vectorOf));
    expect(flaky.handed.length).toBeLessThanOrEqual(HELPER_DEPTH);
  });

  it('never hands a batch to a helper whose model did not load', async () => {
    const helper = { ...fakeRunner('h1', []), ready: Promise.resolve(false) };
    const own = fakeRunner('own', []);
    await embedOnPool(TEXTS, BATCHES, [own, helper]);
    expect(helper.handed).toHaveLength(0);
    expect(own.handed).toHaveLength(BATCHES.length);
  });

  it('does not wait for a helper still loading once its own runner has embedded every batch', async () => {
    const texts = ['a.', 'bb.', 'ccc.', 'dddd.'];
    const own = fakeRunner('own', []);
    let finishLoad!: (ok: boolean) => void;
    const helper = { ...fakeRunner('h1', []), ready: new Promise<boolean>((r) => (finishLoad = r)) };
    // The helper's load never ends during the call: the call must still return, all of it from its own runner.
    const result = await embedOnPool(
      texts,
      [
        [0, 1],
        [2, 3],
      ],
      [own, helper],
    );
    expect(Array.from(result.data)).toEqual(texts.flatMap(vectorOf));
    expect(helper.handed).toEqual([]);
    expect(own.handed.length).toBe(2);
    // Loaded later, it takes part in the next call.
    finishLoad(true);
    const own2 = { ...fakeRunner('own', [], { delayMs: 20 }) };
    await embedOnPool(texts, [[0], [1], [2], [3]], [own2, helper]);
    expect(helper.handed.length).toBeGreaterThan(0);
  });

  it('fails with its own runner’s error, and stops between batches when aborted', async () => {
    const own = fakeRunner('own', [], { failOn: (texts) => texts.includes(TEXTS[ORDER[10]]) });
    await expect(embedOnPool(TEXTS, BATCHES, [own])).rejects.toThrow('own failed');

    const controller = new AbortController();
    const slow = fakeRunner('own', [], { delayMs: 2 });
    const run = embedOnPool(TEXTS, BATCHES, [slow], {
      signal: controller.signal,
      onBatch: (done) => {
        if (done >= 10) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(slow.handed.length).toBe(2);
  });

  it('reports texts done after each batch, up to all of them', async () => {
    const done: number[] = [];
    await embedOnPool(TEXTS, BATCHES, [fakeRunner('own', []), fakeRunner('h1', [])], {
      onBatch: (n) => done.push(n),
    });
    expect(done).toHaveLength(BATCHES.length);
    expect(done.every((n, i) => i === 0 || n > done[i - 1])).toBe(true);
    expect(done[done.length - 1]).toBe(TEXTS.length);
  });
});

describe('embedWorkerPlan', () => {
  it('uses two workers where two cores exist, sharing the cores out as threads when isolated', () => {
    expect(embedWorkerPlan(2, true)).toEqual({ workers: 2, threads: 1 });
    expect(embedWorkerPlan(8, true)).toEqual({ workers: 2, threads: 4 });
    expect(embedWorkerPlan(3, true)).toEqual({ workers: 2, threads: 1 });
    expect(embedWorkerPlan(8, false)).toEqual({ workers: 2, threads: 1 });
    expect(embedWorkerPlan(1, true)).toEqual({ workers: 1, threads: 1 });
    expect(embedWorkerPlan(0, true)).toEqual({ workers: 1, threads: 1 });
    expect(embedWorkerPlan(Number.NaN, true)).toEqual({ workers: 1, threads: 1 });
  });
});
