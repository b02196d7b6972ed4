#!/usr/bin/env node
/**
 * Where the test suite's time goes (docs/testing.md): the slowest unit test files from Vitest's JSON report, or
 * the slowest browser spec files from e2e/support/step-times.ts's report, as Markdown table rows.
 *
 *     npx vitest run --reporter=default --reporter=json --outputFile=test-results/unit-times.json
 *     node scripts/test-times.mjs unit test-results/unit-times.json [rows]
 *
 *     AERIE_E2E_WORKERS=1 npx playwright test --reporter=list,./e2e/support/step-times.ts
 *     node scripts/test-times.mjs e2e test-results/step-times.json [rows]
 *
 * A unit file's time is its wall time in its worker, with its slowest test. A spec file's is the sum of its
 * tests' wall times, their CPU time (every process of the run while they ran: their own with one worker) and
 * the two source lines they waited on longest (actions, expectations, fixtures).
 */
import { readFileSync } from 'node:fs';

const [kind, file, rowsArg] = process.argv.slice(2);
if (!['unit', 'e2e'].includes(kind) || !file) {
  console.error('usage: node scripts/test-times.mjs unit|e2e <report.json> [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 15);
const report = JSON.parse(readFileSync(file, 'utf8'));
const s = (ms) => (ms / 1000).toFixed(ms < 10_000 ? 1 : 0);

if (kind === 'unit') {
  const files = report.testResults.map((f) => {
    const slowest = f.assertionResults.reduce(
      (a, t) => ((t.duration ?? 0) > (a?.duration ?? -1) ? t : a),
      null,
    );
    return {
      file: f.name.slice(f.name.indexOf('tests/')),
      ms: f.endTime - f.startTime,
      tests: f.assertionResults.length,
      slowest,
    };
  });
  files.sort((a, b) => b.ms - a.ms);
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  console.log(`${files.length} files, ${report.numTotalTests} tests, ${s(total)} s of file time`);
  console.log('| file | tests | s | share | its slowest test (s) |\n|---|---|---|---|---|');
  for (const f of files.slice(0, rows)) {
    const share = ((100 * f.ms) / total).toFixed(1);
    console.log(
      `| \`${f.file}\` | ${f.tests} | ${s(f.ms)} | ${share} % | ${f.slowest.title.slice(0, 70)} (${s(f.slowest.duration)}) |`,
    );
  }
} else {
  const byFile = new Map();
  for (const t of report.tests) {
    const entry = byFile.get(t.file) ?? {
      file: t.file,
      tests: 0,
      ms: 0,
      cpuMs: 0,
      unknown: 0,
      lines: new Map(),
    };
    entry.tests++;
    entry.ms += t.ms;
    if (t.cpuMs === undefined || t.cpuMs < 0) entry.unknown++;
    else entry.cpuMs += t.cpuMs;
    for (const line of t.lines) {
      if (!line.where.includes(':')) continue; // fixtures and hooks without a place
      const key = `${line.where.split('/').at(-1)} \`${line.code.slice(0, 50)}\``;
      entry.lines.set(key, (entry.lines.get(key) ?? 0) + line.ms);
    }
    byFile.set(t.file, entry);
  }
  const files = [...byFile.values()].sort((a, b) => b.ms - a.ms);
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  const cpu = files.reduce((sum, f) => sum + f.cpuMs, 0);
  console.log(
    `${report.tests.length} tests in ${files.length} files, ${s(report.wallMs)} s wall, ` +
      `${s(total)} s of test time, ${s(cpu)} s of CPU`,
  );
  console.log('| spec | tests | s | CPU s | waited longest on |\n|---|---|---|---|---|');
  for (const f of files.slice(0, rows)) {
    const top = [...f.lines.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2)
      .map(([where, ms]) => `${s(ms)} s ${where}`)
      .join('; ');
    const cpuCell = f.unknown ? `${s(f.cpuMs)}+?` : s(f.cpuMs);
    console.log(`| \`${f.file}\` | ${f.tests} | ${s(f.ms)} | ${cpuCell} | ${top} |`);
  }
}
