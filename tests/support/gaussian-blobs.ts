/**
 * Seeded Gaussian blobs for the mixture tests: each cluster is centre + spread · z (I + mix · G), with z and G
 * standard normal, i.e. a random anisotropic covariance of roughly unit scale (real clusters are not round).
 */
import { seededRandom, type RandomFn } from '../../src/core/random';

/** A standard normal draw (Box–Muller). */
export function gaussian(random: RandomFn): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Options of {@link gaussianBlobs}. */
export interface BlobOptions {
  dim?: number;
  /** Centres are N(0, centerSpread²) per coordinate. Default 30 (clusters ~100 spreads apart). */
  centerSpread?: number;
  /** Per-cluster spread; default 1 for all. */
  spreads?: number[];
  /** Weight of the random shape matrix G. Default 0.3. */
  mix?: number;
}

/** Points of clusters of the given sizes, in cluster order, with their cluster index. */
export function gaussianBlobs(
  seed: number,
  sizes: number[],
  options: BlobOptions = {},
): { points: number[][]; labels: number[] } {
  const { dim = 10, centerSpread = 30, mix = 0.3 } = options;
  const random = seededRandom(seed);
  const points: number[][] = [];
  const labels: number[] = [];
  sizes.forEach((size, j) => {
    const center = Array.from({ length: dim }, () => centerSpread * gaussian(random));
    const spread = options.spreads?.[j] ?? 1;
    const shape = Array.from(
      { length: dim * dim },
      (_, i) => (i % (dim + 1) === 0 ? 1 : 0) + mix * gaussian(random),
    );
    for (let i = 0; i < size; i++) {
      const z = Array.from({ length: dim }, () => gaussian(random));
      points.push(
        center.map((c, a) => {
          let s = 0;
          for (let b = 0; b < dim; b++) s += z[b] * shape[b * dim + a];
          return c + spread * s;
        }),
      );
      labels.push(j);
    }
  });
  return { points, labels };
}

/** True when two labelings split the points into the same groups (whatever the label names). */
export function samePartition(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  const forward = new Map<number, number>();
  const backward = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    if ((forward.get(a[i]) ?? b[i]) !== b[i] || (backward.get(b[i]) ?? a[i]) !== a[i]) return false;
    forward.set(a[i], b[i]);
    backward.set(b[i], a[i]);
  }
  return true;
}

/** A seeded permutation of 0 … n − 1 (Fisher–Yates). */
export function permutation(n: number, seed: number): number[] {
  const random = seededRandom(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
