/**
 * The UMAP layout's epochs in WebAssembly (kernels/umap-layout.ts): the arithmetic of umap-layout.ts's
 * JavaScript `layoutEpoch` operation for operation, and the same draws from the same sfc32 stream, 3–4×
 * faster in V8 (`npm run bench cluster`). Only `Math.pow` differs: the kernel's is AssemblyScript's port of
 * musl's, the same bits in every engine, so the epochs lay a graph out the same way in every JavaScript engine
 * (ECMAScript leaves `Math.pow`'s last bits to each implementation: Node 20 and Chromium disagree on some
 * calls). The graph's weights still come from the engine's `Math.exp` (umap-layout.ts).
 */
import { UMAP_LAYOUT_WASM } from './generated/umap-layout-wasm';
import { randomState, setRandomState, type RandomFn, type RandomState } from '../random';
import {
  CURVE_POW_TABLE,
  negativeCounters,
  REPULSION_FLOOR,
  STABLE_NEGATIVE_SAMPLES,
  type StableState,
} from './umap-stable';
import { acquireKernel, KernelArrays } from './wasm';

interface LayoutExports {
  layoutEpoch(
    n: number,
    dim: number,
    edges: number,
    y: number,
    head: number,
    tail: number,
    epochsPerSample: number,
    epochsPerNegative: number,
    nextSample: number,
    nextNegative: number,
    a: number,
    b: number,
    epoch: number,
    alpha: number,
  ): void;
  stableEpoch(
    n: number,
    dim: number,
    edges: number,
    y: number,
    head: number,
    tail: number,
    periodLog2: number,
    scale: number,
    key: number,
    counters: number,
    ringHash: number,
    ringPoint: number,
    ringBucket: number,
    places: number,
    ringShift: number,
    weight: number,
    powTable: number,
    a: number,
    b: number,
    repulsionFloor: number,
    epoch: number,
    alpha: number,
  ): void;
  setState(a: number, b: number, c: number, d: number): void;
  stateWord(index: number): number;
}

/** What a layout's epochs read and update (the arrays of umap-layout.ts's `LayoutState`). */
export interface LayoutArrays {
  n: number;
  dim: number;
  head: Int32Array;
  tail: Int32Array;
  y: Float64Array;
  epochsPerSample: Float64Array;
  epochsPerNegative: Float64Array;
  nextSample: Float64Array;
  nextNegative: Float64Array;
  a: number;
  b: number;
}

/** A layout under optimisation in WebAssembly memory. */
export interface LayoutKernel {
  /** One epoch at learning rate `alpha` (the kernel's twin of `layoutEpoch`). */
  epoch(epoch: number, alpha: number): void;
  /**
   * Copies the coordinates and the schedules back into the given arrays, hands the generator's state back and
   * gives the kernel back (the layout is not used again).
   */
  finish(): void;
}

/**
 * Copies a layout into a kernel's memory, the generator's stream with it. Undefined where WebAssembly is
 * missing, the memory cannot be had, or `random` is not a generator of random.ts (its state is then unknown):
 * the caller runs the JavaScript epochs.
 */
export function createLayoutKernel(arrays: LayoutArrays, random: RandomFn): LayoutKernel | undefined {
  const state = randomState(random);
  if (!state) return undefined;
  const { n, dim, a, b } = arrays;
  const edges = arrays.head.length;
  const f64 = 8;
  const i32 = 4;
  const bytes = KernelArrays.bytes([n * dim * f64, edges * i32, edges * i32, ...Array(4).fill(edges * f64)]);
  const kernel = acquireKernel<LayoutExports>(UMAP_LAYOUT_WASM, bytes);
  if (!kernel) return undefined;
  const { exports } = kernel;
  const layout = new KernelArrays(kernel.memory, kernel.base);
  const [y, yAt] = layout.float64(n * dim);
  const [head, headAt] = layout.int32(edges);
  const [tail, tailAt] = layout.int32(edges);
  const [perSample, perSampleAt] = layout.float64(edges);
  const [perNegative, perNegativeAt] = layout.float64(edges);
  const [nextSample, nextSampleAt] = layout.float64(edges);
  const [nextNegative, nextNegativeAt] = layout.float64(edges);
  y.set(arrays.y);
  head.set(arrays.head);
  tail.set(arrays.tail);
  perSample.set(arrays.epochsPerSample);
  perNegative.set(arrays.epochsPerNegative);
  nextSample.set(arrays.nextSample);
  nextNegative.set(arrays.nextNegative);
  exports.setState(...state);
  return {
    epoch(epoch, alpha) {
      exports.layoutEpoch(
        n,
        dim,
        edges,
        yAt,
        headAt,
        tailAt,
        perSampleAt,
        perNegativeAt,
        nextSampleAt,
        nextNegativeAt,
        a,
        b,
        epoch,
        alpha,
      );
    },
    finish() {
      arrays.y.set(y);
      arrays.nextSample.set(nextSample);
      arrays.nextNegative.set(nextNegative);
      const words = [0, 1, 2, 3].map((w) => exports.stateWord(w) >>> 0) as RandomState;
      setRandomState(random, words);
      kernel.release();
    },
  };
}

/**
 * Copies a layout of the stable schedule (umap-stable.ts) into a kernel's memory. Its draws are counter-based,
 * so no generator state crosses, and its powers are curve-pow.ts's. Undefined where WebAssembly is missing or
 * the memory cannot be had: the caller runs the JavaScript epochs (`stableEpoch`), which give the same numbers.
 */
export function createStableLayoutKernel(state: StableState): LayoutKernel | undefined {
  const { n, dim, a, b, ring } = state;
  const edges = state.head.length;
  const places = ring.hash.length;
  const f64 = 8;
  const i32 = 4;
  const bytes = KernelArrays.bytes([
    n * dim * f64,
    ...Array(4).fill(edges * i32),
    edges * f64,
    STABLE_NEGATIVE_SAMPLES * i32,
    places * i32,
    places * i32,
    ring.bucket.length * i32,
    n * f64,
    CURVE_POW_TABLE.length * f64,
  ]);
  const kernel = acquireKernel<LayoutExports>(UMAP_LAYOUT_WASM, bytes);
  if (!kernel) return undefined;
  const { exports } = kernel;
  const layout = new KernelArrays(kernel.memory, kernel.base);
  const [y, yAt] = layout.float64(n * dim);
  const [head, headAt] = layout.int32(edges);
  const [tail, tailAt] = layout.int32(edges);
  const [periodLog2, periodAt] = layout.int32(edges);
  const [key, keyAt] = layout.int32(edges);
  const [scale, scaleAt] = layout.float64(edges);
  const [counters, countersAt] = layout.int32(STABLE_NEGATIVE_SAMPLES);
  const [ringHash, ringHashAt] = layout.int32(places);
  const [ringPoint, ringPointAt] = layout.int32(places);
  const [ringBucket, ringBucketAt] = layout.int32(ring.bucket.length);
  const [weight, weightAt] = layout.float64(n);
  const [powTable, powTableAt] = layout.float64(CURVE_POW_TABLE.length);
  powTable.set(CURVE_POW_TABLE);
  // The same 32 bits, read by the kernel as unsigned.
  ringHash.set(ring.hash);
  ringPoint.set(ring.point);
  ringBucket.set(ring.bucket);
  weight.set(ring.weight);
  y.set(state.y);
  head.set(state.head);
  tail.set(state.tail);
  periodLog2.set(state.schedule.periodLog2);
  // The same 32 bits, read by the kernel as unsigned.
  key.set(state.schedule.key);
  scale.set(state.schedule.scale);
  return {
    epoch(epoch, alpha) {
      counters.set(negativeCounters(epoch));
      exports.stableEpoch(
        n,
        dim,
        edges,
        yAt,
        headAt,
        tailAt,
        periodAt,
        scaleAt,
        keyAt,
        countersAt,
        ringHashAt,
        ringPointAt,
        ringBucketAt,
        places,
        ring.shift,
        weightAt,
        powTableAt,
        a,
        b,
        REPULSION_FLOOR,
        epoch,
        alpha,
      );
    },
    finish() {
      state.y.set(y);
      kernel.release();
    },
  };
}
