/**
 * Prints benchmark figures beside a reference measured in the same run, with the ratio.
 */

/** One printed line of the benchmark. */
export interface BenchRow {
  /** What was measured, e.g. "BIC sweep k=1..49, N=1000, d=10". */
  name: string;
  /** Our figure. */
  value: number;
  /** Unit of both figures, e.g. "s" or "chunks/s". */
  unit: string;
  /** The reference's figure on the same data in the same run (undefined when it could not be measured). */
  reference?: number;
  /** What the reference is, e.g. "scikit-learn 1.9 GaussianMixture". */
  referenceLabel?: string;
  /** Whether a larger value is better (throughput) or a smaller one (time). */
  higherIsBetter: boolean;
  /** Optional target ratio ours/reference (for times: at most; for throughputs: at least). */
  target?: number;
  /** Free-form extra facts, e.g. the chosen k of both. */
  note?: string;
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toPrecision(3);
}

/** Formats a row as one line: name, ours, reference, ratio, target verdict. */
export function formatRow(row: BenchRow): string {
  const ours = `${fmt(row.value)} ${row.unit}`;
  if (row.reference === undefined) {
    return `${row.name}: ${ours} (reference: unavailable${row.referenceLabel ? `, ${row.referenceLabel}` : ''})${row.note ? ` — ${row.note}` : ''}`;
  }
  const ratio = row.value / row.reference;
  let verdict = '';
  if (row.target !== undefined) {
    const met = row.higherIsBetter ? ratio >= row.target : ratio <= row.target;
    verdict = ` target ${row.higherIsBetter ? '≥' : '≤'} ${row.target}× ${met ? 'MET' : 'NOT MET'}`;
  }
  return (
    `${row.name}: ${ours} vs ${fmt(row.reference)} ${row.unit} (${row.referenceLabel ?? 'reference'}) ` +
    `ratio ${ratio.toFixed(2)}×${verdict}${row.note ? ` — ${row.note}` : ''}`
  );
}

/** Prints rows to stdout. */
export function printRows(rows: BenchRow[]): void {
  for (const row of rows) console.log(formatRow(row));
}
