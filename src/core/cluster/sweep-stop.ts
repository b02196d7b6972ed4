/**
 * When a BIC sweep may stop before its last k. The reference fits every k = 1 … 49, but the criterion is a
 * smooth curve of k: past its lowest point it climbs, since every further component costs its parameters' ln N
 * (66 · ln N ≈ 470 nats for a full component in 10-d at N = 1,300) while the likelihood's gains shrink, and the
 * fits there are the sweep's most expensive (a fit's cost grows with k). So a sweep stops once `patience`
 * consecutive ks have each been worse than the best admissible criterion so far by more than `nats`, or
 * inadmissible. docs/clustering.md ("Speed") has the check over every sweep of whole books: the same k each
 * time. The rule reads only the criteria of k = 1 … K in order, so a sweep split over workers (select-k.ts)
 * stops where the one-piece sweep does.
 */

/** How a sweep may stop early: after `patience` consecutive ks worse than the best so far by over `nats`. */
export interface SweepStop {
  patience: number;
  nats: number;
}

/** The clustering's rule (see the module's comment). */
export const SWEEP_STOP: Readonly<SweepStop> = Object.freeze({ patience: 5, nats: 50 });

/**
 * The k after which a sweep stopped by `stop` ends, given the criteria of k = 1, 2, … (`bic[k − 1]`, NaN for a
 * fit that failed or was skipped) and whether each fit is admissible; undefined while it goes on.
 */
export function stopAfter(
  bic: readonly number[],
  admissible: readonly boolean[],
  stop: Readonly<SweepStop>,
): number | undefined {
  let best = Infinity;
  let streak = 0;
  for (let k = 1; k <= bic.length; k++) {
    const value = bic[k - 1];
    const ok = admissible[k - 1] && Number.isFinite(value);
    if (ok && value < best) best = value;
    streak = ok && value <= best + stop.nats ? 0 : streak + 1;
    if (streak >= stop.patience) return k;
  }
  return undefined;
}
