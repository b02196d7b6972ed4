/**
 * One kind of model load at a time per realm. transformers.js decides where each file of a model comes from by
 * two switches of its one `env` per JavaScript realm (`allowLocalModels`, `allowRemoteModels`), and reads them as
 * each file is fetched, not once when the load starts. A load of the app's own model (local: the app's origin
 * only) and a load of a hub model (the hub only) running side by side in one worker therefore steered each other's
 * files: the offline model a warm-up was loading had its weights asked of the model hub once a build set the
 * switches for its hub model, and failed ("Failed to fetch") — the very model the build then fell back to.
 *
 * The gate lets loads of one kind run together (they want the same switches) and makes a load of the other kind
 * wait until every load of the running kind has settled; the switches are set as each load starts. The price:
 * a load waits for the other source's loads to end, e.g. the offline model asked for while a hub model is still
 * downloading waits for that download (before, it started at once and made the download fail). Loads from the
 * app's folder, the common wait, take a second or two.
 */

/** Where a model's files come from: the app's own models folder or the model hub. */
export type ModelFileSource = 'local' | 'hub';

/** The running kind's turn: how many of its loads are running, and a promise settled when they all have. */
interface Turn {
  source: ModelFileSource;
  running: number;
  done: Promise<void>;
  end: () => void;
}

/** See the module comment. `apply` sets the realm's switches for a source. */
export class ModelSourceGate {
  private turn?: Turn;

  constructor(private readonly apply: (source: ModelFileSource) => void) {}

  /** The source whose loads are running now, if any. */
  get running(): ModelFileSource | undefined {
    return this.turn?.source;
  }

  /**
   * Runs `load` once no load of the other source is running, with the switches set for `source` throughout
   * (until `load` settles). Loads of the same source run together.
   */
  async run<T>(source: ModelFileSource, load: () => Promise<T>): Promise<T> {
    while (this.turn && this.turn.source !== source) await this.turn.done;
    if (!this.turn) {
      let end!: () => void;
      const done = new Promise<void>((resolve) => (end = resolve));
      this.turn = { source, running: 0, done, end };
    }
    const turn = this.turn;
    this.apply(source);
    turn.running++;
    try {
      return await load();
    } finally {
      turn.running--;
      if (turn.running === 0) {
        this.turn = undefined;
        turn.end();
      }
    }
  }
}
