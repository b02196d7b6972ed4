/**
 * When a BIC sweep may stop before its last k. The reference fits every k = 1 … 49, but past its lowest BIC the
 * criterion of a full-covariance mixture climbs by hundreds of nats per k (each component costs
 * (d + 1)(d + 2)/2 · ln N ≈ 470 nats of penalty at N = 1,300 in 10-d, while the likelihood's gains shrink), and the
 * fits there are the sweep's most expensive (a fit's cost grows with k): on a book's layer 1 the fits beyond
 * k = 20 were ~80% of the sweep and never chosen. So a sweep stops once PATIENCE consecutive ks have each been
 * worse than the best so far by more than STOP_NATS, or inadmissible (docs/clustering.md, "Speed", has the
 * measurement over every sweep of the bench's books: the same k chosen each time). The rule reads only the
 * criteria of k = 1 … K in order, so a sweep split over workers (select-k.ts) stops where the one-piece sweep
 * does.
 */

/** How a sweep may stop early: after `patience` consecutive ks worse than the best so far by over `nats`. */
export interface SweepStop {
  patience: number;
  nats: number;
}

/** The clustering's rule (see the module's comment). */
export const SWEEP_STOP: Readonly<SweepStop> = Object.freeze({ patience: 4, nats: 100 });

/**
 * The k after which a sweep stopped by `stop` ends, given the criteria of k = 1, 2, … (`bic[k − 1]`, NaN for a fit
 * that failed or was skipped) and whether each fit is admissible; undefined when it goes on past them.
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
