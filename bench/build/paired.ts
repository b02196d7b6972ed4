/**
 * `AERIE_BENCH_VS=<git revision> npm run bench build`: each selected build of this checkout paired with the same
 * build of another revision, run alternately in one browser (A B A B …; `AERIE_BENCH_PAIRS` pairs, default 3), so
 * that a comparison holds while the machine's speed drifts (on the shared 2-core machines here it drifts by
 * ±15% between runs minutes apart). The revision is checked out with `git worktree` into
 * .bench-cache/vs/<commit> (sharing this checkout's node_modules) and its bench page built with its own config;
 * it needs the bench page (bench/browser/build.html, which exists since issue #10's first changes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { preview } from 'vite';
import type { BuildRunResult } from '../browser/build-page';
import type { BenchRow } from '../lines';
import { HOST, ROOT } from '../support';
import { benchDocument } from './documents';
import { stageEnds } from './stages';

/** Pairs run per configuration unless `AERIE_BENCH_PAIRS` says otherwise. */
const DEFAULT_PAIRS = 3;
const MS_PER_S = 1000;

/** What a paired run needs from build.bench.ts (passed in: it imports this module). */
export interface PairedBench<Config> {
  configs: Config[];
  browser: Browser;
  /** This checkout's bench page. */
  origin: string;
  label(config: Config): string;
  run(browser: Browser, origin: string, config: Config, text: string): Promise<BuildRunResult>;
  tokens(config: Config): number;
  buildBundle(root: string, outDir: string): Promise<void>;
}

/** A checkout of `revision` beside this one (made once), and its full commit id (also the view bench's pairing). */
export function checkout(revision: string): { dir: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dir = join(ROOT, '.bench-cache', 'vs', commit.slice(0, 12));
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(join(ROOT, '.bench-cache', 'vs'), { recursive: true });
    execFileSync('git', ['worktree', 'add', '--force', '--detach', dir, commit], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
  if (!existsSync(join(dir, 'node_modules')))
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, commit };
}

/** Seconds spent in stages whose name starts with `prefix` (`embed-leaves`, `cluster`, …). */
function stageSeconds(result: BuildRunResult, prefix: string): number {
  const ends = stageEnds(result);
  let ms = 0;
  result.stages.forEach((s, i) => {
    if (s.stage.startsWith(prefix)) ms += ends[i] - s.startMs;
  });
  return ms / MS_PER_S;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const list = (values: number[]): string => values.map((v) => v.toFixed(1)).join(', ');

/** The paired rows: each configuration's median total beside the revision's, the ratio pair by pair. */
export async function pairedBuildRows<Config>(
  revision: string,
  bench: PairedBench<Config>,
): Promise<BenchRow[]> {
  const { dir, commit } = checkout(revision);
  const short = commit.slice(0, 12);
  const outDir = join(ROOT, '.bench-cache', 'vs-dist', short);
  console.log(`Building ${revision} (${short})'s bench page into .bench-cache/vs-dist/${short}/…`);
  await bench.buildBundle(dir, outDir);
  const server = await preview({
    configFile: join(dir, 'vite.config.ts'),
    root: dir,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: HOST, port: 0, strictPort: false, open: false },
  });
  const other = `http://${HOST}:${(server.httpServer.address() as AddressInfo).port}`;
  const pairs = Math.max(1, Number(process.env.AERIE_BENCH_PAIRS) || DEFAULT_PAIRS);
  const rows: BenchRow[] = [];
  try {
    for (const config of bench.configs) {
      const text = benchDocument(bench.tokens(config)).text;
      const ours: BuildRunResult[] = [];
      const theirs: BuildRunResult[] = [];
      for (let p = 0; p < pairs; p++) {
        ours.push(await bench.run(bench.browser, bench.origin, config, text));
        theirs.push(await bench.run(bench.browser, other, config, text));
        const [a, b] = [ours[p].totalMs / MS_PER_S, theirs[p].totalMs / MS_PER_S];
        console.log(
          `  ${bench.label(config)}, pair ${p + 1}: ${a.toFixed(1)} s vs ${b.toFixed(1)} s (${short})`,
        );
      }
      const totals = (runs: BuildRunResult[]) => runs.map((r) => r.totalMs / MS_PER_S);
      const ratios = ours.map((r, p) => r.totalMs / theirs[p].totalMs);
      const stages = ['embed-leaves', 'cluster', 'summarize', 'embed-summaries']
        .map(
          (stage) =>
            `${stage} ${median(ours.map((r) => stageSeconds(r, stage))).toFixed(1)} vs ` +
            `${median(theirs.map((r) => stageSeconds(r, stage))).toFixed(1)}`,
        )
        .join(', ');
      rows.push({
        name: `Build ${bench.label(config)}, paired with ${revision}`,
        value: median(totals(ours)),
        unit: 's',
        reference: median(totals(theirs)),
        referenceLabel: `${short} in the same browser, alternating, median of ${pairs}`,
        higherIsBetter: false,
        note:
          `pairs (this vs ${short}): ${list(totals(ours))} vs ${list(totals(theirs))} s; ratio per pair ` +
          `${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)}); median stage ` +
          `seconds: ${stages}`,
      });
    }
  } finally {
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
  return rows;
}
