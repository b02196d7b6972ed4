/**
 * The partition most starts agree on. A mixture fitted from one k-means++ start lands in one of many nearby
 * local optima, and which one can turn on a hair: on a novel's global layout, ±1e-6 on the embeddings moved the
 * layout by ~1e-3 of its size, Lloyd's iterations took another path from the same seeds, and the mixture of the
 * best likelihood became another partition (adjusted Rand 0.84 against the noise-free one) — every cluster under
 * it then changed. Fitted from several starts, the partition that agrees best with the others (the medoid by the
 * adjusted Rand index) stayed the same in every noisy run measured, where the best likelihood did not
 * (docs/clustering.md, "Stability").
 */

/** n choose 2. */
const pairs = (n: number) => (n * (n - 1)) / 2;

/**
 * The adjusted Rand index of two labelings of the same items (Hubert & Arabie 1985): 1 for the same partition
 * whatever the label names, about 0 for independent ones.
 * @param k labels of both lie in 0 … k − 1.
 */
export function adjustedRand(a: ArrayLike<number>, b: ArrayLike<number>, k: number): number {
  const n = a.length;
  const joint = new Float64Array(k * k);
  const rows = new Float64Array(k);
  const cols = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    joint[a[i] * k + b[i]]++;
    rows[a[i]]++;
    cols[b[i]]++;
  }
  let index = 0;
  for (let c = 0; c < k * k; c++) index += pairs(joint[c]);
  let sumRows = 0;
  let sumCols = 0;
  for (let c = 0; c < k; c++) {
    sumRows += pairs(rows[c]);
    sumCols += pairs(cols[c]);
  }
  const expected = pairs(n) ? (sumRows * sumCols) / pairs(n) : 0;
  const max = (sumRows + sumCols) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}

/**
 * The labeling that agrees best, summed over the others, with all the others (the lowest index on a tie).
 * @param k labels lie in 0 … k − 1.
 */
export function medoidLabeling(labelings: readonly ArrayLike<number>[], k: number): number {
  const m = labelings.length;
  const score = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const ari = adjustedRand(labelings[i], labelings[j], k);
      score[i] += ari;
      score[j] += ari;
    }
  }
  let best = 0;
  for (let i = 1; i < m; i++) if (score[i] > score[best]) best = i;
  return best;
}
