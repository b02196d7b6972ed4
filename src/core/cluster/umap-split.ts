/**
 * The stable layout's epochs on two cores (issue #44): a large layer's global layout ran alone in the build
 * worker while the cluster workers waited. Splitting an epoch's edges into two halves summed from one snapshot
 * (Jacobi's order) lost stability badly (docs/build-time.md); here each side still takes one sample after
 * another, and only what it reads of the other side is a snapshot.
 *
 * The points are cut into four quarters in their order (a layer's nodes are in document order, so neighbours
 * in the text fall in one quarter; the cut depends on n alone, never on the vectors, so a hair of noise cannot
 * move a point to another quarter). An epoch runs in three rounds; in each, two quarters are the near side and
 * two the far side ({0, 1} | {2, 3}, then {0, 2} | {1, 3}, then {0, 3} | {1, 2}), and every edge runs in the
 * one round whose side holds both of its points (an edge within a quarter, in the first). The two sides of a
 * round run at once, each on its own copy of the coordinates as they were at the round's start: each updates
 * only its own points, one sample after another in the edges' order, and its negative samples read the other
 * side's points as they were at the round's start. The far side's points are then copied back. So the layout
 * is the same bits whatever the timing, whether the far side runs in a worker or in this thread (`FarLayout`).
 * Only layers of at least SPLIT_LAYOUT_MIN_POINTS points take this order; smaller ones keep one sample after
 * another over all edges.
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

/** Rounds of an epoch. */
export const SPLIT_ROUNDS = 3;

const QUARTERS = 4;
/** Each round's near quarters (the other two are its far side). */
const NEAR_QUARTERS: readonly (readonly number[])[] = [
  [0, 1],
  [0, 2],
  [0, 3],
];

/** The quarter of point `i` of `n` (by position). */
export function quarterOf(i: number, n: number): number {
  return Math.floor((i * QUARTERS) / n);
}

/** The round (0 … 2) and side (0 near, 1 far) that run an edge between quarters `p` and `q`, as round · 2 + side. */
function groupOf(p: number, q: number): number {
  for (let round = 0; round < SPLIT_ROUNDS; round++) {
    const sp = NEAR_QUARTERS[round].includes(p) ? 0 : 1;
    const sq = NEAR_QUARTERS[round].includes(q) ? 0 : 1;
    if (sp === sq) return round * 2 + sp;
  }
  throw new RangeError(`No round holds quarters ${p} and ${q}.`);
}

/** One side's edges of a split layout, by round. */
interface SideEdges {
  head: Int32Array;
  tail: Int32Array;
  periodLog2: Int32Array;
  scale: Float64Array;
  key: Uint32Array;
  /** Round r's edges are `starts[r]` … `starts[r + 1]` − 1. */
  starts: Int32Array;
}

/** Each side's edges, in the edges' order within each round. */
export function splitEdges(state: Pick<StableState, 'n' | 'head' | 'tail' | 'schedule'>): {
  near: SideEdges;
  far: SideEdges;
} {
  const { n, head, tail } = state;
  const { periodLog2, scale, key } = state.schedule;
  const edges = head.length;
  const group = new Uint8Array(edges);
  const counts = new Int32Array(2 * SPLIT_ROUNDS);
  for (let e = 0; e < edges; e++) {
    group[e] = groupOf(quarterOf(head[e], n), quarterOf(tail[e], n));
    counts[group[e]]++;
  }
  const side = (s: number): SideEdges => {
    const starts = new Int32Array(SPLIT_ROUNDS + 1);
    for (let r = 0; r < SPLIT_ROUNDS; r++) starts[r + 1] = starts[r] + counts[r * 2 + s];
    const m = starts[SPLIT_ROUNDS];
    const out: SideEdges = {
      head: new Int32Array(m),
      tail: new Int32Array(m),
      periodLog2: new Int32Array(m),
      scale: new Float64Array(m),
      key: new Uint32Array(m),
      starts,
    };
    const next = starts.slice(0, SPLIT_ROUNDS);
    for (let e = 0; e < edges; e++) {
      if (group[e] % 2 !== s) continue;
      const at = next[group[e] >> 1]++;
      out.head[at] = head[e];
      out.tail[at] = tail[e];
      out.periodLog2[at] = periodLog2[e];
      out.scale[at] = scale[e];
      out.key[at] = key[e];
    }
    return out;
  };
  return { near: side(0), far: side(1) };
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
   * Runs the far side's edges of `round` in `epoch` on `y`, the coordinates at the round's start (the far
   * side may keep or change the array), and returns the coordinates after them.
   */
  round(y: Float64Array, epoch: number, alpha: number, round: number): Float64Array | Promise<Float64Array>;
  /** Frees what the far side holds (its kernel); it is not used again. */
  close(): void;
}

/** Starts the far side of a split layout elsewhere (e.g. `ClusterPool.layout`). */
export type FarLayoutStarter = (setup: FarLayoutSetup) => Promise<FarLayout>;

function sideState(setup: Omit<FarLayoutSetup, 'starts'> & { y: Float64Array }): StableState {
  const { n, dim, y, head, tail, periodLog2, scale, key, ring, a, b } = setup;
  return { n, dim, y, head, tail, schedule: { periodLog2, scale, key }, ring, a, b };
}

/** The far side of a split layout in this thread: the kernel where it can run, else `stableEpoch` (the same bits). */
export function startFarLayout(setup: FarLayoutSetup): FarLayout {
  const state = sideState({ ...setup, y: new Float64Array(setup.n * setup.dim) });
  const kernel = createStableLayoutKernel(state);
  const { starts } = setup;
  return {
    round(y, epoch, alpha, round) {
      const from = starts[round];
      const to = starts[round + 1];
      if (!kernel) {
        state.y = y;
        stableEpoch(state, epoch, alpha, from, to);
        return y;
      }
      kernel.y.set(y);
      kernel.epoch(epoch, alpha, from, to);
      return kernel.y.slice();
    },
    close() {
      kernel?.finish();
    },
  };
}

/** Coordinate ranges [from, to) of each round's far points (two quarters each). */
function farRanges(n: number, dim: number): [number, number][][] {
  const first = new Int32Array(QUARTERS + 1);
  first[QUARTERS] = n;
  for (let q = QUARTERS - 1; q >= 0; q--) {
    let i = first[q + 1];
    while (i > 0 && quarterOf(i - 1, n) >= q) i--;
    first[q] = i;
  }
  return NEAR_QUARTERS.map((near) =>
    [0, 1, 2, 3]
      .filter((q) => !near.includes(q))
      .map((q): [number, number] => [first[q] * dim, first[q + 1] * dim]),
  );
}

/**
 * The stable layout's `epochs` epochs in the split order (see the module's comment), updating `state.y`.
 * Yields the epochs done (1-based), and an `Awaiting` for each round of a far side started by `startFar`
 * (without it, the far side runs in this thread: the same bits).
 */
export function* splitEpochs(
  state: StableState,
  epochs: number,
  alphaOf: (epoch: number) => number,
  startFar?: FarLayoutStarter,
): Generator<number | Awaiting, void, unknown> {
  const { n, dim, ring, a, b } = state;
  const { near, far: farEdges } = splitEdges(state);
  const setup: FarLayoutSetup = { n, dim, ring, a, b, ...farEdges };
  const far = startFar ? ((yield new Awaiting(startFar(setup))) as FarLayout) : startFarLayout(setup);
  const nearState = sideState({ n, dim, ring, a, b, ...near, y: state.y });
  const kernel = createStableLayoutKernel(nearState);
  const y = kernel ? kernel.y : nearState.y;
  const ranges = farRanges(n, dim);
  try {
    for (let epoch = 0; epoch < epochs; epoch++) {
      const alpha = alphaOf(epoch);
      for (let round = 0; round < SPLIT_ROUNDS; round++) {
        const sent = far.round(y.slice(), epoch, alpha, round);
        const from = near.starts[round];
        const to = near.starts[round + 1];
        if (kernel) kernel.epoch(epoch, alpha, from, to);
        else stableEpoch(nearState, epoch, alpha, from, to);
        const got = sent instanceof Promise ? ((yield new Awaiting(sent)) as Float64Array) : sent;
        for (const [start, end] of ranges[round]) y.set(got.subarray(start, end), start);
      }
      yield epoch + 1;
    }
  } finally {
    far.close();
    kernel?.finish();
  }
}
