/**
 * The loaded model of a service, loaded once: calls that ask for the same choice (by key) share one load, another
 * choice replaces it, a failed load is forgotten so the next call retries, and a model whose WebGPU work fails
 * moves to the CPU by the one rule (`GpuExit`). The embed service holds two (its embedder and its reranker), the
 * generate service one. What differs between them is the slot's `LoadPolicy`, nothing else.
 */
import { GpuExit, type DeviceFallback, type GpuDevice, type GpuResident } from '../device';

/** How a slot loads and replaces its model: the one thing the services do differently. */
export interface LoadPolicy {
  /**
   * When the model loaded before is freed as another choice loads:
   * - 'at-once' (the generate service, the reranker): at once; a failed load leaves nothing loaded.
   * - 'once-loaded' (the embedder): when the new one has loaded; a failed load makes the one before it current
   *   again (a hub model found unreachable leaves the offline model a warm-up loaded, which a build then uses).
   */
  replace: 'at-once' | 'once-loaded';
  /**
   * Which move off WebGPU the calls that fail share:
   * - 'per-load' (the embed service): each loaded model has its own;
   * - 'per-service' (the generate service): one for the slot, remembering its last move.
   */
  exit: 'per-load' | 'per-service';
  /**
   * Called before another choice replaces `current` (e.g. the embedder refuses while calls are in flight on it).
   * Throwing leaves the current model loaded.
   */
  beforeReplace?(current: SlotEntry<GpuResident>, requested: { key: string; name: string }): void;
}

/** One loaded model of a slot: the keys of the choices it serves and the calls in flight on it. */
export interface SlotEntry<M extends GpuResident> {
  /** The choices (by key) this model serves: the one that loaded it, and those `aliases` and moves added. */
  readonly keys: Set<string>;
  /** The model's name, for messages. */
  readonly name: string;
  /** The model; after a move off WebGPU, its CPU copy. */
  model: Promise<M>;
  /** Calls in flight on it (`ModelSlot.use`). */
  inFlight: number;
}

/** An entry with what only the slot sees. */
interface Entry<M extends GpuResident> extends SlotEntry<M> {
  exit: GpuExit<M>;
  /** 'once-loaded': the entry that was current when this one started loading, kept until this one has loaded. */
  previous?: Entry<M>;
  failed?: boolean;
}

/** What `ModelSlot.ensure` loads. */
export interface SlotLoad<M> {
  /** The model's name, for messages. */
  name: string;
  /** Loads the model (called once per replacement). */
  load: () => Promise<M>;
  /** Further keys the loaded model serves (e.g. its choice with the dtype or device it settled on). */
  aliases?: (loaded: M) => string[];
}

/** The one loaded model of a service (see the module comment). */
export class ModelSlot<M extends GpuResident> {
  private entry?: Entry<M>;
  /** 'per-service': the move every entry shares. */
  private readonly sharedExit: GpuExit<M>;

  constructor(
    private readonly gpu: GpuDevice,
    private readonly policy: LoadPolicy,
  ) {
    this.sharedExit = new GpuExit<M>(gpu);
  }

  /** The current entry (loading, loaded or moved), if any. */
  get current(): SlotEntry<M> | undefined {
    return this.entry;
  }

  /**
   * The entry serving `key`, loading `what` if the current one does not (the policy says when the one before is
   * freed and what a failed load leaves).
   * @throws what `policy.beforeReplace` throws.
   */
  ensure(key: string, what: SlotLoad<M>): SlotEntry<M> {
    if (this.entry?.keys.has(key)) return this.entry;
    if (this.entry) this.policy.beforeReplace?.(this.entry, { key, name: what.name });
    const previous = this.entry;
    const model = what.load();
    const entry: Entry<M> = {
      keys: new Set([key]),
      name: what.name,
      model,
      inFlight: 0,
      exit: this.policy.exit === 'per-service' ? this.sharedExit : new GpuExit<M>(this.gpu),
    };
    this.entry = entry;
    if (this.policy.replace === 'once-loaded') this.replaceOnceLoaded(entry, previous, what);
    else this.replaceAtOnce(entry, previous, what);
    return entry;
  }

  private replaceAtOnce(entry: Entry<M>, previous: Entry<M> | undefined, what: SlotLoad<M>): void {
    const { model } = entry;
    void model.then(
      (loaded) => what.aliases?.(loaded).forEach((k) => entry.keys.add(k)),
      () => undefined,
    );
    // A failed load is forgotten, so the next call retries instead of replaying the failure.
    model.catch(() => {
      if (this.entry === entry) this.entry = undefined;
    });
    void previous?.model.then((m) => m.dispose()).catch(() => undefined);
  }

  private replaceOnceLoaded(entry: Entry<M>, previous: Entry<M> | undefined, what: SlotLoad<M>): void {
    entry.previous = previous;
    entry.model.then(
      (loaded) => {
        what.aliases?.(loaded).forEach((k) => entry.keys.add(k));
        // Every model kept for a failed load's sake is done with now.
        for (let old = entry.previous; old; old = old.previous)
          void old.model.then((m) => m.dispose()).catch(() => undefined);
        entry.previous = undefined;
      },
      // A failed load is forgotten; the model current before it is current again (unless its own load failed).
      () => {
        entry.failed = true;
        if (this.entry !== entry) return;
        this.entry = previous && !previous.failed ? previous : undefined;
      },
    );
  }

  /** Runs `work` counted as a call in flight on `entry` (see `LoadPolicy.beforeReplace`). */
  async use<T>(entry: SlotEntry<M>, work: () => Promise<T>): Promise<T> {
    entry.inFlight++;
    try {
      return await work();
    } finally {
      entry.inFlight--;
    }
  }

  /**
   * Moves `from` (the model of `entry`) from WebGPU to the CPU after `error`, by the one rule (`GpuExit.leave`):
   * `loadOnCpu` loads the same weights there; `entry` then serves the CPU copy, under `keys` too. With no entry
   * (the model was unloaded meanwhile) the move is not shared: the earlier CPU copy was freed with it.
   * @throws `error` when it is not a GPU problem or `from` was not on WebGPU.
   */
  leave(
    entry: SlotEntry<M> | undefined,
    from: M,
    error: unknown,
    loadOnCpu: (fallback: DeviceFallback) => Promise<M>,
    keys: readonly string[] = [],
  ): Promise<M> {
    const exit = entry && this.policy.exit === 'per-load' ? (entry as Entry<M>).exit : this.sharedExit;
    return exit.leave(from, error, {
      loadOnCpu,
      onMove: (to) => {
        if (!entry) return;
        entry.model = to;
        keys.forEach((k) => entry.keys.add(k));
      },
      reuse: entry !== undefined,
    });
  }

  /** The loaded model, if any (undefined while none is, or when its load failed). */
  async loaded(): Promise<M | undefined> {
    return this.entry ? await this.entry.model.catch(() => undefined) : undefined;
  }

  /** Frees the loaded model. */
  async unload(): Promise<void> {
    const previous = this.entry;
    this.entry = undefined;
    await previous?.model.then((m) => m.dispose()).catch(() => undefined);
  }
}
