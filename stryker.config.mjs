// @ts-check
/**
 * Mutation testing of src/core (`npm run mutate`; docs/testing.md). StrykerJS changes the code one small
 * edit at a time (a `<` into `<=`, a `+` into `-`, a branch removed…) and runs the tests that cover each edit:
 * a mutant the tests still pass is a hole in them, or an edit that cannot change behaviour (listed in
 * docs/testing.md). Not part of `npm test`: a full run over src/core takes hours on two cores (docs/testing.md).
 *
 * Incremental: results are kept in mutation/core.incremental.json (committed), so a re-run only tests mutants
 * in code or tests that changed since. `npm run mutate -- --force` re-tests everything.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  // Only the unit tests of the core (vitest.mutate.config.ts): each mutant then runs the few tests that reach
  // it (perTest coverage), and one every test may reach (a module-level constant) runs those files only.
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  coverageAnalysis: 'perTest',
  // A static mutant (module-level code: constants, tables built at import) cannot be tied to the tests that
  // need it, so Stryker would re-run every test for it, and one that loops at import would wait for the whole
  // suite's timeout (about 40 minutes here). They are reported as "ignored" and counted in docs/testing.md.
  ignoreStatic: true,
  mutate: ['src/core/**/*.ts', '!src/core/index.ts'],
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.core.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  incremental: true,
  incrementalFile: 'mutation/core.incremental.json',
  // Two test processes suit a two-core machine; `--concurrency 1` leaves a core to other work.
  concurrency: 2,
  // Numeric code under load: allow slow but finishing runs before calling a mutant an endless loop.
  timeoutFactor: 2,
  timeoutMS: 15_000,
  thresholds: { high: 90, low: 85, break: 85 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/core.html' },
  jsonReporter: { fileName: 'reports/mutation/core.json' },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true },
  ignorePatterns: [
    'dist',
    'public/models',
    'docs',
    'test-results',
    'playwright-report',
    'reports',
    '.bench-cache',
    '.scratch',
    // Python for the generators and references (scripts/python-env.sh), often a link: never needed by the tests.
    '.venv',
  ],
  // The initial run is instrumented (every expression counts its hits): several times slower than `vitest`.
  dryRunTimeoutMinutes: 60,
  // Only our TypeScript sources need `// @ts-nocheck` once mutated.
  disableTypeChecks: 'src/**/*.{ts,tsx}',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
