/**
 * Runs bench sections one after another and ends the run as bench/gaps.ts says: each section's lines printed as
 * they come, a section that throws reported without stopping the others, then the summary and the exit status.
 */
import {
  allowsMissing,
  ALLOW_MISSING_FLAG,
  gapsOf,
  notSpeedOf,
  outcome,
  type NotSpeed,
  type SectionFailure,
  type SectionGap,
} from './gaps';
import type { BenchLine } from './lines';
import { formatRow } from './report';

/** A bench section: its printed lines (measured rows, and what it could not measure). */
export type Section = () => Promise<BenchLine[]>;

/** Where the runner writes: results to `out`, errors and an incomplete run's summary to `err`. */
export interface SectionOutput {
  out: (text: string) => void;
  err: (text: string, error?: unknown) => void;
}

/** Exit status of a command line the runner does not understand. */
export const EXIT_USAGE = 2;
const KNOWN_FLAGS = [ALLOW_MISSING_FLAG];
const MS_PER_S = 1000;

const consoleOutput: SectionOutput = {
  out: (text) => console.log(text),
  err: (text, error) => (error === undefined ? console.error(text) : console.error(text, error)),
};

/**
 * Runs the sections named in `args` (all of `sections` when none is named), in order, and returns the exit
 * status: 0 when everything was measured (or only allowed gaps remain), EXIT_INCOMPLETE with gaps or a failed
 * section, EXIT_USAGE for an unknown section or option (then nothing runs).
 */
export async function runSections(
  sections: Record<string, () => Promise<Section>>,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  output: SectionOutput = consoleOutput,
): Promise<number> {
  const unknownFlag = args.find((a) => a.startsWith('-') && !KNOWN_FLAGS.includes(a));
  const requested = args.filter((a) => !a.startsWith('-'));
  const unknownSection = requested.find((name) => !Object.hasOwn(sections, name));
  if (unknownFlag !== undefined || unknownSection !== undefined) {
    output.err(
      unknownFlag !== undefined
        ? `Unknown option "${unknownFlag}". Known: ${KNOWN_FLAGS.join(', ')}.`
        : `Unknown bench section "${unknownSection}". Known: ${Object.keys(sections).join(', ')}.`,
    );
    return EXIT_USAGE;
  }
  const gaps: SectionGap[] = [];
  const failures: SectionFailure[] = [];
  const notSpeed: NotSpeed[] = [];
  for (const name of requested.length ? requested : Object.keys(sections)) {
    output.out(`\n== ${name} ==`);
    const started = Date.now();
    try {
      const lines = await (await sections[name]())();
      for (const line of lines) output.out(formatRow(line));
      gaps.push(...gapsOf(name, lines));
      notSpeed.push(...notSpeedOf(name, lines));
    } catch (error) {
      output.err(`FAILED ${name}:`, error);
      failures.push({ section: name, error: error instanceof Error ? error.message : String(error) });
    }
    output.out(`(${name}: ${((Date.now() - started) / MS_PER_S).toFixed(1)} s)`);
  }
  const result = outcome(gaps, failures, allowsMissing(args, env), notSpeed);
  const summary = `\n${result.summary.join('\n')}`;
  if (gaps.length || failures.length) output.err(summary);
  else output.out(summary);
  return result.exitCode;
}
