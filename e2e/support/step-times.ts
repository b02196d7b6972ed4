/**
 * A Playwright reporter that says where each browser test spends its time (docs/testing.md, "Where the time
 * goes"): every test's wall time, its worker, and its time by the source line of the spec or helper that
 * waited (an action, an `expect`, a fixture's set-up), longest first, each line's time counted once (steps
 * nested inside a step of the same line are not added again). Written as JSON to `AERIE_STEP_TIMES` (default
 * test-results/step-times.json); the table printed at the end lists the slowest tests with their three longest
 * lines. Not part of `npm test`:
 *
 *     npx playwright test --reporter=list,./e2e/support/step-times.ts
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  TestCase,
  TestResult,
  TestStep,
} from '@playwright/test/reporter';

/** One source line's share of a test. */
export interface LineTime {
  /** `file:line` of the spec or helper, relative to the repository. */
  where: string;
  /** The code on that line, trimmed. */
  code: string;
  ms: number;
}

/** One test's times. */
export interface TestTime {
  project: string;
  file: string;
  title: string;
  status: string;
  workerIndex: number;
  /** When it started, in ms since the run started. */
  startMs: number;
  ms: number;
  /**
   * CPU time of every process of the run (runner, workers, browsers, web servers) while the test ran, on Linux;
   * the test's own only when one worker runs (with more, the tests running beside it are counted too).
   */
  cpuMs?: number;
  lines: LineTime[];
}

const sources = new Map<string, string[]>();

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds used so far by process `root` and every process under it, living or ended (an ended
 * child's time is in its parent's cutime/cstime once reaped), read from /proc; undefined elsewhere.
 */
export function treeCpuMs(root = process.pid): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return undefined;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid … utime stime cutime cstime: fields 14–17; comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      ticks.set(
        Number(entry),
        fields.slice(11, 15).reduce((s, f) => s + Number(f), 0),
      );
    } catch {
      // The process ended meanwhile.
    }
  }
  let total = 0;
  for (const [pid, t] of ticks) {
    let p: number | undefined = pid;
    while (p !== undefined && p > 1 && p !== root) p = parent.get(p);
    if (p === root) total += t;
  }
  return (total * 1000) / TICKS_PER_SECOND;
}

function lineOf(file: string, line: number): string {
  if (!sources.has(file)) {
    try {
      sources.set(file, readFileSync(file, 'utf8').split('\n'));
    } catch {
      sources.set(file, []);
    }
  }
  return (sources.get(file)![line - 1] ?? '').trim();
}

/** Adds each step's time to its source line, once per line (a step inside a step of the same line is skipped). */
function collect(
  steps: readonly TestStep[],
  into: Map<string, LineTime>,
  root: string,
  outer?: string,
): void {
  for (const step of steps) {
    const where = step.location ? `${relative(root, step.location.file)}:${step.location.line}` : undefined;
    const key = where ?? `(${step.category}) ${step.title}`;
    // A test.step or a hook is the sum of what ran inside it, which is listed: not counted twice.
    const container = step.category === 'test.step' || step.category === 'hook';
    if (key !== outer && !container) {
      const entry = into.get(key) ?? {
        where: where ?? step.category,
        code: step.location ? lineOf(step.location.file, step.location.line) : step.title,
        ms: 0,
      };
      entry.ms += step.duration;
      into.set(key, entry);
    }
    collect(step.steps, into, root, key === outer || container ? outer : key);
  }
}

/** See the module comment. */
export default class StepTimes implements Reporter {
  private root = process.cwd();
  private started = Date.now();
  private readonly tests: TestTime[] = [];
  private readonly cpuAtStart = new Map<string, number | undefined>();

  onBegin(config: FullConfig): void {
    this.root = config.rootDir ? dirname(config.rootDir) : process.cwd();
    this.started = Date.now();
  }

  onTestBegin(test: TestCase): void {
    this.cpuAtStart.set(test.id, treeCpuMs());
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const lines = new Map<string, LineTime>();
    collect(result.steps, lines, this.root);
    const before = this.cpuAtStart.get(test.id);
    const after = treeCpuMs();
    this.tests.push({
      project: test.parent.project()?.name ?? '',
      file: relative(this.root, test.location.file),
      title: test.title,
      status: result.status,
      workerIndex: result.workerIndex,
      startMs: result.startTime.getTime() - this.started,
      ms: result.duration,
      cpuMs: before === undefined || after === undefined ? undefined : after - before,
      lines: [...lines.values()].sort((a, b) => b.ms - a.ms).slice(0, 12),
    });
  }

  onEnd(result: FullResult): void {
    const out = process.env.AERIE_STEP_TIMES ?? 'test-results/step-times.json';
    mkdirSync(dirname(out), { recursive: true });
    const wallMs = Date.now() - this.started;
    writeFileSync(out, JSON.stringify({ status: result.status, wallMs, tests: this.tests }, null, 1));
    const slowest = [...this.tests].sort((a, b) => b.ms - a.ms).slice(0, 15);
    const total = this.tests.reduce((s, t) => s + t.ms, 0);
    const cpu = this.tests.reduce((s, t) => s + (t.cpuMs ?? 0), 0);
    console.log(
      `\n${this.tests.length} tests, ${(wallMs / 1000).toFixed(0)} s wall, ${(total / 1000).toFixed(0)} s of test time, ` +
        `${(cpu / 1000).toFixed(0)} s of CPU during tests`,
    );
    for (const t of slowest) {
      const top = t.lines
        .slice(0, 3)
        .map((l) => `${(l.ms / 1000).toFixed(1)} s ${l.where} ${l.code.slice(0, 60)}`)
        .join(' | ');
      const cpu = t.cpuMs === undefined ? '' : ` (CPU ${(t.cpuMs / 1000).toFixed(1)} s)`;
      console.log(
        `${(t.ms / 1000).toFixed(1).padStart(7)} s${cpu}  [${t.project}] ${t.file} › ${t.title.slice(0, 70)}`,
      );
      console.log(`           ${top}`);
    }
    console.log(`step times: ${out}`);
  }
}
