// AssemblyScript source of the UMAP layout kernel (src/core/cluster/umap-kernel.ts loads it; `npm run kernels`
// compiles it into src/core/cluster/generated/umap-layout-wasm.ts). One epoch of the layout's stochastic gradient
// descent in either schedule: umap-js's (`layoutEpoch`, with exactly the arithmetic of umap-layout.ts's
// JavaScript `layoutEpoch`, umap-js's operation for operation, and the same draws from sfc32, random.ts) or
// the stable one (`stableEpoch`, umap-stable.ts's twin). Each differs from its twin only where `Math.pow` does: this
// kernel's pow is AssemblyScript's (a WebAssembly port of musl's, the same bits in every engine), so the
// epochs give the same layout of a graph in Node and in every browser. (Pairs of coordinates in SIMD lanes
// alone measured no faster: paired runs of the 3,711-point layout, 1.00×. What paid was keeping the head point
// in registers through a sample, `sample10`: each of its six updates no longer waits for the last one's
// stores; docs/build-time.md.)
//
// Memory is the caller's (imported). Pointers are byte addresses at or above `heapBase()`.

import { counterBits } from './mix32';
import { curvePow } from './curve-pow';
import { next, setState, stateWord } from './sfc32';

export { setState, stateWord };

/** Where the caller's arrays may start: above this module's own data (pow's tables). */
export function heapBase(): usize {
  return __heap_base;
}

/** Gradient clip (umap-js's). */
const CLIP: f64 = 4;

@inline
function clip(g: f64): f64 {
  return g > CLIP ? CLIP : g < -CLIP ? -CLIP : g;
}

@inline
function f64At(base: usize, index: i32): usize {
  return base + (<usize>index << 3);
}

/**
 * One epoch at learning rate `alpha`: for every edge due this epoch, the attractive update of its two points,
 * then its negative samples (points drawn from the generator) pushing its head point away.
 * Arrays: y (n × dim f64), head and tail (edges i32), epochsPerSample, epochsPerNegative, nextSample and
 * nextNegative (edges f64; the last two are updated).
 */
export function layoutEpoch(
  n: i32,
  dim: i32,
  edges: i32,
  y: usize,
  head: usize,
  tail: usize,
  epochsPerSample: usize,
  epochsPerNegative: usize,
  nextSample: usize,
  nextNegative: usize,
  a: f64,
  b: f64,
  epoch: f64,
  alpha: f64,
): void {
  const nf = <f64>n;
  for (let e = 0; e < edges; e++) {
    const sampleAt = f64At(nextSample, e);
    if (load<f64>(sampleAt) > epoch) continue;
    const h = load<i32>(head + (<usize>e << 2));
    const j = f64At(y, h * dim);
    const k = f64At(y, load<i32>(tail + (<usize>e << 2)) * dim);
    let dist2: f64 = 0;
    for (let d = 0; d < dim; d++) {
      const t = load<f64>(f64At(j, d)) - load<f64>(f64At(k, d));
      dist2 += t * t;
    }
    let coeff: f64 = 0;
    if (dist2 > 0) {
      coeff = -2 * a * b * Math.pow(dist2, b - 1);
      coeff /= a * Math.pow(dist2, b) + 1;
    }
    for (let d = 0; d < dim; d++) {
      const yj = f64At(j, d);
      const yk = f64At(k, d);
      const g = clip(coeff * (load<f64>(yj) - load<f64>(yk)));
      store<f64>(yj, load<f64>(yj) + g * alpha);
      store<f64>(yk, load<f64>(yk) + -g * alpha);
    }
    store<f64>(sampleAt, load<f64>(sampleAt) + load<f64>(f64At(epochsPerSample, e)));
    const negativeAt = f64At(nextNegative, e);
    const perNegative = load<f64>(f64At(epochsPerNegative, e));
    const negatives = Math.floor((epoch - load<f64>(negativeAt)) / perNegative);
    for (let p: f64 = 0; p < negatives; p++) {
      const other = <i32>Math.floor(next() * nf);
      const o = f64At(y, other * dim);
      let d2: f64 = 0;
      for (let d = 0; d < dim; d++) {
        const t = load<f64>(f64At(j, d)) - load<f64>(f64At(o, d));
        d2 += t * t;
      }
      let c: f64 = 0;
      if (d2 > 0) {
        c = 2 * b;
        c /= (0.001 + d2) * (a * Math.pow(d2, b) + 1);
      } else if (h == other) continue;
      for (let d = 0; d < dim; d++) {
        const yj = f64At(j, d);
        let g: f64 = 4;
        if (c > 0) g = clip(c * (load<f64>(yj) - load<f64>(f64At(o, d))));
        store<f64>(yj, load<f64>(yj) + g * alpha);
      }
    }
    store<f64>(negativeAt, load<f64>(negativeAt) + negatives * perNegative);
  }
}

/** Negative samples per sampled edge of the stable schedule (umap-stable.ts STABLE_NEGATIVE_SAMPLES). */
const STABLE_NEGATIVES: i32 = 5;

/**
 * One epoch of the stable schedule at learning rate `alpha`, with exactly the arithmetic of umap-stable.ts's
 * JavaScript `stableEpoch`: every edge whose period (1 << periodLog2) divides epoch + key pulls its two points
 * together and pushes its head from STABLE_NEGATIVES points drawn by counter (mix32.ts) on the ring of
 * negative-ring.ts, each push weighted by the drawn point's ring weight and every update scaled by the edge's
 * scale, the repulsion guarded by `repulsionFloor` (umap-stable.ts REPULSION_FLOOR). Arrays: y (n × dim f64),
 * head and tail (edges i32), periodLog2 (edges i32), scale (edges f64), key (edges u32), counters
 * (STABLE_NEGATIVES u32: this epoch's mixed counters), ringHash (places u32, ascending), ringPoint (places
 * i32), ringBucket (2^(32 − ringShift) i32), weight (n f64), powTable (curve-pow.ts's tables, f64). Its
 * powers are curve-pow.ts's, not `Math.pow`: the same bits as the twin's in every engine.
 */
export function stableEpoch(
  n: i32,
  dim: i32,
  edges: i32,
  y: usize,
  head: usize,
  tail: usize,
  periodLog2: usize,
  scale: usize,
  key: usize,
  counters: usize,
  ringHash: usize,
  ringPoint: usize,
  ringBucket: usize,
  places: i32,
  ringShift: u32,
  weight: usize,
  powTable: usize,
  a: f64,
  b: f64,
  repulsionFloor: f64,
  epoch: i32,
  alpha: f64,
): void {
  for (let e = 0; e < edges; e++) {
    const mask: u32 = (<u32>1 << load<u32>(periodLog2 + (<usize>e << 2))) - 1;
    const edgeKey = load<u32>(key + (<usize>e << 2));
    if (((<u32>epoch + edgeKey) & mask) != 0) continue;
    const step = load<f64>(f64At(scale, e)) * alpha;
    const h = load<i32>(head + (<usize>e << 2));
    const t = load<i32>(tail + (<usize>e << 2));
    if (dim == PAIRED_DIM && h != t) {
      sample10(h, t, edgeKey, step, y, counters, ringHash, ringPoint, ringBucket, places, ringShift, weight, powTable, a, b, repulsionFloor);
      continue;
    }
    const j = f64At(y, h * dim);
    const k = f64At(y, t * dim);
    let dist2: f64 = 0;
    for (let d = 0; d < dim; d++) {
      const t = load<f64>(f64At(j, d)) - load<f64>(f64At(k, d));
      dist2 += t * t;
    }
    let coeff: f64 = 0;
    if (dist2 > 0) {
      const pb = curvePow(dist2, b, powTable);
      coeff = (-2 * a * b * pb) / dist2;
      coeff /= a * pb + 1;
    }
    for (let d = 0; d < dim; d++) {
      const yj = f64At(j, d);
      const yk = f64At(k, d);
      const g = clip(coeff * (load<f64>(yj) - load<f64>(yk)));
      store<f64>(yj, load<f64>(yj) + g * step);
      store<f64>(yk, load<f64>(yk) + -g * step);
    }
    for (let p = 0; p < STABLE_NEGATIVES; p++) {
      const bits = counterBits(edgeKey, load<u32>(counters + (<usize>p << 2)));
      let place = load<i32>(ringBucket + (<usize>(bits >>> ringShift) << 2));
      while (place < places && load<u32>(ringHash + (<usize>place << 2)) < bits) place++;
      if (place == places) place = 0;
      const other = load<i32>(ringPoint + (<usize>place << 2));
      const push = step * load<f64>(f64At(weight, other));
      const o = f64At(y, other * dim);
      let d2: f64 = 0;
      for (let d = 0; d < dim; d++) {
        const t = load<f64>(f64At(j, d)) - load<f64>(f64At(o, d));
        d2 += t * t;
      }
      let c: f64 = 0;
      if (d2 > 0) {
        c = 2 * b;
        c /= (repulsionFloor + d2) * (a * curvePow(d2, b, powTable) + 1);
      } else if (h == other) continue;
      for (let d = 0; d < dim; d++) {
        const yj = f64At(j, d);
        let g: f64 = 4;
        if (c > 0) g = clip(c * (load<f64>(yj) - load<f64>(f64At(o, d))));
        store<f64>(yj, load<f64>(yj) + g * push);
      }
    }
  }
}

/** The layout dimension the paired path serves (the clustering's reductionDim). */
const PAIRED_DIM: i32 = 10;

@inline
function clip2(g: v128): v128 {
  return f64x2.pmax(f64x2.pmin(g, f64x2.splat(CLIP)), f64x2.splat(-CLIP));
}

@inline
function squares(s: v128, acc: f64): f64 {
  return acc + f64x2.extract_lane(s, 0) + f64x2.extract_lane(s, 1);
}

/**
 * One sampled edge of `stableEpoch` at dimension 10, the same operations in the same order: its head point's
 * coordinates stay in five registers of two lanes through the pull and the pushes, where the general loop
 * stores them and loads them again for each of the six (the other points are read from memory, the tail's
 * after the pull wrote it). A head equal to its tail takes the general loop.
 */
function sample10(
  h: i32,
  t: i32,
  edgeKey: u32,
  step: f64,
  y: usize,
  counters: usize,
  ringHash: usize,
  ringPoint: usize,
  ringBucket: usize,
  places: i32,
  ringShift: u32,
  weight: usize,
  powTable: usize,
  a: f64,
  b: f64,
  repulsionFloor: f64,
): void {
  const j = f64At(y, h * PAIRED_DIM);
  const k = f64At(y, t * PAIRED_DIM);
  let j0 = v128.load(j);
  let j1 = v128.load(j, 16);
  let j2 = v128.load(j, 32);
  let j3 = v128.load(j, 48);
  let j4 = v128.load(j, 64);
  let k0 = v128.load(k);
  let k1 = v128.load(k, 16);
  let k2 = v128.load(k, 32);
  let k3 = v128.load(k, 48);
  let k4 = v128.load(k, 64);
  let t0 = f64x2.sub(j0, k0);
  let t1 = f64x2.sub(j1, k1);
  let t2 = f64x2.sub(j2, k2);
  let t3 = f64x2.sub(j3, k3);
  let t4 = f64x2.sub(j4, k4);
  let dist2 = f64x2.extract_lane(f64x2.mul(t0, t0), 0) + f64x2.extract_lane(f64x2.mul(t0, t0), 1);
  dist2 = squares(f64x2.mul(t1, t1), dist2);
  dist2 = squares(f64x2.mul(t2, t2), dist2);
  dist2 = squares(f64x2.mul(t3, t3), dist2);
  dist2 = squares(f64x2.mul(t4, t4), dist2);
  let coeff: f64 = 0;
  if (dist2 > 0) {
    const pb = curvePow(dist2, b, powTable);
    coeff = (-2 * a * b * pb) / dist2;
    coeff /= a * pb + 1;
  }
  const cv = f64x2.splat(coeff);
  const sv = f64x2.splat(step);
  let g0 = clip2(f64x2.mul(cv, t0));
  let g1 = clip2(f64x2.mul(cv, t1));
  let g2 = clip2(f64x2.mul(cv, t2));
  let g3 = clip2(f64x2.mul(cv, t3));
  let g4 = clip2(f64x2.mul(cv, t4));
  j0 = f64x2.add(j0, f64x2.mul(g0, sv));
  j1 = f64x2.add(j1, f64x2.mul(g1, sv));
  j2 = f64x2.add(j2, f64x2.mul(g2, sv));
  j3 = f64x2.add(j3, f64x2.mul(g3, sv));
  j4 = f64x2.add(j4, f64x2.mul(g4, sv));
  v128.store(k, f64x2.add(k0, f64x2.mul(f64x2.neg(g0), sv)));
  v128.store(k, f64x2.add(k1, f64x2.mul(f64x2.neg(g1), sv)), 16);
  v128.store(k, f64x2.add(k2, f64x2.mul(f64x2.neg(g2), sv)), 32);
  v128.store(k, f64x2.add(k3, f64x2.mul(f64x2.neg(g3), sv)), 48);
  v128.store(k, f64x2.add(k4, f64x2.mul(f64x2.neg(g4), sv)), 64);
  for (let p = 0; p < STABLE_NEGATIVES; p++) {
    const bits = counterBits(edgeKey, load<u32>(counters + (<usize>p << 2)));
    let place = load<i32>(ringBucket + (<usize>(bits >>> ringShift) << 2));
    while (place < places && load<u32>(ringHash + (<usize>place << 2)) < bits) place++;
    if (place == places) place = 0;
    const other = load<i32>(ringPoint + (<usize>place << 2));
    // The head itself: at distance 0, skipped as the general loop skips it.
    if (other == h) continue;
    const push = f64x2.splat(step * load<f64>(f64At(weight, other)));
    const o = f64At(y, other * PAIRED_DIM);
    t0 = f64x2.sub(j0, v128.load(o));
    t1 = f64x2.sub(j1, v128.load(o, 16));
    t2 = f64x2.sub(j2, v128.load(o, 32));
    t3 = f64x2.sub(j3, v128.load(o, 48));
    t4 = f64x2.sub(j4, v128.load(o, 64));
    let d2 = f64x2.extract_lane(f64x2.mul(t0, t0), 0) + f64x2.extract_lane(f64x2.mul(t0, t0), 1);
    d2 = squares(f64x2.mul(t1, t1), d2);
    d2 = squares(f64x2.mul(t2, t2), d2);
    d2 = squares(f64x2.mul(t3, t3), d2);
    d2 = squares(f64x2.mul(t4, t4), d2);
    let c: f64 = 0;
    if (d2 > 0) {
      c = 2 * b;
      c /= (repulsionFloor + d2) * (a * curvePow(d2, b, powTable) + 1);
    }
    if (c > 0) {
      const cc = f64x2.splat(c);
      g0 = clip2(f64x2.mul(cc, t0));
      g1 = clip2(f64x2.mul(cc, t1));
      g2 = clip2(f64x2.mul(cc, t2));
      g3 = clip2(f64x2.mul(cc, t3));
      g4 = clip2(f64x2.mul(cc, t4));
    } else {
      g0 = f64x2.splat(4);
      g1 = g0;
      g2 = g0;
      g3 = g0;
      g4 = g0;
    }
    j0 = f64x2.add(j0, f64x2.mul(g0, push));
    j1 = f64x2.add(j1, f64x2.mul(g1, push));
    j2 = f64x2.add(j2, f64x2.mul(g2, push));
    j3 = f64x2.add(j3, f64x2.mul(g3, push));
    j4 = f64x2.add(j4, f64x2.mul(g4, push));
  }
  v128.store(j, j0);
  v128.store(j, j1, 16);
  v128.store(j, j2, 32);
  v128.store(j, j3, 48);
  v128.store(j, j4, 64);
}
