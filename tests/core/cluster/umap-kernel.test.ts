/**
 * The UMAP layout's WebAssembly kernel (kernels/umap-layout.ts via src/core/cluster/umap-kernel.ts) against the
 * JavaScript epochs, in both schedules: umap-js's (whose JavaScript is umap-js's own arithmetic;
 * umap-layout.test.ts holds it to umap-js) and the stable one (umap-stable.ts). Where `Math.pow` is exact
 * (b = 1: pow(x, 1) = x, pow(x, 0) = 1) the two must agree bit for bit, draws from the generator included. With
 * the real curve umap-js's schedule differs in pow's last bits (musl's in the kernel, the engine's in
 * JavaScript) and amplifies them into another layout, so there the kernel is held to the same quality of
 * layout; the stable schedule takes its powers from curve-pow.ts on both sides and agrees bit for bit.
 */
import { describe, expect, it, vi } from 'vitest';
import { exactCosineKnn, type KnnGraph } from '../../../src/core/cluster/knn';
import { seededRandom } from '../../../src/core/random';
import {
  curveParameters,
  fuzzySimplicialSet,
  optimizeLayout,
  type LayoutOptions,
} from '../../../src/core/cluster/umap-layout';
import { runSync } from '../../../src/core/yield';
import { blobs } from '../../support/fake-embedder';
import { unitRows } from '../../support/unit-rows';
import { pairwise, trustworthiness } from '../../../bench/baselines/umap-quality';

function knn(unit: Float32Array, n: number, dim: number, k: number): KnnGraph {
  return runSync(exactCosineKnn(unit, n, dim, k, 'js'));
}

function layout(graph: KnnGraph, k: number, nComponents: number, seed: number, options: LayoutOptions) {
  const random = seededRandom(seed);
  const y = runSync(optimizeLayout(fuzzySimplicialSet(graph, k), nComponents, random, options));
  return { y, nextDraw: random() };
}

/** The layouts held to their JavaScript twin: umap-js's schedule, the stable one, and the stable one drawing its
 * negative samples on the ring of the points' ids (negative-ring.ts, the local layouts'). */
const VARIANTS: { label: string; options: LayoutOptions }[] = [
  { label: 'umap-js', options: { schedule: 'umap-js' } },
  { label: 'stable', options: { schedule: 'stable' } },
  { label: 'stable on the ring', options: { schedule: 'stable', negatives: 'ring' } },
];

function mismatches(a: Float64Array, b: Float64Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) count++;
  return count;
}

describe('the WebAssembly layout kernel', () => {
  const { vectors } = blobs(4, 30, 16, 0.35, 3);
  const { unit, n, dim } = unitRows(vectors);
  const graph = knn(unit, n, dim, 10);

  for (const { label, options: variant } of VARIANTS) {
    it(`${label}: equals the JavaScript epochs number for number where pow is exact (b = 1), draws included`, () => {
      for (const [nComponents, seed, a] of [
        [10, 1, 1.5],
        [2, 2, 0.9],
        [3, 3, 2.25],
      ] as const) {
        const curve = { a, b: 1 };
        const js = layout(graph, 10, nComponents, seed, { ...variant, engine: 'js', curve });
        const wasm = layout(graph, 10, nComponents, seed, { ...variant, curve });
        expect(wasm.y).toHaveLength(n * nComponents);
        expect(mismatches(wasm.y, js.y)).toBe(0);
        // As many numbers drawn from the same sfc32 stream (umap-js: the kernel handed the generator back).
        expect(wasm.nextDraw).toBe(js.nextDraw);
      }
    });

    it(`${label}: takes the same paths as JavaScript for coincident points and duplicate vectors (b = 1)`, () => {
      // Every point twice: neighbours at distance 0, and layouts where a pair starts in the same place.
      const doubled = new Float32Array(2 * n * dim);
      doubled.set(unit);
      doubled.set(unit, n * dim);
      const g = knn(doubled, 2 * n, dim, 6);
      const curve = { a: 1.2, b: 1 };
      // 2-d takes the kernel's general loop; 10-d its paired one (the clustering's dimension).
      for (const nComponents of [2, 10]) {
        const js = layout(g, 6, nComponents, 5, { ...variant, engine: 'js', curve });
        const wasm = layout(g, 6, nComponents, 5, { ...variant, curve });
        expect(mismatches(wasm.y, js.y)).toBe(0);
        expect(wasm.nextDraw).toBe(js.nextDraw);
      }
    });

    it(`${label}: is deterministic with the real curve: the same seed gives the same layout, another seed another`, () => {
      const a = layout(graph, 10, 10, 4, variant);
      expect(mismatches(layout(graph, 10, 10, 4, variant).y, a.y)).toBe(0);
      expect(mismatches(layout(graph, 10, 10, 5, variant).y, a.y)).toBeGreaterThan(0);
    });
  }

  it('umap-js: runs in JavaScript when the generator is not one of random.ts’s (its state cannot be handed over)', () => {
    const curve = { a: 1.5, b: 1 };
    const seeded = seededRandom(8);
    const plain = () => seeded();
    const schedule = 'umap-js';
    const y = runSync(optimizeLayout(fuzzySimplicialSet(graph, 10), 2, plain, { curve, schedule }));
    const js = layout(graph, 10, 2, 8, { engine: 'js', curve, schedule });
    expect(mismatches(y, js.y)).toBe(0);
  });

  it('stable: runs in the kernel with any generator (its draws are counter-based, no state crosses)', () => {
    const seeded = seededRandom(8);
    const plain = () => seeded();
    const y = runSync(optimizeLayout(fuzzySimplicialSet(graph, 10), 2, plain));
    expect(mismatches(y, layout(graph, 10, 2, 8, {}).y)).toBe(0);
  });

  it('stable: lays a graph out the same whatever the engine’s Math.pow (another engine’s last bits, simulated)', () => {
    const fuzzy = fuzzySimplicialSet(graph, 10);
    const curve = curveParameters();
    const run = (options: LayoutOptions) =>
      runSync(optimizeLayout(fuzzy, 10, seededRandom(6), { ...options, curve }));
    const kernel = run({});
    const pow = Math.pow;
    const spy = vi.spyOn(Math, 'pow').mockImplementation((x, y) => pow(x, y) * (1 + Number.EPSILON));
    try {
      expect(mismatches(run({ engine: 'js' }), kernel)).toBe(0);
      expect(mismatches(run({ engine: 'js', negatives: 'ring' }), run({ negatives: 'ring' }))).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });

  it('umap-js: with the real curve, pow’s last bits (the engine’s against musl’s) become another layout', () => {
    const spread = (y: Float64Array) => Math.max(...y.map(Math.abs));
    const js = layout(graph, 10, 10, 6, { schedule: 'umap-js', engine: 'js' }).y;
    const wasm = layout(graph, 10, 10, 6, { schedule: 'umap-js' }).y;
    expect(Math.max(...js.map((v, i) => Math.abs(v - wasm[i]))) / spread(js)).toBeGreaterThan(1e-3);
  });

  it('keeps neighbourhoods as well as the JavaScript umap-js layout with the real curve, in both schedules', () => {
    const inputD = pairwise(unit, n, dim, (p, q) => {
      let s = 0;
      for (let t = 0; t < dim; t++) s += unit[p + t] * unit[q + t];
      return 1 - s;
    });
    const quality = (y: Float64Array) =>
      trustworthiness(
        inputD,
        pairwise(y, n, 2, (p, q) => Math.hypot(y[p] - y[q], y[p + 1] - y[q + 1])),
        n,
        10,
      );
    let kernel = 0;
    let js = 0;
    const seeds = [11, 12, 13, 14];
    let stable = 0;
    for (const seed of seeds) {
      kernel += quality(layout(graph, 10, 2, seed, { schedule: 'umap-js' }).y) / seeds.length;
      js += quality(layout(graph, 10, 2, seed, { engine: 'js', schedule: 'umap-js' }).y) / seeds.length;
      stable += quality(layout(graph, 10, 2, seed, {}).y) / seeds.length;
    }
    expect(kernel).toBeGreaterThanOrEqual(0.9);
    expect(Math.abs(kernel - js)).toBeLessThan(0.01);
    expect(stable).toBeGreaterThanOrEqual(js - 0.01);
  });
});
