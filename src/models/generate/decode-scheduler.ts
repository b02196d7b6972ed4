/**
 * Who the language model decodes for, and with whom. Two lanes share one model:
 * - `interactive` (a person's question): one reply at a time, always first. It waits only for the forward pass
 *   in progress (one decoding step of the batch, or the reading of one summary prompt), then runs alone while
 *   the batch waits with its cache in memory.
 * - `bulk` (a build's summaries): up to `batchSize` replies decoded together, each step one forward pass for all
 *   of them, so the weights are read once per step instead of once per reply and token. A reply reads its
 *   prompt alone (exactly as it would unbatched), then joins the batch; it streams, finishes, or is cancelled on
 *   its own, and its row leaves the batch without stopping the others. Waiting replies join as soon as a row is
 *   free and the batch's cache stays within `cacheBudgetBytes` (first fit in arrival order, so a long prompt
 *   waits for a smaller batch instead of padding every row to its length).
 * The model work itself is a `DecodeEngine` (onnx-decoder.ts); this module only schedules, times and settles,
 * so it is unit-tested with a fake engine.
 */
import { AbortError, abortErrorOf, onAbort, type AbortSignalLike } from '../../core/abort';

/** The two queues: a person's question (alone, first) or a build's summaries (batched). */
export type DecodeLane = 'interactive' | 'bulk';

/** What the scheduler needs to know of a reply to write. */
export interface DecodeJob {
  /** Tokens of the (chat-templated) prompt: the positions its cache starts with. */
  readonly promptTokens: number;
  /** Most tokens to write (a positive integer). */
  readonly maxNewTokens: number;
  readonly lane: DecodeLane;
  /** Stops the reply before its next token; it then leaves its queue or its batch. */
  readonly signal?: AbortSignalLike;
  /** Each token as it is chosen, with the count so far. A callback that throws fails this reply only. */
  readonly onToken?: (token: number, count: number) => void;
}

/** Rows decoded together: one step writes one token for each. */
export interface EngineBatch<Row> {
  /**
   * One token more for each of `rows`, in order. These are the batch's rows from now on: a row no longer listed
   * leaves its cache, a new one (prefilled) joins it.
   */
  step(rows: readonly Row[]): Promise<number[]>;
  /** Frees the batch's cache. */
  clear(): void;
}

/** The model work the scheduler drives. */
export interface DecodeEngine<Job extends DecodeJob, Row> {
  /** Reads the job's prompt alone (a batch of one) and chooses its first token. */
  prefill(job: Job): Promise<{ row: Row; token: number }>;
  /** A new, empty batch. */
  batch(): EngineBatch<Row>;
  /** `count` rows that continue `row` independently from its prompt (for the warm-up's batched timing). */
  fork(row: Row, count: number): Row[];
  /** Frees what a row still holds of its own (its prompt's cache, if it never joined a batch). Idempotent. */
  release(row: Row): void;
  /** Whether `token` ends a reply (an end-of-turn token). */
  isEnd(token: number): boolean;
  /** Bytes of cache per position of one row (keys and values of every layer). */
  readonly cacheBytesPerPosition: number;
}

/** Where the time of a reply went, in milliseconds. */
export interface DecodeTiming {
  /** Reading its prompt and choosing its first token (alone, so never shared). */
  prefillMs: number;
  /** From its first token to its last, wall time (includes other replies' prompts read meanwhile). */
  decodeMs: number;
  /** Its share of the decoding steps it took part in: each step's time divided among that step's rows. */
  decodeShareMs: number;
  /** From the start of its prefill to its end. */
  totalMs: number;
  /** Mean rows of the steps it took part in (1 when it ran alone). */
  meanBatchRows: number;
}

/** A written reply: its tokens (an end token included), why it ended, and its timing. */
export interface DecodeOutcome {
  tokens: number[];
  finishReason: 'stop' | 'length';
  timing: DecodeTiming;
}

/** The warm-up's batched measurement (`DecodeScheduler.measure`). */
export interface BatchMeasurement {
  promptTokens: number;
  prefillMs: number;
  /** Steps of one row and their time. */
  single: { steps: number; ms: number };
  /** Steps of `rows` rows and their time (`rows` 1: not measured, same as single). */
  batched: { rows: number; steps: number; ms: number };
  /**
   * Whether the batched rows, left-padded, wrote the lone row's token at their first step. A model whose graph
   * ignored the attention mask over padding would write other tokens: it must not be batched.
   */
  paddingMasked: boolean;
}

/** How the scheduler batches. */
export interface SchedulerOptions {
  /** Most replies of the bulk lane decoded together (1: one at a time). */
  batchSize: number;
  /** Most bytes the bulk batch's cache may reach (a lone reply is always admitted). */
  cacheBudgetBytes: number;
  /** Clock in ms (tests pass a fake one). Default `performance.now`. */
  now?: () => number;
}

interface Entry<Job, Row> {
  job: Job;
  row?: Row;
  tokens: number[];
  settled: boolean;
  startedAt: number;
  firstAt: number;
  lastAt: number;
  shareMs: number;
  stepRows: number;
  steps: number;
  resolve: (outcome: DecodeOutcome) => void;
  reject: (error: unknown) => void;
  unsubscribe: () => void;
}

/** Exclusive work between forward passes (the warm-up's measurement). */
interface Task {
  run: () => Promise<void>;
}

const LANES: readonly DecodeLane[] = ['interactive', 'bulk'];

/**
 * Lets the event loop run: a forward pass of ONNX Runtime's WebAssembly resolves in microtasks, so without a
 * macrotask between passes a worker would not see a cancel, a question or a new summary (each a message) until
 * the whole batch ended. setTimeout(0) costs at most a few milliseconds (nested timers are clamped to 4 ms)
 * against a pass of 100 ms or more.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Schedules replies over one engine. See the module comment. */
export class DecodeScheduler<Job extends DecodeJob, Row> {
  private readonly waiting: Record<DecodeLane, Entry<Job, Row>[]> = { interactive: [], bulk: [] };
  private readonly active: Record<DecodeLane, Entry<Job, Row>[]> = { interactive: [], bulk: [] };
  private readonly batches: Record<DecodeLane, EngineBatch<Row>>;
  private readonly tasks: Task[] = [];
  private pumping = false;
  private readonly now: () => number;

  constructor(
    private readonly engine: DecodeEngine<Job, Row>,
    private options: SchedulerOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.batches = { interactive: engine.batch(), bulk: engine.batch() };
  }

  /** Most replies of the bulk lane decoded together. */
  get batchSize(): number {
    return Math.max(1, Math.floor(this.options.batchSize));
  }

  /** Changes the batch size for the replies admitted from now on. */
  set batchSize(size: number) {
    this.options = { ...this.options, batchSize: size };
  }

  /**
   * Writes one reply. Rejects with an AbortError as soon as `job.signal` fires (its row leaves the batch before
   * the next step), or with the engine's error (a failed step fails every row of that step).
   */
  submit(job: Job): Promise<DecodeOutcome> {
    return new Promise<DecodeOutcome>((resolve, reject) => {
      if (job.signal?.aborted) {
        reject(abortErrorOf(job.signal));
        return;
      }
      const entry: Entry<Job, Row> = {
        job,
        tokens: [],
        settled: false,
        startedAt: 0,
        firstAt: 0,
        lastAt: 0,
        shareMs: 0,
        stepRows: 0,
        steps: 0,
        resolve,
        reject,
        unsubscribe: () => undefined,
      };
      entry.unsubscribe = onAbort(job.signal, () => {
        const queue = this.waiting[job.lane];
        const at = queue.indexOf(entry);
        if (at >= 0) queue.splice(at, 1);
        this.fail(entry, abortErrorOf(job.signal));
      });
      this.waiting[job.lane].push(entry);
      void this.pump();
    });
  }

  /**
   * Times `job` as the warm-up does, between other work: its prompt alone, `singleSteps` steps of that one
   * row, then `batchedSteps` steps of `rows` rows continuing the same prompt (the batch's cost per step).
   */
  measure(
    job: Job,
    options: { singleSteps: number; batchedSteps: number; rows: number },
  ): Promise<BatchMeasurement> {
    return this.exclusive(async () => {
      const started = this.now();
      const { row } = await this.engine.prefill(job);
      const prefillMs = this.now() - started;
      const rows = Math.max(1, Math.floor(options.rows));
      const [alone, ...copies] = this.engine.fork(row, 1 + rows);
      /** `steps` steps of `batchRows`; the time, and the tokens of the first step. */
      const time = async (batchRows: Row[], steps: number) => {
        const batch = this.engine.batch();
        let first: number[] = [];
        try {
          const at = this.now();
          for (let s = 0; s < steps; s++) {
            if (job.signal?.aborted) throw abortErrorOf(job.signal);
            const tokens = await batch.step(batchRows);
            if (s === 0) first = tokens;
          }
          return { ms: this.now() - at, first };
        } finally {
          batch.clear();
          for (const r of batchRows) this.engine.release(r);
        }
      };
      try {
        const single = await time([alone], Math.max(1, options.singleSteps));
        const batched = rows > 1 ? await time(copies, Math.max(1, options.batchedSteps)) : undefined;
        return {
          promptTokens: job.promptTokens,
          prefillMs,
          single: { steps: Math.max(1, options.singleSteps), ms: single.ms },
          batched: batched
            ? { rows, steps: Math.max(1, options.batchedSteps), ms: batched.ms }
            : { rows: 1, steps: Math.max(1, options.singleSteps), ms: single.ms },
          paddingMasked: !batched || batched.first.every((t) => t === single.first[0]),
        };
      } finally {
        for (const r of [alone, ...copies]) this.engine.release(r);
      }
    }, job.signal);
  }

  /** Runs `work` alone, between forward passes, before any waiting reply. */
  private exclusive<T>(work: () => Promise<T>, signal?: AbortSignalLike): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortErrorOf(signal));
        return;
      }
      const task: Task = {
        run: () => {
          stop();
          return work().then(resolve, reject);
        },
      };
      const stop = onAbort(signal, () => {
        const at = this.tasks.indexOf(task);
        if (at >= 0) this.tasks.splice(at, 1);
        reject(abortErrorOf(signal));
      });
      this.tasks.push(task);
      void this.pump();
    });
  }

  /** Marks a reply settled and frees what its row holds of its own (a batch's rows go at its next step). */
  private settle(entry: Entry<Job, Row>): boolean {
    if (entry.settled) return false;
    entry.settled = true;
    entry.unsubscribe();
    if (entry.row !== undefined) this.engine.release(entry.row);
    return true;
  }

  /** Rejects a reply (once). */
  private fail(entry: Entry<Job, Row>, error: unknown): void {
    if (this.settle(entry)) entry.reject(error);
  }

  /** Resolves a reply (once). */
  private finish(entry: Entry<Job, Row>, finishReason: DecodeOutcome['finishReason']): void {
    if (!this.settle(entry)) return;
    const end = this.now();
    entry.resolve({
      tokens: entry.tokens,
      finishReason,
      timing: {
        prefillMs: entry.firstAt - entry.startedAt,
        decodeMs: entry.lastAt - entry.firstAt,
        decodeShareMs: entry.shareMs,
        totalMs: end - entry.startedAt,
        meanBatchRows: entry.steps > 0 ? entry.stepRows / entry.steps : 1,
      },
    });
  }

  /** Takes a chosen token: streams it, and ends the reply at an end token or at its limit. */
  private accept(entry: Entry<Job, Row>, token: number): void {
    if (entry.settled) return;
    entry.tokens.push(token);
    entry.lastAt = this.now();
    try {
      entry.job.onToken?.(token, entry.tokens.length);
    } catch (error) {
      this.fail(entry, error);
      return;
    }
    if (this.engine.isEnd(token)) this.finish(entry, 'stop');
    else if (entry.tokens.length >= entry.job.maxNewTokens) this.finish(entry, 'length');
  }

  /** The cache a batch of `entries` may reach before they all end, in bytes. */
  private peakBytes(entries: readonly Entry<Job, Row>[]): number {
    let positions = 0;
    let remaining = 0;
    for (const e of entries) {
      positions = Math.max(positions, e.job.promptTokens + e.tokens.length);
      remaining = Math.max(remaining, e.job.maxNewTokens - e.tokens.length);
    }
    return entries.length * (positions + remaining) * this.engine.cacheBytesPerPosition;
  }

  /** The next reply to read into `lane`'s batch, if one may join now. */
  private admissible(lane: DecodeLane): Entry<Job, Row> | undefined {
    const active = this.active[lane];
    const capacity = lane === 'interactive' ? 1 : this.batchSize;
    if (active.length >= capacity) return undefined;
    for (const entry of this.waiting[lane]) {
      if (active.length === 0 || this.peakBytes([...active, entry]) <= this.options.cacheBudgetBytes) {
        return entry;
      }
    }
    return undefined;
  }

  private async prefill(lane: DecodeLane, entry: Entry<Job, Row>): Promise<void> {
    const queue = this.waiting[lane];
    queue.splice(queue.indexOf(entry), 1);
    entry.startedAt = this.now();
    let prefilled: { row: Row; token: number };
    try {
      prefilled = await this.engine.prefill(entry.job);
    } catch (error) {
      this.fail(entry, error);
      return;
    }
    entry.row = prefilled.row;
    // Cancelled while its prompt was read: nothing joins.
    if (entry.settled) this.engine.release(prefilled.row);
    entry.firstAt = this.now();
    this.active[lane].push(entry);
    this.accept(entry, prefilled.token);
  }

  private async step(lane: DecodeLane): Promise<void> {
    const rows = this.active[lane];
    const batch = this.batches[lane];
    const started = this.now();
    let next: number[];
    try {
      next = await batch.step(rows.map((e) => e.row as Row));
    } catch (error) {
      for (const e of rows) this.fail(e, error);
      this.active[lane] = [];
      batch.clear();
      return;
    }
    const share = (this.now() - started) / rows.length;
    rows.forEach((entry, i) => {
      if (entry.settled) return;
      entry.shareMs += share;
      entry.stepRows += rows.length;
      entry.steps++;
      this.accept(entry, next[i]);
    });
  }

  /** Drops settled rows; frees a lane's cache once nothing is left in it. */
  private prune(lane: DecodeLane): void {
    this.active[lane] = this.active[lane].filter((e) => !e.settled);
    if (this.active[lane].length === 0) this.batches[lane].clear();
  }

  private nextLane(): DecodeLane | undefined {
    return LANES.find((lane) => this.active[lane].length > 0 || this.waiting[lane].length > 0);
  }

  /** The one loop that runs forward passes: tasks, then the interactive lane, then the bulk lane. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        await yieldToEventLoop();
        LANES.forEach((lane) => this.prune(lane));
        const task = this.tasks.shift();
        if (task) {
          await task.run();
          continue;
        }
        const lane = this.nextLane();
        if (!lane) break;
        const joining = this.admissible(lane);
        if (joining) await this.prefill(lane, joining);
        else if (this.active[lane].length > 0) await this.step(lane);
        else break;
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Rejects everything waiting or running (the model is being freed). */
  close(): void {
    for (const lane of LANES) {
      for (const e of [...this.waiting[lane], ...this.active[lane]]) {
        this.fail(e, new AbortError('The model was unloaded.'));
      }
      this.waiting[lane] = [];
      this.active[lane] = [];
      this.batches[lane].clear();
    }
  }
}
