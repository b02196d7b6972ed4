/**
 * The decode scheduler with a FAKE engine (scripted tokens, a fake clock, a log of forward passes): batches of
 * summaries that each finish on their own, a question that waits only for the pass in progress, cancellation
 * out of a batch or a queue, failures, the cache budget, the timing shares and the warm-up's measurement.
 */
import { describe, expect, it } from 'vitest';
import {
  DecodeScheduler,
  type DecodeEngine,
  type DecodeJob,
  type EngineBatch,
} from '../../../src/models/generate';

const END = 0;
/** Milliseconds a fake forward pass takes on the fake clock. */
const PASS_MS = 10;

interface FakeJob extends DecodeJob {
  name: string;
  /** What the fake model writes for this prompt, token by token. */
  script: number[];
}

interface FakeRow {
  job: FakeJob;
  /** Tokens written so far. */
  at: number;
  padded: boolean;
}

/** A scripted engine: every pass is logged, takes PASS_MS on its clock and yields to the event loop. */
class FakeEngine implements DecodeEngine<FakeJob, FakeRow> {
  readonly log: string[] = [];
  clock = 0;
  released = 0;
  readonly cacheBytesPerPosition = 1;
  /** Batched steps of more than one row write garbage (a graph that ignores the padding mask). */
  ignoresPadding = false;
  /** A step of these rows throws. */
  failOn?: string;

  private async pass(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.clock += PASS_MS;
  }

  async prefill(job: FakeJob): Promise<{ row: FakeRow; token: number }> {
    this.log.push(`prefill ${job.name}`);
    await this.pass();
    return { row: { job, at: 1, padded: false }, token: job.script[0] };
  }

  batch(): EngineBatch<FakeRow> {
    return {
      step: async (rows) => {
        const names = rows.map((r) => r.job.name).join(',');
        this.log.push(`step ${names}`);
        await this.pass();
        if (this.failOn === names) throw new Error('the fake model failed');
        return rows.map((r) => (this.ignoresPadding && rows.length > 1 ? 999 : (r.job.script[r.at++] ?? 7)));
      },
      clear: () => undefined,
    };
  }

  fork(row: FakeRow, count: number): FakeRow[] {
    return Array.from({ length: count }, () => ({ ...row, padded: true }));
  }

  release(): void {
    this.released++;
  }

  isEnd(token: number): boolean {
    return token === END;
  }
}

function job(name: string, script: number[], extra: Partial<FakeJob> = {}): FakeJob {
  return { name, script, promptTokens: 10, maxNewTokens: 100, lane: 'bulk', ...extra };
}

function scheduler(engine: FakeEngine, batchSize = 3, cacheBudgetBytes = 1e9) {
  return new DecodeScheduler(engine, { batchSize, cacheBudgetBytes, now: () => engine.clock });
}

describe('DecodeScheduler (fake engine)', () => {
  it('writes up to batchSize summaries together; each ends on its own and a waiting one takes its row', async () => {
    const engine = new FakeEngine();
    const s = scheduler(engine, 3);
    const results = await Promise.all([
      s.submit(job('a', [1, 2, 3, 4, 5], { maxNewTokens: 5 })),
      s.submit(job('b', [1, 2, END])),
      s.submit(job('c', [1, 2, 3, 4, 5, 6], { maxNewTokens: 6 })),
      s.submit(job('d', [1, 2, END])),
    ]);
    expect(results.map((r) => [r.tokens, r.finishReason])).toEqual([
      [[1, 2, 3, 4, 5], 'length'],
      [[1, 2, END], 'stop'],
      [[1, 2, 3, 4, 5, 6], 'length'],
      [[1, 2, END], 'stop'],
    ]);
    expect(engine.log).toEqual([
      'prefill a',
      'prefill b',
      'prefill c',
      'step a,b,c',
      'step a,b,c', // b ends here
      'prefill d', // d joins at once
      'step a,c,d',
      'step a,c,d', // a (5 tokens) and d end
      'step c',
    ]);
  });

  it('answers a question after the pass in progress, alone, then resumes the batch', async () => {
    const engine = new FakeEngine();
    const s = scheduler(engine, 2);
    let question: Promise<unknown> | undefined;
    const summaries = [
      s.submit(
        job('a', [1, 2, 3, 4, 5, 6], {
          maxNewTokens: 6,
          onToken: (_, count) => {
            if (count === 3) {
              question = s.submit(job('q', [8, 8, END], { lane: 'interactive' }));
            }
          },
        }),
      ),
      s.submit(job('b', [1, 2, 3, 4, 5, 6], { maxNewTokens: 6 })),
    ];
    await Promise.all(summaries);
    await question;
    expect(engine.log).toEqual([
      'prefill a',
      'prefill b',
      'step a,b',
      'step a,b', // a's third token: the question arrives
      'prefill q',
      'step q',
      'step q', // the question ends
      'step a,b',
      'step a,b',
      'step a,b',
    ]);
  });

  it('lets a cancelled summary leave the batch; the others write every token', async () => {
    const engine = new FakeEngine();
    const s = scheduler(engine, 3);
    const controller = new AbortController();
    const b = s.submit(
      job('b', [1, 2, 3, 4, 5], {
        maxNewTokens: 5,
        signal: controller.signal,
        onToken: (_, count) => count === 2 && controller.abort(),
      }),
    );
    const others = [s.submit(job('a', [1, 2, 3, 4, 5], { maxNewTokens: 5 }))];
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    others.push(s.submit(job('c', [1, 2, 3], { maxNewTokens: 3 })));
    const done = await Promise.all(others);
    expect(done.map((r) => r.tokens)).toEqual([
      [1, 2, 3, 4, 5],
      [1, 2, 3],
    ]);
    // b's last step was its second token; it is never stepped again.
    expect(engine.log.filter((l) => l.includes('b'))).toEqual(['prefill b', 'step b,a']);
    expect(engine.released).toBeGreaterThanOrEqual(3);
  });

  it('takes a cancelled summary out of the queue before it is read', async () => {
    const engine = new FakeEngine();
    const s = scheduler(engine, 1);
    const controller = new AbortController();
    const first = s.submit(job('a', [1, 2, 3], { maxNewTokens: 3 }));
    const waiting = s.submit(job('b', [1, 2], { signal: controller.signal }));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await first;
    expect(engine.log.some((l) => l.includes('b'))).toBe(false);
    await expect(s.submit(job('c', [1], { signal: AbortSignal.abort() }))).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('fails the rows of a failed step, and goes on with the next summaries', async () => {
    const engine = new FakeEngine();
    engine.failOn = 'a,b';
    const s = scheduler(engine, 2);
    const failed = [s.submit(job('a', [1, 2, 3])), s.submit(job('b', [1, 2, 3]))];
    for (const f of failed) await expect(f).rejects.toThrow('the fake model failed');
    const next = await s.submit(job('c', [1, 2, END]));
    expect(next.tokens).toEqual([1, 2, END]);
  });

  it('keeps the batch’s cache within its budget: a long prompt waits for a smaller batch, shorter ones go first', async () => {
    const engine = new FakeEngine();
    // 1 byte a position: two rows of 10 + 4 fit in 40 bytes, three do not, nor the 30-position prompt with one.
    const s = scheduler(engine, 3, 40);
    const results = await Promise.all([
      s.submit(job('a', [1, 2, 3, 4], { maxNewTokens: 4 })),
      s.submit(job('long', [1, 2], { maxNewTokens: 2, promptTokens: 30 })),
      s.submit(job('b', [1, 2, 3, 4], { maxNewTokens: 4 })),
    ]);
    expect(results.every((r) => r.tokens.length > 0)).toBe(true);
    expect(engine.log).toEqual([
      'prefill a',
      'prefill b', // the long prompt is passed over: it would make every row 32 positions long
      'step a,b',
      'step a,b',
      'step a,b',
      'prefill long', // alone once the batch is empty
      'step long',
    ]);
  });

  it('times each reply: its own prompt, its wall time, and its share of the steps', async () => {
    const engine = new FakeEngine();
    const s = scheduler(engine, 2);
    const [a, b] = await Promise.all([
      s.submit(job('a', [1, 2, 3], { maxNewTokens: 3 })),
      s.submit(job('b', [1, 2, 3], { maxNewTokens: 3 })),
    ]);
    // a: prefill 10 ms, then b's prefill (10 ms) and two shared steps (2 × 10 ms).
    expect(a.timing).toEqual({
      prefillMs: 10,
      decodeMs: 30,
      decodeShareMs: 10,
      totalMs: 40,
      meanBatchRows: 2,
    });
    expect(a.timing.decodeShareMs + b.timing.decodeShareMs).toBe(2 * PASS_MS);
  });

  it('measures the warm-up: one row, then padded rows, and notices a model that ignores padding', async () => {
    const engine = new FakeEngine();
    const s = scheduler(engine, 4);
    const m = await s.measure(job('w', [1, 2, 3, 4, 5, 6, 7, 8]), {
      singleSteps: 3,
      batchedSteps: 2,
      rows: 4,
    });
    expect(m).toEqual({
      promptTokens: 10,
      prefillMs: PASS_MS,
      single: { steps: 3, ms: 3 * PASS_MS },
      batched: { rows: 4, steps: 2, ms: 2 * PASS_MS },
      paddingMasked: true,
    });
    expect(engine.log).toEqual(['prefill w', 'step w', 'step w', 'step w', 'step w,w,w,w', 'step w,w,w,w']);
    engine.ignoresPadding = true;
    const broken = await s.measure(job('w', [1, 2, 3]), { singleSteps: 1, batchedSteps: 1, rows: 2 });
    expect(broken.paddingMasked).toBe(false);
  });
});
