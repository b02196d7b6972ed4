/**
 * What `npm run bench` could not measure, and how the run ends because of it. A figure or reference that could
 * not be measured is a gap: it is printed as NOT MEASURED (never as a number), listed again in a summary at the
 * end, and the run exits non-zero unless gaps are explicitly allowed (`--allow-missing-references` or
 * `AERIE_BENCH_ALLOW_MISSING=1`), which turns the summary into a warning. A section that throws is a failure:
 * the other sections still run, and the run exits non-zero whatever is allowed. See bench/README.md.
 */
import type { BenchLine } from './lines';

/** The command-line flag that accepts gaps (a warning instead of a failing run). */
export const ALLOW_MISSING_FLAG = '--allow-missing-references';
/** The environment variable that does the same (`1`, `true` or `yes`). */
export const ALLOW_MISSING_ENV = 'AERIE_BENCH_ALLOW_MISSING';
/** Exit status of a run with unaccepted gaps or a failed section. */
export const EXIT_INCOMPLETE = 1;
/** What to do about gaps, printed with the summary. */
const SET_UP_HINT =
  "set up what is missing (Python for the references and test models: bash scripts/python-env.sh, see the README's Benchmarks)";

/** Whether a figure of ours or the reference beside it is missing. */
export type GapKind = 'figure' | 'reference';

/** One thing a line could not measure, and why. */
export interface Gap {
  kind: GapKind;
  /** The line's name (for a reference: the name of the row it belongs to). */
  what: string;
  reason: string;
}

/** A gap of a named section. */
export interface SectionGap extends Gap {
  section: string;
}

/** A section that threw instead of returning its lines. */
export interface SectionFailure {
  section: string;
  error: string;
}

/** How the run ends: the summary to print and the exit status. */
export interface Outcome {
  exitCode: number;
  summary: string[];
}

/**
 * The gap of one line, or undefined when it is whole: a skipped figure, a figure that is not a finite number
 * (NaN from a division by a missing stage, or an old-style "skipped" row), a reference that could not be
 * measured, is not a finite number, or is absent without a `noReference` reason.
 */
export function gapOf(line: BenchLine): Gap | undefined {
  const what = line.name;
  // The hardware's nature, not a missing setup: the run stands (`notSpeedOf` lists it in the summary).
  if ('notSpeed' in line) return undefined;
  if ('skipped' in line) return { kind: 'figure', what, reason: line.skipped || 'no reason given' };
  if (!Number.isFinite(line.value)) {
    const said = line.referenceMissing ?? line.referenceLabel;
    return { kind: 'figure', what, reason: `${line.value} instead of a figure${said ? ` (${said})` : ''}` };
  }
  if (line.referenceMissing !== undefined) return { kind: 'reference', what, reason: line.referenceMissing };
  if (line.reference !== undefined && !Number.isFinite(line.reference)) {
    return { kind: 'reference', what, reason: `${line.reference} instead of a reference figure` };
  }
  if (line.reference === undefined && line.noReference === undefined) {
    const said = line.referenceLabel ? `: ${line.referenceLabel}` : '';
    return { kind: 'reference', what, reason: `no reference was measured${said}` };
  }
  return undefined;
}

/** Every gap of a section's lines, in order. */
export function gapsOf(section: string, lines: readonly BenchLine[]): SectionGap[] {
  return lines.flatMap((line) => {
    const gap = gapOf(line);
    return gap ? [{ section, ...gap }] : [];
  });
}

/** A line that is no speed figure on this machine (`NotSpeedRow`), of a named section. */
export interface NotSpeed {
  section: string;
  what: string;
  reason: string;
}

/** Every line of a section whose time is no speed here (WebGPU on a software adapter), in order. */
export function notSpeedOf(section: string, lines: readonly BenchLine[]): NotSpeed[] {
  return lines.flatMap((line) =>
    'notSpeed' in line ? [{ section, what: line.name, reason: line.notSpeed }] : [],
  );
}

/** Whether gaps are accepted: the flag among `args`, or the environment variable set to 1, true or yes. */
export function allowsMissing(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const value = env[ALLOW_MISSING_ENV]?.trim().toLowerCase();
  return args.includes(ALLOW_MISSING_FLAG) || value === '1' || value === 'true' || value === 'yes';
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function describe(gap: SectionGap): string {
  const what = gap.kind === 'reference' ? `reference of "${gap.what}"` : gap.what;
  return `  ${gap.section}: ${what} — ${gap.reason}`;
}

/**
 * The summary printed after the last section, and the exit status: 0 when everything was measured, or when
 * only gaps remain and they are allowed; EXIT_INCOMPLETE otherwise. `notSpeed` lines (no speed on this
 * hardware) are listed first and never change the status.
 */
export function outcome(
  gaps: readonly SectionGap[],
  failures: readonly SectionFailure[],
  allow: boolean,
  notSpeed: readonly NotSpeed[] = [],
): Outcome {
  const summary: string[] = [];
  if (notSpeed.length) {
    summary.push(
      `NOT MEASURED as speed on this machine (its hardware, not a gap): ${count(notSpeed.length, 'figure')}`,
      ...notSpeed.map((n) => `  ${n.section}: ${n.what} — ${n.reason}`),
    );
  }
  if (gaps.length) {
    const figures = gaps.filter((g) => g.kind === 'figure').length;
    const parts = `${count(figures, 'figure')}, ${count(gaps.length - figures, 'reference')}`;
    summary.push(
      allow
        ? `WARNING — not measured (accepted by ${ALLOW_MISSING_FLAG} / ${ALLOW_MISSING_ENV}): ${parts}`
        : `NOT MEASURED: ${parts}`,
      ...gaps.map(describe),
    );
  }
  if (failures.length) {
    summary.push(
      `FAILED: ${count(failures.length, 'section')}`,
      ...failures.map((f) => `  ${f.section}: ${f.error}`),
    );
  }
  const unaccepted = gaps.length > 0 && !allow;
  if (!gaps.length && !failures.length) {
    summary.push(
      notSpeed.length
        ? 'Every other figure and reference was measured.'
        : 'Every figure and reference was measured.',
    );
  }
  if (unaccepted) {
    summary.push(
      `Incomplete figures (exit status ${EXIT_INCOMPLETE}): ${SET_UP_HINT}; or accept the gaps with ` +
        `${ALLOW_MISSING_FLAG} (npm run bench -- <sections> ${ALLOW_MISSING_FLAG}) or ${ALLOW_MISSING_ENV}=1.`,
    );
  }
  if (failures.length) {
    summary.push(`A section failed (exit status ${EXIT_INCOMPLETE}): its error is printed above.`);
  }
  const incomplete = unaccepted || failures.length > 0;
  return { exitCode: incomplete ? EXIT_INCOMPLETE : 0, summary };
}
