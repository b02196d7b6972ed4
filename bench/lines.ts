/**
 * What a bench section returns: measured rows beside their same-run reference, the figures it could not
 * measure, and those that are no speed on this machine. bench/report.ts prints them; bench/gaps.ts tells which
 * are gaps.
 */

/** One printed line of the benchmark. */
export interface BenchRow {
  /** What was measured, e.g. "BIC sweep k=1..49, N=1000, d=10". */
  name: string;
  /** Our figure. Must be a finite number: a figure that could not be measured is a `SkippedRow`. */
  value: number;
  /** Unit of both figures, e.g. "s" or "chunks/s". */
  unit: string;
  /** The reference's figure on the same data in the same run. */
  reference?: number;
  /** What the reference is, e.g. "scikit-learn 1.9 GaussianMixture". */
  referenceLabel?: string;
  /**
   * Why the reference of this row could not be measured in this run (e.g. "no scikit-learn in python3"): the
   * row is printed with our figure and "reference NOT MEASURED", and the run fails unless missing references
   * are allowed (bench/gaps.ts).
   */
  referenceMissing?: string;
  /**
   * Why this row has no same-run reference by design (e.g. "the whole app path; nothing else does it"). A row
   * with neither `reference`, `referenceMissing` nor `noReference` counts as a missing reference.
   */
  noReference?: string;
  /** Whether a larger value is better (throughput) or a smaller one (time). */
  higherIsBetter: boolean;
  /** Optional target ratio ours/reference (for times: at most; for throughputs: at least). */
  target?: number;
  /** Free-form extra facts, e.g. the chosen k of both. */
  note?: string;
}

/** A figure a section could not measure at all (no Chromium, no model, no Python), and why. */
export interface SkippedRow {
  /** What would have been measured, e.g. "Whole build, 78k tokens, MiniLM-L6 random (q8)". */
  name: string;
  /** Why it was not, with what to do about it where that is known. */
  skipped: string;
}

/**
 * A figure this machine cannot give by its nature, not for want of setup: the work ran, but its time is no
 * measure of the speed the row is about (WebGPU on the browser's software fallback adapter, e.g. SwiftShader:
 * Vulkan emulated on the CPU). Printed `NOT MEASURED as speed`, listed in the summary, and not a gap: the run
 * does not fail for it (bench/gaps.ts). Make it only where the hardware decides (bench/webgpu.ts).
 */
export interface NotSpeedRow {
  /** What would have been measured, e.g. "Embed 512 chunks …, WebGPU (google swiftshader) fp32". */
  name: string;
  /** Why its time is no speed, and what did run (device, agreement). */
  notSpeed: string;
}

/** What a bench section returns: measured rows, the figures it could not measure, and those no speed here. */
export type BenchLine = BenchRow | SkippedRow | NotSpeedRow;

/** A figure that could not be measured: printed as NOT MEASURED with `reason`, and counted as a gap. */
export function notMeasured(name: string, reason: string): SkippedRow {
  return { name, skipped: reason };
}

/** A figure whose time is no speed on this machine's hardware (see `NotSpeedRow`): not a gap. */
export function notMeasuredAsSpeed(name: string, reason: string): NotSpeedRow {
  return { name, notSpeed: reason };
}
