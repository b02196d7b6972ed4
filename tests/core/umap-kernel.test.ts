/**
 * The UMAP layout's WebAssembly kernel (kernels/umap-layout.ts via src/core/umap-kernel.ts) against the
 * JavaScript epochs, which are umap-js's own arithmetic (umap-layout.test.ts holds them to umap-js). Where
 * `Math.pow` is exact (b = 1: pow(x, 1) = x, pow(x, 0) = 1) the two must agree bit for bit, draws from the
 * generator included; with the real curve they differ in pow's last bits, which the stochastic descent
 * amplifies, so there the kernel is held to the same quality of layout instead.
 */
import { describe, expect, it } from 'vitest';
import { exactCosineKnn, type KnnGraph } from '../../src/core/knn';
import { seededRandom } from '../../src/core/random';
import { fuzzySimplicialSet, optimizeLayout, type LayoutOptions } from '../../src/core/umap-layout';
import { runSync } from '../../src/core/yield';
import { blobs } from '../support/fake-embedder';
import { pairwise, trustworthiness } from '../../bench/baselines/umap-quality';

function unitRows(vectors: Float32Array[]): { unit: Float32Array; n: number; dim: number } {
  const n = vectors.length;
  const dim = vectors[0].length;
  const unit = new Float32Array(n * dim);
  vectors.forEach((v, i) => {
    const norm = Math.hypot(...v);
    v.forEach((x, t) => (unit[i * dim + t] = x / norm));
  });
  return { unit, n, dim };
}

function knn(unit: Float32Array, n: number, dim: number, k: number): KnnGraph {
  return runSync(exactCosineKnn(unit, n, dim, k, 'js'));
}

function layout(graph: KnnGraph, k: number, nComponents: number, seed: number, options: LayoutOptions) {
  const random = seededRandom(seed);
  const y = runSync(optimizeLayout(fuzzySimplicialSet(graph, k), nComponents, random, options));
  return { y, nextDraw: random() };
}

function mismatches(a: Float64Array, b: Float64Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) count++;
  return count;
}

describe('the WebAssembly layout kernel', () => {
  const { vectors } = blobs(4, 30, 16, 0.35, 3);
  const { unit, n, dim } = unitRows(vectors);
  const graph = knn(unit, n, dim, 10);

  it('equals the JavaScript epochs number for number where pow is exact (b = 1), draws included', () => {
    for (const [nComponents, seed, a] of [
      [10, 1, 1.5],
      [2, 2, 0.9],
      [3, 3, 2.25],
    ] as const) {
      const curve = { a, b: 1 };
      const js = layout(graph, 10, nComponents, seed, { engine: 'js', curve });
      const wasm = layout(graph, 10, nComponents, seed, { curve });
      expect(wasm.y).toHaveLength(n * nComponents);
      expect(mismatches(wasm.y, js.y)).toBe(0);
      // The kernel drew as many numbers from the same sfc32 stream and handed the generator back.
      expect(wasm.nextDraw).toBe(js.nextDraw);
    }
  });

  it('takes the same paths as JavaScript for coincident points and duplicate vectors (b = 1)', () => {
    // Every point twice: neighbours at distance 0, and layouts where a pair starts in the same place.
    const doubled = new Float32Array(2 * n * dim);
    doubled.set(unit);
    doubled.set(unit, n * dim);
    const g = knn(doubled, 2 * n, dim, 6);
    const curve = { a: 1.2, b: 1 };
    const js = layout(g, 6, 2, 5, { engine: 'js', curve });
    const wasm = layout(g, 6, 2, 5, { curve });
    expect(mismatches(wasm.y, js.y)).toBe(0);
    expect(wasm.nextDraw).toBe(js.nextDraw);
  });

  it('runs in JavaScript when the generator is not one of random.ts’s (its state cannot be handed over)', () => {
    const curve = { a: 1.5, b: 1 };
    const seeded = seededRandom(8);
    const plain = () => seeded();
    const y = runSync(optimizeLayout(fuzzySimplicialSet(graph, 10), 2, plain, { curve }));
    const js = layout(graph, 10, 2, 8, { engine: 'js', curve });
    expect(mismatches(y, js.y)).toBe(0);
  });

  it('is deterministic with the real curve: the same seed gives the same layout, another seed another', () => {
    const a = layout(graph, 10, 10, 4, {});
    expect(mismatches(layout(graph, 10, 10, 4, {}).y, a.y)).toBe(0);
    expect(mismatches(layout(graph, 10, 10, 5, {}).y, a.y)).toBeGreaterThan(0);
  });

  it('keeps neighbourhoods as well as the JavaScript (umap-js) layout with the real curve', () => {
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
    for (const seed of seeds) {
      kernel += quality(layout(graph, 10, 2, seed, {}).y) / seeds.length;
      js += quality(layout(graph, 10, 2, seed, { engine: 'js' }).y) / seeds.length;
    }
    expect(kernel).toBeGreaterThanOrEqual(0.9);
    expect(Math.abs(kernel - js)).toBeLessThan(0.01);
  });
});
