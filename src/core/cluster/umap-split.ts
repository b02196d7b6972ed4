/**
 * The stable layout's epochs on two cores (issue #44): a large layer's global layout ran alone in the build
 * worker while the cluster workers waited (16 of the KJV's ~43 s of layer-1 clustering). Two earlier splits
 * lost (docs/build-time.md): an epoch's edges summed from one snapshot (Jacobi's order) lost stability, and
 * four quarters in three rounds an epoch kept it but paid 600 hand-offs between workers, more than the second
 * core gave. Here the hand-offs are few: one per SPLIT_EPOCHS_PER_ROUND epochs.
 *
 * The points are cut into two halves in their order (a layer's nodes are in document order; the cut depends
 * on n alone, never on the vectors, so a hair of noise cannot move a point to the other half). Each side owns
 * one half and keeps a copy of all the points. In a round, each side runs SPLIT_EPOCHS_PER_ROUND epochs, one
 * sample after another in the edges' order, over every edge that touches its half: its own points move as in
 * the one order (an edge between the halves pulls both of its points on both sides, so each point gets the
 * pull of every edge it is in), while its copy of the other half moves only by the edges it shares with it
 * and is put back to the other side's at the round's end. Every draw is the one order's (keyed by the edge,
 * the epoch and the sample). So the layout is the same bits whatever the timing, whether the far side runs in
 * a worker or in this thread (`FarLayout`). Only layers of at least SPLIT_LAYOUT_MIN_POINTS points take this
 * order; smaller ones (every novel's) keep one sample after another over all edges.
 */
import { Awaiting } from '../yield';
import type { NegativeRing } from './negative-ring';
import { createStableLayoutKernel } from './umap-kernel';
import { stableEpoch, type StableState } from './umap-stable';

/**
 * Fewest points whose stable layout runs in the split order. Below, a layout takes a few seconds (the 78k
 * book's 963 leaves, a novel's 1,300) and keeps its one order; the KJV's 12,462 leaves are above.
 */
export const SPLIT_LAYOUT_MIN_POINTS = 5000;

/**
 * Epochs between two hand-offs of the split layout: 20 hand-offs in the KJV's 200 epochs, where one per third
 * of an epoch (600) cost more than the second core gave.
 */
export const SPLIT_EPOCHS_PER_ROUND = 10;

/** The first point of the second half of `n` points. */
export function secondHalfStart(n: number): number {
  return Math.ceil(n / 2);
}

/** One side's edges of a split layout: every edge with a point in its half, in the edges' order. */
interface SideEdges {
  head: Int32Array;
  tail: Int32Array;
  periodLog2: Int32Array;
  scale: Float64Array;
  key: Uint32Array;
}

/** Each side's edges (an edge between the halves is on both). */
export function splitEdges(state: Pick<StableState, 'n' | 'head' | 'tail' | 'schedule'>): {
  near: SideEdges;
  far: SideEdges;
} {
  const { n, head, tail } = state;
  const { periodLog2, scale, key } = state.schedule;
  const half = secondHalfStart(n);
  const edges = head.length;
  const side = (inSide: (point: number) => boolean): SideEdges => {
    const picked: number[] = [];
    for (let e = 0; e < edges; e++) if (inSide(head[e]) || inSide(tail[e])) picked.push(e);
    return {
      head: Int32Array.from(picked, (e) => head[e]),
      tail: Int32Array.from(picked, (e) => tail[e]),
      periodLog2: Int32Array.from(picked, (e) => periodLog2[e]),
      scale: Float64Array.from(picked, (e) => scale[e]),
      key: Uint32Array.from(picked, (e) => key[e]),
    };
  };
  return { near: side((p) => p < half), far: side((p) => p >= half) };
}

/** What the far side of a split layout needs: plain arrays, so it can cross to a worker. */
export interface FarLayoutSetup extends SideEdges {
  n: number;
  dim: number;
  ring: NegativeRing;
  a: number;
  b: number;
}

/** The far side of a split layout, in a worker (`ClusterPool.layout`) or in this thread (`startFarLayout`). */
export interface FarLayout {
  /**
   * Runs the far side's edges in epochs `firstEpoch` … `firstEpoch + alphas.length − 1`, each at its learning
   * rate in `alphas`, from `y`, the coordinates at the round's start (the far side may keep or change the
   * array), and returns the coordinates after them (only its own half's count).
   */
  round(y: Float64Array, firstEpoch: number, alphas: Float64Array): Float64Array | Promise<Float64Array>;
  /** Frees what the far side holds (its kernel); it is not used again. */
  close(): void;
}

/** Starts the far side of a split layout elsewhere (e.g. `ClusterPool.layout`). */
export type FarLayoutStarter = (setup: FarLayoutSetup) => Promise<FarLayout>;

function sideState(setup: Omit<FarLayoutSetup, 'starts'> & { y: Float64Array }): StableState {
  const { n, dim, y, head, tail, periodLog2, scale, key, ring, a, b } = setup;
  return { n, dim, y, head, tail, schedule: { periodLog2, scale, key }, ring, a, b };
}

/**
 * The far side of a split layout in this thread: the kernel where it can run, else `stableEpoch` (the same
 * bits; `js` asks for it).
 */
export function startFarLayout(setup: FarLayoutSetup, js = false): FarLayout {
  const state = sideState({ ...setup, y: new Float64Array(setup.n * setup.dim) });
  const kernel = js ? undefined : createStableLayoutKernel(state);
  return {
    round(y, firstEpoch, alphas) {
      if (!kernel) {
        state.y = y;
        for (let i = 0; i < alphas.length; i++) stableEpoch(state, firstEpoch + i, alphas[i]);
        return y;
      }
      kernel.y.set(y);
      for (let i = 0; i < alphas.length; i++) kernel.epoch(firstEpoch + i, alphas[i]);
      return kernel.y.slice();
    },
    close() {
      kernel?.finish();
    },
  };
}

/**
 * The stable layout's `epochs` epochs in the split order (see the module's comment), updating `state.y`.
 * Yields the epochs done (1-based), and an `Awaiting` for each round of a far side started by `startFar`
 * (without it, the far side runs in this thread: the same bits). `js` runs this thread's epochs in JavaScript
 * (`stableEpoch`) rather than the kernel: the same bits.
 */
export function* splitEpochs(
  state: StableState,
  epochs: number,
  alphaOf: (epoch: number) => number,
  startFar?: FarLayoutStarter,
  js = false,
): Generator<number | Awaiting, void, unknown> {
  const { n, dim, ring, a, b } = state;
  const { near, far: farEdges } = splitEdges(state);
  const setup: FarLayoutSetup = { n, dim, ring, a, b, ...farEdges };
  const far = startFar ? ((yield new Awaiting(startFar(setup))) as FarLayout) : startFarLayout(setup, js);
  const nearState = sideState({ n, dim, ring, a, b, ...near, y: state.y });
  const kernel = js ? undefined : createStableLayoutKernel(nearState);
  const y = kernel ? kernel.y : nearState.y;
  const farFrom = secondHalfStart(n) * dim;
  try {
    for (let first = 0; first < epochs; first += SPLIT_EPOCHS_PER_ROUND) {
      const alphas = Float64Array.from({ length: Math.min(SPLIT_EPOCHS_PER_ROUND, epochs - first) }, (_, i) =>
        alphaOf(first + i),
      );
      const sent = far.round(y.slice(), first, alphas);
      for (let i = 0; i < alphas.length; i++) {
        if (kernel) kernel.epoch(first + i, alphas[i]);
        else stableEpoch(nearState, first + i, alphas[i]);
        yield first + i + 1;
      }
      const got = sent instanceof Promise ? ((yield new Awaiting(sent)) as Float64Array) : sent;
      y.set(got.subarray(farFrom), farFrom);
    }
  } finally {
    far.close();
    kernel?.finish();
  }
}
