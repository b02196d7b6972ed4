/**
 * Prints benchmark figures beside a reference measured in the same run, with the ratio. A figure or reference
 * that could not be measured is printed as NOT MEASURED with the reason, never as a number (bench/gaps.ts
 * collects them, and `npm run bench` then fails unless told to allow it).
 */
import { gapOf } from './gaps';
import type { BenchLine } from './lines';

function fmt(x: number): string {
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toPrecision(3);
}

/** Formats a line: name, ours, reference, ratio, target verdict; or what could not be measured and why. */
export function formatRow(line: BenchLine): string {
  if ('notSpeed' in line) return `NOT MEASURED as speed ${line.name}: ${line.notSpeed}`;
  const gap = gapOf(line);
  if ('skipped' in line || gap?.kind === 'figure') return `NOT MEASURED ${line.name}: ${gap?.reason}`;
  const row = line;
  const note = row.note ? ` — ${row.note}` : '';
  const ours = `${fmt(row.value)} ${row.unit}`;
  if (gap) return `${row.name}: ${ours} — reference NOT MEASURED: ${gap.reason}${note}`;
  if (row.reference === undefined)
    return `${row.name}: ${ours} (no same-run reference: ${row.noReference})${note}`;
  const ratio = row.value / row.reference;
  let verdict = '';
  if (row.target !== undefined) {
    const met = row.higherIsBetter ? ratio >= row.target : ratio <= row.target;
    verdict = ` target ${row.higherIsBetter ? '≥' : '≤'} ${row.target}× ${met ? 'MET' : 'NOT MET'}`;
  }
  return (
    `${row.name}: ${ours} vs ${fmt(row.reference)} ${row.unit} (${row.referenceLabel ?? 'reference'}) ` +
    `ratio ${ratio.toFixed(2)}×${verdict}${note}`
  );
}
