/**
 * The q8 check of the committed test models (scripts/models/q8_check.py): each fixture's q8 tolerance allows an
 * activation or two rounded to the neighbouring 8-bit step on another CPU, stays below the distance to the fp32
 * outputs, and a graph with its last quantised weight matrix reversed misses by far. `brokenCopy` makes that
 * broken graph for a test, so the tests show the check still fails a wrong model.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The fixture's record of how its q8 tolerance was measured (q8_check.py writes it). */
export interface Q8Check {
  weights: string;
  stepEffect: number;
  stepsAllowed: number;
  tolerance: number;
  fp32Difference: number;
  broken: { file: string; offset: number; length: number; tensor: string; difference: number };
}

/** The largest absolute difference between two equally long lists of numbers. */
export function maxDifference(actual: ArrayLike<number>, reference: ArrayLike<number>): number {
  if (actual.length !== reference.length)
    throw new Error(`lengths differ: ${actual.length} against ${reference.length}`);
  let worst = 0;
  for (let i = 0; i < reference.length; i++) worst = Math.max(worst, Math.abs(actual[i] - reference[i]));
  return worst;
}

/**
 * A copy of the model folder `modelsDir/name` in a new temporary models folder, with the bytes of the check's
 * broken region reversed (the same weights in the wrong places): returns the new models folder, to point
 * transformers.js's `env.localModelPath` at.
 */
export function brokenCopy(modelsDir: string, name: string, check: Q8Check): string {
  const root = mkdtempSync(path.join(tmpdir(), 'aerie-broken-'));
  cpSync(path.join(modelsDir, name), path.join(root, name), { recursive: true });
  const file = path.join(root, name, check.broken.file);
  const bytes = readFileSync(file);
  const { offset, length } = check.broken;
  bytes.subarray(offset, offset + length).reverse();
  writeFileSync(file, bytes);
  return root + path.sep;
}
