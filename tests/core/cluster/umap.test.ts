/**
 * UMAP dimension reduction through its public contract: the output's shape and finiteness, determinism for a
 * seed, progress, and what any correct UMAP must do with well-separated groups — keep each point's
 * neighbourhood (trustworthiness, Venna & Kaski 2001, computed here from its definition) and keep the groups
 * apart.
 */
import { describe, expect, it } from 'vitest';
import { reduceDimensions, type ReduceProgress } from '../../../src/core/cluster/umap';
import { runSync } from '../../../src/core/yield';
import { blobs } from '../../support/fake-embedder';
import { unitRows } from '../../support/unit-rows';
import { permutation } from '../../support/gaussian-blobs';
import { pairwise, ranks, trustworthiness } from '../../../bench/baselines/umap-quality';

function reduce(
  unit: Float32Array,
  n: number,
  dim: number,
  nComponents: number,
  nNeighbors: number,
  seed: number,
) {
  return runSync(reduceDimensions(unit, n, dim, { nComponents, nNeighbors, seed }));
}

describe('reduceDimensions', () => {
  const groups = 4;
  const perGroup = 30;
  const { vectors, labels } = blobs(groups, perGroup, 32, 0.25, 11);
  const { unit, n, dim } = unitRows(vectors);

  it('returns n × nComponents finite coordinates, the same for the same seed', () => {
    const a = reduce(unit, n, dim, 3, 10, 5);
    expect(a).toBeInstanceOf(Float64Array);
    expect(a).toHaveLength(n * 3);
    expect(a.every(Number.isFinite)).toBe(true);
    expect(reduce(unit, n, dim, 3, 10, 5)).toEqual(a);
    expect(reduce(unit, n, dim, 3, 10, 6)).not.toEqual(a);
  });

  it('keeps neighbourhoods: trustworthiness ≥ 0.9 at 10 neighbours, and each point’s neighbours in its group', () => {
    const out = reduce(unit, n, dim, 2, 10, 7);
    const inputD = pairwise(unit, n, dim, (a, b) => {
      let s = 0;
      for (let t = 0; t < dim; t++) s += unit[a + t] * unit[b + t];
      return 1 - s;
    });
    const outputD = pairwise(out, n, 2, (a, b) => Math.hypot(out[a] - out[b], out[a + 1] - out[b + 1]));
    expect(trustworthiness(inputD, outputD, n, 10)).toBeGreaterThanOrEqual(0.9);
    // The measure itself: 1 for the input's own distances, far lower for the layout of shuffled points.
    expect(trustworthiness(inputD, inputD, n, 10)).toBe(1);
    const order = permutation(n, 3);
    const shuffled = Float64Array.from(
      { length: n * n },
      (_, p) => outputD[order[Math.floor(p / n)] * n + order[p % n]],
    );
    expect(trustworthiness(inputD, shuffled, n, 10)).toBeLessThan(0.75);
    // The 10 nearest in the layout come from the point's own group (well separated in the input).
    let same = 0;
    ranks(outputD, n).forEach((row, i) =>
      row.slice(0, 10).forEach((j) => (same += labels[j] === labels[i] ? 1 : 0)),
    );
    expect(same / (n * 10)).toBeGreaterThanOrEqual(0.99);
  });

  it('lays the groups apart: every group is closer to its own centre than to any other group’s', () => {
    const c = 2;
    const out = reduce(unit, n, dim, c, 10, 8);
    const centres = Array.from({ length: groups }, (_, g) => {
      const members = labels.flatMap((l, i) => (l === g ? [i] : []));
      return [0, 1].map((t) => members.reduce((s, i) => s + out[i * c + t], 0) / members.length);
    });
    for (let i = 0; i < n; i++) {
      const d = centres.map(([x, y]) => Math.hypot(out[i * c] - x, out[i * c + 1] - y));
      expect(d.indexOf(Math.min(...d))).toBe(labels[i]);
    }
  });

  it('reports the k-NN rows, then the layout epochs, each counting up to its total', () => {
    const small = 20;
    const steps = reduceDimensions(unit.subarray(0, small * dim), small, dim, {
      nComponents: 2,
      nNeighbors: 5,
      seed: 1,
    });
    const events: ReduceProgress[] = [];
    let r = steps.next();
    while (!r.done) {
      events.push(r.value);
      r = steps.next();
    }
    const knn = events.filter((e) => e.phase === 'knn');
    const layout = events.filter((e) => e.phase === 'layout');
    expect(events.slice(0, small)).toEqual(knn);
    expect(knn.map((e) => [e.done, e.total])).toEqual(
      Array.from({ length: small }, (_, i) => [i + 1, small]),
    );
    expect(layout.length).toBeGreaterThan(0);
    expect(layout.map((e) => e.done)).toEqual(layout.map((_, i) => i + 1));
    expect(layout.every((e) => e.total === layout.length)).toBe(true);
    expect(r.value).toHaveLength(small * 2);
  });

  it('clamps the neighbour count to what the points allow (2 … n − 1)', () => {
    const few = 6;
    const part = unit.subarray(0, few * dim);
    for (const nNeighbors of [1, 5, 50]) {
      const out = reduce(part, few, dim, 2, nNeighbors, 3);
      expect(out).toHaveLength(few * 2);
      expect(out.every(Number.isFinite)).toBe(true);
    }
    expect(reduce(part, few, dim, 2, 50, 3)).toEqual(reduce(part, few, dim, 2, few - 1, 3));
    expect(reduce(part, few, dim, 2, 1, 3)).toEqual(reduce(part, few, dim, 2, 2, 3));
  });
});
